import { expect, type APIRequestContext, type Browser, type Locator, type Page, type PlaywrightWorkerArgs } from '@playwright/test';
import type { ChannelMessageInput } from '@atende/contract';
import { fileURLToPath } from 'node:url';

export const PASSWORD = 'atende123';
export const demo = (local: string) => `${local}@demo.atende.dev`;
const artifacts = fileURLToPath(new URL('../artifacts/', import.meta.url));

/** Fills and sends the sign-in form (English interface). */
export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A separate browser context (own cookies and storage) signed in as `email`. */
export async function signedInPage(browser: Browser, email: string, locale = 'en-US'): Promise<Page> {
  const context = await browser.newContext({ locale });
  const page = await context.newPage();
  await signIn(page, email);
  await expect(page).not.toHaveURL(/\/login/);
  return page;
}

/** An api session of the demo user `local` (form-encoded login), for set-up and clean-up behind the screen. */
export async function demoSession(
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string | undefined,
  local: string,
): Promise<APIRequestContext> {
  const session = await playwright.request.newContext({ baseURL });
  expect((await session.post('/api/v1/login', { form: { email: demo(local), password: PASSWORD } })).ok()).toBe(true);
  return session;
}

/**
 * Finishes every conversation the demo agent holds. The specs share that agent and run one after
 * another: a spec that takes chats calls this in its afterEach, so the next spec finds the agent free
 * (under its capacity) even when a test failed half-way.
 */
export async function finishAgentConversations(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string | undefined): Promise<void> {
  const agent = await demoSession(playwright, baseURL, 'agent');
  const held = ((await (await agent.get('/api/v1/conversations/offered/me')).json()) as { data: Listed[] }).data;
  for (const chat of held) expect((await agent.patch(`/api/v1/conversations/${chat.uuid}`, { data: { state: 'closed' } })).ok()).toBe(true);
  await agent.dispose();
}

/** From the phonebook, the Start conversation dialog for the contact `name`, with `channel` picked. */
export async function startFromPhonebook(page: Page, name: string, channel: string): Promise<Locator> {
  await page.getByRole('button', { name: 'Phonebook' }).click();
  const phonebook = page.getByRole('dialog', { name: 'Phonebook' });
  await phonebook.getByRole('textbox', { name: 'Name' }).fill(name);
  await phonebook.getByRole('button', { name: `Start conversation with ${name}` }).click();
  const start = page.getByRole('dialog', { name: 'Start conversation' });
  await start.getByRole('textbox', { name: 'Channel' }).click();
  await page.getByRole('option', { name: channel }).click();
  return start;
}

/** Opens an entry of the avatar dropdown. */
export async function openUserMenuItem(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name }).click();
}

/** A screenshot for the README and docs/, in e2e/artifacts/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${artifacts}${name}.png` });
}

/** The demo tenant's custom API channel ("API"), as every signed-in user lists it (GET /api/v1/channels). */
export async function demoApiChannel(request: APIRequestContext): Promise<string> {
  const res = await request.get('/api/v1/channels?type=custom&_limit=0');
  expect(res.ok()).toBe(true);
  const channel = ((await res.json()) as { data: { uuid: string; name: string }[] }).data.find((c) => c.name === 'API');
  expect(channel).toBeDefined();
  return channel!.uuid;
}

/**
 * A contact's message on a custom API channel, as the contact's system posts it (Bearer `token`):
 * the api only queues it (202 with the message's uuid), so this then asks the channel's message route
 * until the worker has stored it (404 before, 200 after) and answers where it went. Whatever a spec
 * does next (take the conversation, read its messages) then finds the message there.
 */
