import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  acceptConversationOf,
  demo,
  demoApiChannel,
  demoSession,
  finishAgentConversations,
  screenshot,
  sendContactMessage,
  signedInPage,
} from './helpers';

// The customer panels beside the chat of an accepted conversation. Each
// test has its own contact writing on the demo custom channel "API", so it does not depend on what
// earlier specs took from the seed's queue, and leaves the queue and the agent as it found them.
const CHANNEL_TOKEN = 'demo-api-channel-token';

let channel = '';
test.beforeAll(async ({ playwright, baseURL }) => {
  // The demo API channel, read by the supervisor (who sees the whole workspace).
  const supervisor = await demoSession(playwright, baseURL, 'supervisor');
  channel = await demoApiChannel(supervisor);
  await supervisor.dispose();
});
// Specs after this one expect the agent to hold no chats: finish what each test accepted.
test.afterEach(({ playwright, baseURL }) => finishAgentConversations(playwright, baseURL));

/** A contact writes through the custom API channel, as their system would. */
async function contactWrites(request: APIRequestContext, phone: string, content: string, name?: string): Promise<void> {
  await sendContactMessage(request, channel, CHANNEL_TOKEN, {
    contact: { phone, name },
    message: { id: `e2e-customer-${Date.now()}-${Math.random()}`, content },
  });
}

/** A new contact (a phone no one has) writes its first message; its conversation waits. */
async function newContactWrites(request: APIRequestContext, name: string, content: string): Promise<string> {
  const phone = `+55219${String(Date.now()).slice(-8)}`;
  await contactWrites(request, phone, content, name);
  return phone;
}

/** Selects `needle` inside a chat message body, as an agent dragging over it would. */
async function selectInChat(page: Page, needle: string): Promise<void> {
  await page.evaluate((text) => {
    for (const element of Array.from(document.querySelectorAll('[data-bindable-text="true"]'))) {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent?.indexOf(text) ?? -1;
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + text.length);
        document.getSelection()?.removeAllRanges();
        document.getSelection()?.addRange(range);
        return;
      }
    }
    throw new Error(`no chat text ${text}`);
  }, needle);
}

const panels = (page: Page) => page.getByTestId('customer-panels');
const details = (page: Page) => panels(page).getByRole('region', { name: 'Customer details' });
const fieldValue = (page: Page, label: string) =>
  details(page)
    .locator('dl > div')
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd');

test('an agent reads and edits the customer details with their rules', async ({ browser, request }) => {
  const phone = await newContactWrites(request, 'Beatriz Ramos', 'Quero atualizar meu cadastro.');
  const agent = await signedInPage(browser, demo('agent'));
  const chat = await acceptConversationOf(agent, phone);

  // Read view: the primary fields, the rest behind 'Show N more fields'.
  await expect(fieldValue(agent, 'Name')).toHaveText(chat.contact.name);
  await expect(fieldValue(agent, 'Phone 1')).toHaveText(/^\(\d\d\) \d{4,5}-\d{4}$/);
  await expect(fieldValue(agent, 'City/Department')).toBeHidden();
  await details(agent).getByRole('button', { name: 'Show 9 more fields' }).click();
  await expect(fieldValue(agent, 'City/Department')).toHaveText('--');
  // Each panel collapses from its header.
  await panels(agent).getByRole('button', { name: 'Customer details', exact: true }).click();
  await expect(fieldValue(agent, 'Name')).toBeHidden();
  await panels(agent).getByRole('button', { name: 'Customer details', exact: true }).click();

  await panels(agent).getByRole('button', { name: 'Edit customer details' }).click();
  const form = panels(agent).getByRole('form', { name: 'Edit customer details' });
  await expect(form.getByLabel('Phone 1')).toHaveAttribute('readonly', '');

  // Required name, invalid phone once touched, lowercased e-mail, digits-only customer id.
  await form.getByLabel('Name').fill('');
  await form.getByLabel('Phone 2').fill('123');
  await form.getByLabel('Email').pressSequentially('Maria@Exemplo.COM');
  await expect(form.getByLabel('Email')).toHaveValue('maria@exemplo.com');
  await expect(form.getByText('Required')).toBeVisible();
  await expect(form.getByText('Número de telefone inválido')).toBeVisible();
  await form.getByLabel('Customer ID').fill('12a');
  // Pressing Save does not blur the field first: its error would push the button away from under
  // the pointer before the mouse comes up, and the save would be lost.
  await form.getByRole('button', { name: 'Save' }).hover();
  await agent.mouse.down();
  await expect(form.getByLabel('Customer ID')).toBeFocused();
  await expect(form.getByText('Campo aceita somente números')).toBeHidden();
  await agent.mouse.up();
  await expect(form.getByText('Campo aceita somente números')).toBeVisible();
  // A contact created by its first message has no organization yet: it is required too.
  await expect(form.getByText('Required', { exact: true })).toHaveCount(2);
  await form.getByLabel('Organization').fill('Ramos Engenharia');

  await form.getByLabel('Name').fill(`${chat.contact.name} Santos`);
  await form.getByLabel('Phone 2').fill('(11) 3333-4444');
  await form.getByLabel('Customer ID').fill('4711');
  await form.getByLabel('City/Department').fill('Campinas');
  // The messages go as the fields are corrected, before Save is pressed.
  await expect(form.getByText('Required', { exact: true })).toHaveCount(0);
  await expect(form.getByText('Campo aceita somente números')).toBeHidden();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(agent.getByText('Contact successfully updated')).toBeVisible();

  // Back to the read view with the saved contact; the conversation list shows the new name.
  await expect(form).toBeHidden();
  await expect(fieldValue(agent, 'Name')).toHaveText(`${chat.contact.name} Santos`);
  await expect(fieldValue(agent, 'Phone 2')).toHaveText('(11) 3333-4444');
  await expect(fieldValue(agent, 'Email')).toHaveText('maria@exemplo.com');
  await expect(fieldValue(agent, 'Organization')).toHaveText('Ramos Engenharia');
  await expect(
    agent.getByRole('listbox', { name: 'Conversations' }).getByRole('option', { name: new RegExp(`${chat.contact.name} Santos`) }),
  ).toBeVisible();
  const saved = await agent.request.get(`/api/v1/contacts/${chat.contact.uuid}`);
  expect((await saved.json()).data).toMatchObject({
    phone2: '+551133334444',
    customer_id: 4711,
    city: 'Campinas',
    email: 'maria@exemplo.com',
  });
  await agent.context().close();
});

