import { expect, test } from '@playwright/test';
import { demo, signedInPage, takeConversation } from './helpers';

// An SMS channel end to end against the stack's Twilio simulator (E2E_PORT + 5): the
// admin creates the channel in the channels admin screen, a contact texts the business, an agent
// answers from the workstation (the composer counts SMS segments and refuses files without MMS), and
// the simulator received the answer.
// A number answers one channel. The demo "SMS" channel holds the demo account's
// number, so the form refuses it (409, nothing stored); the admin connects the account's second
// number (the simulator's account owns both, each with its own webhook).
const PORT = Number(process.env.E2E_PORT ?? 3100);
const TWILIO = `http://127.0.0.1:${Number(process.env.DEMO_SMS_PORT ?? PORT + 5)}`;
const ACCOUNT_SID = 'AC00000000000000000000000000demo14';
const AUTH_TOKEN = 'demo-sms-twilio-auth-token';
const DEMO_NUMBER = '+15005550006';
const SECOND_NUMBER = '+15005550014';
/** The seeded demo SMS channel, which the demo number's webhook points at. */
const DEMO_CHANNEL_ID = '5e5e9a00-0000-4000-8000-000000004014';

interface Sent {
  body: Record<string, string>;
  answeredStatus: number;
}

test('an admin creates an SMS channel, a contact texts, an agent answers and the contact receives it', async ({ browser, request }) => {
  const admin = await signedInPage(browser, demo('admin'));
  await admin.goto('/admin/settings/workspace');
  const suffix = Date.now() % 100_000;
  await admin.getByRole('button', { name: 'New channel' }).click();
  const modal = admin.getByRole('dialog', { name: 'New channel' });
  await modal.getByRole('textbox', { name: 'Type' }).click();
  await admin.getByRole('option', { name: 'SMS', exact: true }).click();
  await modal.getByRole('textbox', { name: 'Name' }).fill(`SMS ${suffix}`);
  await modal.getByRole('textbox', { name: 'Account SID' }).fill(ACCOUNT_SID);
  await modal.getByLabel('Auth token').fill(AUTH_TOKEN);
  // A sender (number or messaging service) is asked before anything is sent.
  await modal.getByRole('button', { name: 'Create channel' }).click();
  await expect(modal.getByText('A sender number or a messaging service SID is required')).toBeVisible();
  await modal.getByRole('textbox', { name: 'Sender number' }).fill(DEMO_NUMBER);
  await modal.getByRole('textbox', { name: 'API address' }).fill(TWILIO);
  // MMS stays off: this channel sends text only.
  await expect(modal.getByRole('switch', { name: 'MMS (pictures and files)' })).not.toBeChecked();
  // The demo number already answers the demo channel: refused on the number field, nothing stored.
  await modal.getByRole('button', { name: 'Create channel' }).click();
  await expect(modal.getByText('This page, account, number or bot is already connected to another channel')).toBeVisible();
  await expect(modal.getByRole('textbox', { name: 'Sender number' })).toHaveAccessibleDescription(/already connected to another channel/);
  const names = async () =>
    ((await (await admin.request.get('/api/v1/channels?type=sms&_limit=0')).json()) as { data: { name: string }[] }).data.map(
      (c) => c.name,
    );
  expect(await names()).not.toContain(`SMS ${suffix}`);
  // The account's second number is free.
  await modal.getByRole('textbox', { name: 'Sender number' }).fill(SECOND_NUMBER);
  await modal.getByRole('button', { name: 'Create channel' }).click();
  await expect(modal.getByText(`The channel SMS ${suffix} was created.`)).toBeVisible();
  expect(await names()).toContain(`SMS ${suffix}`);
  const webhookUrl = (await modal.getByText(/\/api\/v1\/channels\/[0-9a-f-]{36}\/webhook/).textContent())!.trim();
  const channelId = /channels\/([0-9a-f-]{36})\/webhook/.exec(webhookUrl)![1]!;
  await modal.getByRole('button', { name: 'Close' }).last().click();
  await expect(admin.getByRole('table', { name: 'Channels' }).getByRole('row', { name: new RegExp(`SMS ${suffix}`) })).toBeVisible();

  // The screen does not set entry points: the new channel's conversations go to a sector the demo agents serve.
  const whatsapp = (await (await admin.request.get('/api/v1/channels?type=whatsapp_360dialog&_limit=0')).json()) as {
    data: { entry_point: { uuid: string } | null }[];
  };
  expect(
    (await admin.request.patch(`/api/v1/channels/${channelId}`, { data: { entry_point: whatsapp.data[0]!.entry_point!.uuid } })).ok(),
  ).toBe(true);

  // At Twilio, the second number is given the channel's address; the contact texts that number.
  expect((await request.post(`${TWILIO}/_simulator/webhook-url`, { data: { url: webhookUrl, number: SECOND_NUMBER } })).ok()).toBe(true);
  const phone = `+55119${String(Date.now()).slice(-8)}`;
  const wrote = await request.post(`${TWILIO}/_simulator/inbound`, {
    data: { from: phone, to: SECOND_NUMBER, text: 'Oi! Vocês abrem no sábado?' },
  });
  expect(wrote.ok()).toBe(true);

  const agent = await signedInPage(browser, demo('agent'));
  await expect(async () => {
    await takeConversation(agent, (chat) => chat.channel.uuid === channelId);
  }).toPass({ timeout: 20_000 });
  await agent.reload();
  await agent
    .getByRole('listbox', { name: 'Conversations' })
    .getByRole('option', { name: new RegExp(phone.slice(-8)) })
    .first()
    .click();
  const messages = agent.getByRole('log', { name: 'Messages' });
  await expect(messages.getByText('Oi! Vocês abrem no sábado?')).toBeVisible();

  // MMS is off on this channel: a picture is refused before any upload.
  const uploads: string[] = [];
  agent.on('request', (r) => r.url().includes('/api/v1/storage/files') && r.method() === 'POST' && uploads.push(r.url()));
  const chooser = agent.waitForEvent('filechooser');
  await agent.getByRole('button', { name: 'Attach files' }).click();
  await (await chooser).setFiles([{ name: 'foto.png', mimeType: 'image/png', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47]) }]);
  await expect(agent.getByText('This channel takes no attachments (MMS is off)')).toBeVisible();
  await expect(agent.getByRole('list', { name: 'Attachments' })).toHaveCount(0);
  expect(uploads).toEqual([]);

  // The composer counts segments: GSM-7 160 characters, UCS-2 (an accent outside GSM-7) 70.
  const composer = agent.getByRole('textbox', { name: 'Message' });
  await composer.fill('Abrimos sim, das 9h às 13h.');
  await expect(agent.getByTestId('composer-limit')).toHaveText(`1 segment · ${160 - 27} characters left`);
  const answer = 'Abrimos sim, não fechamos no sábado.';
  await composer.fill(answer);
  await expect(agent.getByTestId('composer-limit')).toHaveText(
    `1 segment · ${70 - answer.length} characters left · special characters: 70 per segment`,
  );
  await composer.press('Enter');
  const reply = messages.getByTestId('message').filter({ hasText: answer });
  await expect(reply.getByLabel('Sent')).toBeVisible({ timeout: 15_000 });

  // Twilio received it from the second number for the contact's, with the status callback to the channel (at the worker's PUBLIC_URL).
  const sent = (await (await request.get(`${TWILIO}/_simulator/sent`)).json()) as { sent: Sent[] };
  expect(sent.sent).toContainEqual(
    expect.objectContaining({
      answeredStatus: 200,
      body: expect.objectContaining({
        To: phone,
        From: SECOND_NUMBER,
        Body: answer,
        StatusCallback: expect.stringMatching(new RegExp(`/api/v1/channels/${channelId}/webhook$`)),
      }),
    }),
  );

  // The demo number still answers the demo channel: a text to it lands there, not in the new channel.
  const other = `+55118${String(Date.now()).slice(-8)}`;
  expect(
    (await request.post(`${TWILIO}/_simulator/inbound`, { data: { from: other, to: DEMO_NUMBER, text: 'Oi, pelo número antigo' } })).ok(),
  ).toBe(true);
  await expect(async () => {
    const chat = await takeConversation(agent, (c) => (c.contact.phone_number ?? '').replace(/\D/g, '') === other.slice(1));
    expect(chat.channel.uuid).toBe(DEMO_CHANNEL_ID);
  }).toPass({ timeout: 20_000 });
  await admin.context().close();
});