export async function sendContactMessage(
  request: APIRequestContext,
  channel: string,
  token: string,
  body: ChannelMessageInput,
): Promise<{ message_uuid: string; conversation_uuid: string }> {
  const headers = { Authorization: `Bearer ${token}` };
  const posted = await request.post(`/api/v1/channels/droz/${channel}/messages`, { headers, data: body });
  expect(posted.status(), await posted.text()).toBe(202);
  const { message_uuid } = ((await posted.json()) as { data: { message_uuid: string } }).data;
  let conversation_uuid = '';
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/v1/channels/droz/${channel}/messages/${message_uuid}`, { headers });
        if (res.status() === 200)
          conversation_uuid = ((await res.json()) as { data: { conversation_uuid: string } }).data.conversation_uuid;
        return res.status();
      },
      // Stored within moments: asked often, so the spec goes on as soon as it is.
      { message: `message ${message_uuid} stored by the worker`, timeout: 10_000, intervals: [50, 100, 250] },
    )
    .toBe(200);
  return { message_uuid, conversation_uuid };
}

/** A conversation as the lists answer it (the fields the specs read). */
export interface Listed {
  uuid: string;
  contact: { uuid: string; name: string; phone_number: string | null };
  channel: { uuid: string };
}

/**
 * Accept session until the agent holds the waiting conversation `wanted` picks (the queue serves
 * the oldest first): conversations of others taken on the way go back to the queue at once, behind it. Done with the
 * agent's own api calls (PATCH /api/v1/conversations); the screen is left as it is.
 */
export async function takeConversation(page: Page, wanted: (chat: Listed) => boolean): Promise<Listed> {
  const me = ((await (await page.request.get('/api/v1/users/me')).json()) as { data: { id: number } }).data;
  let mine: Listed | undefined;
  for (let i = 0; i < 10 && !mine; i++) {
    const res = await page.request.patch('/api/v1/conversations', { data: { user_id: me.id } });
    expect(res.status()).toBe(200);
    const chat = ((await res.json()) as { data: Listed }).data;
    if (wanted(chat)) mine = chat;
    // Back at once, so the agent never holds more than one extra chat (capacity) and it queues behind the wanted one.
    else expect((await page.request.patch(`/api/v1/conversations/${chat.uuid}`, { data: { state: 'waiting' } })).ok()).toBe(true);
  }
  expect(mine).toBeDefined();
  return mine!;
}

/**
 * `agent` takes the conversation of the contact named `name` as soon as it waits (a message the
 * worker stores a moment after it was sent), then opens it: the conversation and its message log.
 */
export async function takeAndOpen(agent: Page, name: string): Promise<{ chat: Listed; messages: Locator }> {
  let mine: Listed | undefined;
  await expect(async () => {
    mine = await takeConversation(agent, (chat) => chat.contact.name === name);
  }).toPass({ timeout: 20_000 });
  await agent.reload();
  await agent
    .getByRole('listbox', { name: 'Conversations' })
    .getByRole('option', { name: new RegExp(name) })
    .click();
  return { chat: mine!, messages: agent.getByRole('log', { name: 'Messages' }) };
}

/** takeConversation for the contact with `phone`, then the conversation is opened from the list. */
export async function acceptConversationOf(page: Page, phone: string): Promise<Listed> {
  const mine = await takeConversation(page, (chat) => chat.contact.phone_number === phone);
  // Set-up done behind the screen's back: read the list afresh rather than from the burst of events.
  await page.reload();
  await page
    .getByRole('listbox', { name: 'Conversations' })
    .getByRole('option', { name: new RegExp(mine.contact.name) })
    .click();
  await expect(page.getByTestId('chat-contact-name')).toHaveText(mine.contact.name);
  return mine;
}

/** Debian's chromium as the config launches it (the closed network needs these flags). */
export const PLAIN_LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
/** The same with a fake microphone that grants every prompt (launch options are per browser, so per file). */
export const FAKE_MICROPHONE_LAUNCH = {
  ...PLAIN_LAUNCH,
  args: [...PLAIN_LAUNCH.args, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'],
};

/** The e2e stack's WhatsApp provider (the 360dialog simulator, E2E_PORT + 2) behind the demo "WhatsApp" channel. */
export const WHATSAPP_PROVIDER = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 2}`;
export const DEMO_WHATSAPP_CHANNEL = '3600d1a1-0000-4000-8000-000000000360';

/** A new template with a {{1}} body and (unless `buttons: false`) the quick replies Quero and Sair, approved by the provider. */
export async function approvedTemplate(page: Page, name: string, options: { buttons?: boolean } = {}): Promise<void> {
  const body = { type: 'BODY', text: 'Olá {{1}}, temos uma oferta para você!', example: { body_text: [['Ana']] } };
  const buttons = {
    type: 'BUTTONS',
    buttons: [
      { type: 'QUICK_REPLY', text: 'Quero' },
      { type: 'QUICK_REPLY', text: 'Sair' },
    ],
  };
  const created = await page.request.post(`/api/v1/channels/${DEMO_WHATSAPP_CHANNEL}/outbound_templates`, {
    // Without buttons it is a standard template, the kind an agent may start a conversation with.
    data: { name, category: 'MARKETING', language: 'pt_BR', components: options.buttons === false ? [body] : [body, buttons] },
  });
  expect(created.status()).toBe(201);
  // The worker submits it; the provider approves it.
  await expect
    .poll(
      async () =>
        (await page.request.post(`${WHATSAPP_PROVIDER}/_simulator/templates/status`, { data: { name, status: 'APPROVED' } })).status(),
      { timeout: 15_000 },
    )
    .toBe(204);
  await expect
    .poll(async () =>
      (
        (await (await page.request.get(`/api/v1/channels/${DEMO_WHATSAPP_CHANNEL}/outbound_templates?status=approved`)).json()) as {
          data: { name: string }[];
        }
      ).data.map((t) => t.name),
    )
    .toContain(name);
}