test('an agent binds text selected in the chat to contact fields by their rules', async ({ browser, request }) => {
  const phone = await newContactWrites(request, 'Carlos Mendes', 'Bom dia!');
  const agent = await signedInPage(browser, demo('agent'));
  await acceptConversationOf(agent, phone);
  // The chat has loaded (a message arriving during the first load can be missed by the list of messages).
  await expect(agent.locator('[data-bindable-text="true"]', { hasText: 'Bom dia!' })).toBeVisible();
  await contactWrites(request, phone, 'Meu outro número é +5521999887766 e moro na Rua das Flores, 120');
  await expect(agent.locator('[data-bindable-text="true"]', { hasText: '+5521999887766' })).toBeVisible();

  const bind = panels(agent).getByRole('region', { name: 'Bind selected text to a field' });
  const choose = async (field: string) => {
    await bind.getByRole('textbox', { name: 'Field' }).click();
    await agent.getByRole('option', { name: field, exact: true }).click();
  };
  await selectInChat(agent, '+5521999887766');
  await expect(bind.getByTestId('bind-selected-text')).toHaveText('“+5521999887766”');

  // phone1 is never overwritten; a number field takes only digits.
  await choose('Phone 1');
  await bind.getByRole('button', { name: 'Bind' }).click();
  await expect(bind.getByText('Telefone 1 não pode ser editado')).toBeVisible();
  await choose('Customer ID');
  await bind.getByRole('button', { name: 'Bind' }).click();
  await expect(bind.getByText('Campo aceita somente números')).toBeVisible();
  await choose('Phone 2');
  await bind.getByRole('button', { name: 'Bind' }).click();
  await expect(agent.getByText('Text bound successfully!')).toBeVisible();
  await expect(bind).toBeHidden();
  await expect(fieldValue(agent, 'Phone 2')).toHaveText('(21) 99988-7766');

  // A telephone field refuses text that is not E.164 with the country code; a text field takes it.
  await selectInChat(agent, 'Rua das Flores');
  await choose('Phone 2');
  await bind.getByRole('button', { name: 'Bind' }).click();
  await expect(bind.getByText(/^Texto selecionado não é um telefone válido/)).toBeVisible();
  // Append needs a text field with a value: not offered for the empty address line yet.
  await choose('Address line 1');
  await expect(bind.getByRole('radio', { name: 'Append' })).toBeDisabled();
  await bind.getByRole('button', { name: 'Bind' }).click();
  await expect(agent.getByText('Text bound successfully!')).toBeVisible();
  await details(agent).getByRole('button', { name: 'Show 9 more fields' }).click();
  await expect(fieldValue(agent, 'Address line 1')).toHaveText('Rua das Flores');

  // Now it has one: the number is appended. All by keyboard.
  await selectInChat(agent, '120');
  const picker = bind.getByRole('textbox', { name: 'Field' });
  await picker.fill('Address line 1');
  await picker.press('ArrowDown');
  await picker.press('Enter');
  await expect(picker).toHaveValue('Address line 1');
  await bind.getByRole('radio', { name: 'Append' }).focus();
  await agent.keyboard.press('Space');
  await bind.getByRole('button', { name: 'Bind' }).press('Enter');
  await expect(fieldValue(agent, 'Address line 1')).toHaveText('Rua das Flores 120');
  // Escape discards a selection the agent does not want to bind.
  await selectInChat(agent, 'Meu outro número');
  await expect(bind).toBeVisible();
  await bind.getByRole('button', { name: 'Bind' }).focus();
  await agent.keyboard.press('Escape');
  await expect(bind).toBeHidden();
  await screenshot(agent, 'customer-panels');
  await agent.context().close();
});

