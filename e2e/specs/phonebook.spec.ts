import { expect, test, type Page } from '@playwright/test';
import { demo, screenshot, signedInPage } from './helpers';

async function openPhonebook(page: Page) {
  await page.getByRole('button', { name: 'Phonebook' }).click();
  const dialog = page.getByRole('dialog', { name: 'Phonebook' });
  await expect(dialog).toBeVisible();
  return dialog;
}

// Phonebook search: name and phone filters need at least 3 characters, searches are
// debounced; phones show in national format.
test('the phonebook refuses short searches and finds seeded contacts by name and phone', async ({ browser }) => {
  const agent = await signedInPage(browser, demo('agent'));
  const dialog = await openPhonebook(agent);
  const table = dialog.getByRole('table', { name: 'Contacts' });
  const name = dialog.getByRole('textbox', { name: 'Name' });
  const phone = dialog.getByRole('textbox', { name: 'Phone' });

  await name.fill('Ma');
  await expect(dialog.getByText('Should have at least 3 characters')).toBeVisible();
  await name.fill('maria');
  await expect(dialog.getByText('Should have at least 3 characters')).toHaveCount(0);
  const maria = table.getByRole('row', { name: /Maria Silva/ });
  await expect(maria).toBeVisible();
  await expect(maria.getByRole('cell', { name: '(11) 98765-0001' })).toBeVisible();
  await expect(table.getByRole('row', { name: /João Souza/ })).toHaveCount(0);
  await screenshot(agent, 'phonebook');

  await name.fill('');
  await phone.fill('21');
  await expect(dialog.getByText('Should have at least 3 characters')).toBeVisible();
  await phone.fill('21 98765');
  await expect(table.getByRole('row', { name: /Ana Costa/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /Maria Silva/ })).toHaveCount(0);

  await phone.fill('');
  await name.fill('Nobody by this name');
  await expect(dialog.getByText('No data found')).toBeVisible();
  await agent.context().close();
});

// New-contact rules and Start conversation: the channels of GET /api/v1/channels, a
// template required on the 360dialog channel (none approved yet), the initial message required on a
// custom channel without the template flag; POST /api/v1/contacts/{id}/conversations starts it.
test('an agent creates a contact and starts a conversation with it', async ({ browser }) => {
  const agent = await signedInPage(browser, demo('agent'));

  const dialog = await openPhonebook(agent);
  await dialog.getByRole('button', { name: 'New contact' }).click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Required', { exact: true })).toHaveCount(3);
  const contactName = `Carla Nunes ${Date.now()}`;
  const digits = String(Date.now() % 10_000).padStart(4, '0');
  await dialog.getByRole('textbox', { name: 'Name' }).fill(contactName);
  await dialog.getByRole('textbox', { name: 'Organization' }).fill('Nunes Ltda');
  await dialog.getByRole('textbox', { name: 'Phone' }).fill('123');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Número de telefone inválido')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Phone' }).fill(`(11) 91234-${digits}`);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(agent.getByText('Contact successfully created')).toBeVisible();

  // The phonebook shows the new contact, its phone in national format.
  const row = dialog.getByRole('table', { name: 'Contacts' }).getByRole('row', { name: new RegExp(contactName) });
  await expect(row.getByRole('cell', { name: `(11) 91234-${digits}` })).toBeVisible();
  await row.getByRole('button', { name: `Start conversation with ${contactName}` }).click();

  const start = agent.getByRole('dialog', { name: 'Start conversation' });
  // Two channels in the demo: none preselected.
  await expect(start.getByRole('textbox', { name: 'Channel' })).toHaveValue('');
  await start.getByRole('button', { name: 'Start conversation' }).click();
  await expect(start.getByText('Channel is required')).toBeVisible();
  await start.getByRole('textbox', { name: 'Channel' }).click();
  await agent.getByRole('option', { name: 'WhatsApp' }).click();
  // A 360dialog channel starts with a template (none approved on a fresh stack; other specs may approve some).
  await expect(
    start
      .getByText('There are no approved templates, request registration to the admin')
      .or(start.getByRole('textbox', { name: 'Template' })),
  ).toBeVisible();
  await expect(start.getByRole('textbox', { name: 'Initial message' })).toHaveCount(0);
  await start.getByRole('textbox', { name: 'Channel' }).click();
  await agent.getByRole('option', { name: 'API' }).click();
  await start.getByRole('button', { name: 'Start conversation' }).click();
  await expect(start.getByText('Initial message is required')).toBeVisible();
  await start.getByRole('textbox', { name: 'Initial message' }).fill('Olá Carla! Podemos falar sobre seu pedido?');
  await screenshot(agent, 'phonebook-start-conversation');
  const posted = agent.waitForResponse(
    (r) => r.request().method() === 'POST' && /\/api\/v1\/contacts\/[^/]+\/conversations$/.test(r.url()),
  );
  await start.getByRole('button', { name: 'Start conversation' }).click();
  const response = await posted;
  expect(response.status()).toBe(201);
  const started = ((await response.json()) as { data: { uuid: string; state: string } }).data;
  expect(started.state).toBe('outbound-started');
  // Both modals close; the workstation takes the conversation from the realtime update-conversation event.
  await expect(start).toHaveCount(0);
  await expect(dialog).toHaveCount(0);
  // Outbound-started: added, made active; the composer waits for the contact.
  const list = agent.getByRole('listbox', { name: 'Conversations' });
  await expect(list.getByRole('option', { name: new RegExp(contactName) })).toHaveAttribute('aria-selected', 'true');
  await expect(agent.getByText('You can only send messages after client interaction')).toBeVisible();

  // Leave the queue as the seed made it for the next specs.
  expect((await agent.request.patch(`/api/v1/conversations/${started.uuid}`, { data: { state: 'closed' } })).status()).toBe(200);
  await agent.context().close();
});

/** Switches a feature of the demo tenant on the tenant page and waits until the api saved it. */
async function toggleFeature(tenants: Page, label: string, on: boolean): Promise<void> {
  const flag = tenants.getByRole('switch', { name: label });
  await expect(flag).toBeChecked({ checked: !on });
  const saved = tenants.waitForResponse((r) => r.request().method() === 'POST' && /\/api\/v1\/tenants\/[^/]+\/configure$/.test(r.url()));
  await flag.click({ force: true });
  expect((await saved).status()).toBe(200);
  await expect(flag).toBeChecked({ checked: on });
}

// The Start-conversation button is disabled unless feature start_new_conversation is on.
test('starting a conversation is disabled while the tenant has start_new_conversation off', async ({ browser }) => {
  const tenants = await signedInPage(browser, demo('tenants'));
  await tenants.getByRole('link', { name: 'Demo' }).click();
  await toggleFeature(tenants, 'Start new conversation', false);
  try {
    const agent = await signedInPage(browser, demo('agent'));
    const dialog = await openPhonebook(agent);
    const startButtons = dialog.getByRole('button', { name: /^Start conversation with / });
    await expect(startButtons.first()).toBeVisible();
    for (const button of await startButtons.all()) await expect(button).toBeDisabled();
    await agent.context().close();
  } finally {
    // The demo tenant keeps every feature on for the other specs.
    await toggleFeature(tenants, 'Start new conversation', true);
    await tenants.context().close();
  }
});
