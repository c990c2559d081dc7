import { expect, test } from '@playwright/test';
import { demo, FAKE_MICROPHONE_LAUNCH, signedInPage, takeConversation } from './helpers';

// A fake microphone for the file's browser (visitors' voice notes).
test.use({ launchOptions: FAKE_MICROPHONE_LAUNCH });

/** The demo tenant's livechat channel "Site" (packages/simulators/src/demo/demo-livechat.ts). */
const SITE = '517e0c4a-0000-4000-8000-00000000c4a7';

// "Livechat channel appearance": the admin styles the widget and adds a custom
// field with a validator; a website visitor chats through the widget and sees the agent's reply live.
test('an admin sets the livechat appearance; a visitor chats through the widget and sees the agent reply live', async ({ browser }) => {
  // Three browsers (admin, visitor, agent) in one story.
  test.setTimeout(60_000);
  const stamp = Date.now();
  const title = `Loja Demo ${stamp}`;
  const admin = await signedInPage(browser, demo('admin'));
  await admin.goto(`/admin/settings/workspace/channels/${SITE}`);
  await expect(admin.getByRole('heading', { name: 'Appearance' })).toBeVisible();
  await admin.getByRole('textbox', { name: 'Header title' }).fill(title);
  // The live preview follows the form.
  await expect(admin.getByTestId('livechat-preview').getByTestId('livechat-header')).toContainText(title);
  await admin.getByRole('button', { name: 'Add field' }).click();
  const field = admin.getByRole('group', { name: 'Custom field 2' });
  await field.getByRole('textbox', { name: 'Key' }).fill('cpf');
  await field.getByRole('textbox', { name: 'Label' }).fill('CPF');
  await field.getByRole('textbox', { name: 'Maximum length' }).fill('14');
  await field.getByRole('textbox', { name: 'Validator (regular expression)' }).fill('(');
  await admin.getByRole('button', { name: 'Save appearance' }).click();
  // The api's rule, checked in the form first.
  await expect(
    field.getByText('The validator is not a valid regular expression (back-references and lookarounds are not supported)'),
  ).toBeVisible();
  await field.getByRole('textbox', { name: 'Validator (regular expression)' }).fill('\\d{3}\\.\\d{3}\\.\\d{3}-\\d{2}');
  await field.getByRole('textbox', { name: 'Message when invalid' }).fill('Use o formato 000.000.000-00');
  await field.getByRole('checkbox', { name: 'Required' }).check();
  await admin.getByRole('button', { name: 'Save appearance' }).click();
  await expect(admin.getByText('Appearance saved')).toBeVisible();
  await expect(admin.getByTestId('livechat-snippet')).toContainText(`/livechat/${SITE}`);

  // The visitor: another browser, no session.
  const visitorContext = await browser.newContext({ locale: 'en-US' });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/livechat/${SITE}`);
  await expect(visitor.getByTestId('livechat-header')).toContainText(title);
  const name = `Visitante ${stamp}`;
  await visitor.getByRole('textbox', { name: 'Name' }).fill(name);
  await visitor.getByRole('textbox', { name: 'CPF' }).fill('12345678901');
  await visitor.getByRole('button', { name: 'Start chat' }).click();
  await expect(visitor.getByText('Use o formato 000.000.000-00')).toBeVisible();
  await visitor.getByRole('textbox', { name: 'CPF' }).fill('123.456.789-01');
  await visitor.getByRole('button', { name: 'Start chat' }).click();
  const box = visitor.getByRole('textbox', { name: 'Type a message' });
  await box.fill('Olá, quero saber do meu pedido');
  await box.press('Enter');
  const log = visitor.getByRole('log', { name: 'Messages' });
  await expect(log.getByText('Olá, quero saber do meu pedido')).toBeVisible();

  // The agent accepts the visitor's conversation and answers from the workstation.
  const agent = await signedInPage(browser, demo('agent'));
  const conversation = await takeConversation(agent, (chat) => chat.contact.name === name);
  expect(conversation.channel.uuid).toBe(SITE);
  await agent.goto('/app');
  await agent
    .getByRole('listbox', { name: 'Conversations' })
    .getByRole('option', { name: new RegExp(name) })
    .click();
  await expect(agent.getByTestId('chat-contact-name')).toHaveText(name);
  // The pre-chat answer shows under its field's label (CPF), not its key (cpf).
  const customer = agent.getByRole('complementary', { name: 'Customer' });
  await customer.getByRole('button', { name: /^Show \d+ more fields$/ }).click();
  await expect(customer.getByText('CPF', { exact: true })).toBeVisible();
  await expect(customer.getByText('cpf', { exact: true })).toHaveCount(0);
  await expect(customer.getByText('123.456.789-01')).toBeVisible();
  const composer = agent.getByRole('textbox', { name: /^(Message|Internal note)$/ });
  await composer.fill(`Olá ${name}, já verifico!`);
  await composer.press('Enter');

  // The visitor sees the reply without reloading.
  await expect(log.getByText(`Olá ${name}, já verifico!`)).toBeVisible({ timeout: 5_000 });
  await expect(log.getByText('Olá, quero saber do meu pedido')).toBeVisible();
  // Delivered by storing: the agent's message is marked sent, never failed.
  await expect(async () => {
    const res = await agent.request.get(`/api/v1/conversations/${conversation.uuid}/messages?_limit=20`);
    const body = JSON.stringify(await res.json());
    expect(body).not.toContain('"status":"failed"');
  }).toPass();
  // Leave the agent's workstation as the other specs expect it: the visitor's conversation finished.
  expect((await agent.request.patch(`/api/v1/conversations/${conversation.uuid}`, { data: { state: 'closed' } })).ok()).toBe(true);
  await visitorContext.close();
  await agent.context().close();
  await admin.context().close();
});

// "audio recording allowed": with it on, the visitor records a voice note in the widget
// and the agent gets it as an audio message; with it off the widget has no record button.
test('a visitor sends a voice note where the appearance allows audio recording', async ({ browser, baseURL }) => {
  const admin = await signedInPage(browser, demo('admin'));
  const channel = (
    (await (await admin.request.get(`/api/v1/channels/${SITE}`)).json()) as {
      data: { appearance: { widget_settings: Record<string, unknown> } & Record<string, unknown> };
    }
  ).data;
  const original = channel.appearance;
  const withAudio = (on: boolean) => ({
    ...original,
    custom_fields: [],
    widget_settings: { ...original.widget_settings, audio_recording_allowed: on },
  });
  const visitorContext = await browser.newContext({ locale: 'en-US', baseURL, permissions: ['microphone'] });
  try {
    expect((await admin.request.patch(`/api/v1/channels/${SITE}`, { data: { appearance: withAudio(false) } })).ok()).toBe(true);
    const visitor = await visitorContext.newPage();
    await visitor.goto(`/livechat/${SITE}`);
    const name = `Voz ${Date.now()}`;
    await visitor.getByRole('textbox', { name: 'Name' }).fill(name);
    await visitor.getByRole('button', { name: 'Start chat' }).click();
    await expect(visitor.getByRole('textbox', { name: 'Type a message' })).toBeVisible();
    await expect(visitor.getByRole('button', { name: 'Record voice' })).toHaveCount(0);

    expect((await admin.request.patch(`/api/v1/channels/${SITE}`, { data: { appearance: withAudio(true) } })).ok()).toBe(true);
    await visitor.reload();
    await visitor.getByRole('button', { name: 'Record voice' }).click();
    const timer = visitor.getByRole('timer', { name: 'Recording time' });
    await expect(timer).toHaveText(/^00:0[1-9]$/, { timeout: 5_000 });
    await visitor.getByRole('button', { name: 'Send recording' }).click();
    await expect(timer).toHaveCount(0);
    const log = visitor.getByRole('log', { name: 'Messages' });
    await expect(log.locator('audio')).toHaveCount(1);

    // The agent side: the visitor's conversation holds the audio message.
    const open = (
      (await (await admin.request.get('/api/v1/dashboard/conversations')).json()) as {
        data: { uuid: string; contact: { name: string | null } }[];
      }
    ).data;
    const conversation = open.find((c) => c.contact.name === name)!.uuid;
    const messages = (
      (await (await admin.request.get(`/api/v1/conversations/${conversation}/messages`)).json()) as {
        data: { author: string; annex: { content_type: string } | null }[];
      }
    ).data;
    expect(messages.at(-1)).toMatchObject({ author: 'CONTACT', annex: { content_type: 'audio/webm' } });
    expect(
      (await admin.request.patch(`/api/v1/conversations/${conversation}`, { data: { state: 'closed', current_role: 'supervisor' } })).ok(),
    ).toBe(true);
  } finally {
    await visitorContext.close();
    expect((await admin.request.patch(`/api/v1/channels/${SITE}`, { data: { appearance: original } })).ok()).toBe(true);
    await admin.context().close();
  }
});