test('the journey lists the previous sessions; conversation fields are added and edited', async ({
  browser,
  request,
  playwright,
  baseURL,
}) => {
  // An admin defines a conversation field (POST /api/v1/conversations/fields).
  const admin = await demoSession(playwright, baseURL, 'admin');
  expect((await admin.post('/api/v1/conversations/fields', { data: { name: 'Pedido' } })).status()).toBe(201);
  await admin.dispose();

  const phone = await newContactWrites(request, 'Daniela Rocha', 'Olá, tudo bem?');
  const agent = await signedInPage(browser, demo('agent'));
  const first = await acceptConversationOf(agent, phone);
  const journey = panels(agent).getByRole('region', { name: 'Customer journey' });
  // The open conversation is not a previous session.
  await expect(journey.getByText('This customer has no previous sessions')).toBeVisible();

  // The contact comes back after a finished session: the journey links to it.
  expect((await agent.request.patch(`/api/v1/conversations/${first.uuid}`, { data: { state: 'closed' } })).ok()).toBe(true);
  await contactWrites(request, phone, 'Oi de novo!');
  const chat = await acceptConversationOf(agent, phone);
  await expect(journey.getByRole('link', { name: /^Chat via / })).toHaveAttribute('href', `/client-journey/agent/${first.uuid}`);
  await expect(journey.getByRole('link', { name: 'See the full history' })).toHaveAttribute(
    'href',
    `/app?conversation=${chat.uuid}#history`,
  );

  const fields = panels(agent).getByRole('region', { name: 'Conversation fields' });
  await expect(fields.getByText('No extra fields. Select a text in the chat or click on edit button to insert more fields.')).toBeVisible();
  await panels(agent).getByRole('button', { name: 'Edit conversation fields' }).click();
  const add = fields.getByRole('form', { name: 'Add conversation field' });
  await add.getByRole('button', { name: 'Add field' }).click();
  await expect(add.getByText('Campo obrigatório')).toBeVisible();
  await expect(add.getByText('Valor é obrigatório')).toBeVisible();
  await add.getByRole('textbox', { name: 'Field' }).click();
  await agent.getByRole('option', { name: 'Pedido', exact: true }).click();
  await add.getByRole('textbox', { name: 'Value' }).fill('#1234');
  await add.getByRole('button', { name: 'Add field' }).click();
  await expect(agent.getByText('Campo adicionado com sucesso')).toBeVisible();
  // The field is present now: it is edited, no longer offered for adding.
  await expect(fields.getByText('Every conversation field already has a value.')).toBeVisible();
  await fields.getByRole('textbox', { name: 'Pedido' }).fill('');
  await fields.getByRole('button', { name: 'Save Pedido' }).click();
  await expect(fields.getByText('Campo obrigatório')).toBeVisible();
  await fields.getByRole('textbox', { name: 'Pedido' }).fill('#1235');
  await fields.getByRole('button', { name: 'Save Pedido' }).click();
  await expect(agent.getByText('Informações editadas com sucesso')).toBeVisible();
  await panels(agent).getByRole('button', { name: 'Edit conversation fields' }).click();
  await expect(fields.getByText('#1235')).toBeVisible();
  await agent.context().close();
});
