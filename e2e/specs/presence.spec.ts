import { expect, test, type APIRequestContext, type Page, type WebSocketRoute } from '@playwright/test';
import { demo, demoApiChannel, openUserMenuItem, PASSWORD, sendContactMessage, signIn, signedInPage, takeConversation } from './helpers';

// Logout returns the chats as its dialog says even when the
// agent has another browser open; a connection that does not come back shows 'disconnected' after
// the 4000 ms time-out; 'Try to reconnect' on an ended session goes to /login with the toast.
const CHANNEL_TOKEN = 'demo-api-channel-token';
const SESSION_COOKIE = 'atende_session';

async function contactWrites(request: APIRequestContext, channel: string, phone: string, name: string): Promise<void> {
  await sendContactMessage(request, channel, CHANNEL_TOKEN, {
    contact: { phone, name },
    message: { id: `e2e-presence-${Date.now()}-${Math.random()}`, content: 'Olá!' },
  });
}

async function sessionTokenOf(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE);
  expect(cookie).toBeDefined();
  return cookie!.value;
}

test('logging out with another browser open returns the chats as the dialog says; the other browser stays signed in', async ({
  browser,
  request,
}) => {
  const first = await signedInPage(browser, demo('agent2'));
  const second = await signedInPage(browser, demo('agent2'));
  await expect(first.getByText('Connected')).toBeVisible();
  await expect(second.getByText('Connected')).toBeVisible();
  const channel = await demoApiChannel(first.request);
  const phone = `+55318${String(Date.now()).slice(-8)}`;
  const name = `Presence ${phone.slice(-4)}`;
  await contactWrites(request, channel, phone, name);
  const mine = await takeConversation(first, (chat) => chat.contact.phone_number === phone);
  await first.reload();
  await expect(first.getByRole('listbox', { name: 'Conversations' }).getByRole('option', { name: new RegExp(name) })).toBeVisible();

  await openUserMenuItem(first, 'Logout');
  const dialog = first.getByRole('dialog', { name: 'Logout' });
  await expect(dialog.getByText(/You have \d+ active chats\. Logging out returns them to the queue\./)).toBeVisible();
  await dialog.getByRole('button', { name: 'Logout' }).click();
  await expect(first).toHaveURL(/\/login/);

  const supervisor = await request.post('/api/v1/login', { form: { email: demo('supervisor'), password: PASSWORD } });
  expect(supervisor.ok()).toBe(true);
  const after = await request.get(`/api/v1/conversations/${mine.uuid}`);
  expect(((await after.json()) as { data: { state: string; user: unknown } }).data).toMatchObject({ state: 'waiting', user: null });
  // The other browser is still signed in and connected.
  await expect(second.getByText('Connected')).toBeVisible();
  await expect(second).toHaveURL(/\/app/);
  expect((await second.request.get('/api/v1/users/me')).ok()).toBe(true);

  // Leave the queue as it was.
  const back = await takeConversation(second, (chat) => chat.uuid === mine.uuid);
  expect((await second.request.patch(`/api/v1/conversations/${back.uuid}`, { data: { state: 'closed' } })).ok()).toBe(true);
  await first.context().close();
  await second.context().close();
});

test("'Try to reconnect' after the session was ended elsewhere goes to /login with the toast", async ({ browser, playwright, baseURL }) => {
  const revoked = await signedInPage(browser, demo('agent2'));
  const other = await signedInPage(browser, demo('agent2'));
  await expect(revoked.getByText('Connected')).toBeVisible();
  await expect(other.getByText('Connected')).toBeVisible();

  // The session is ended from elsewhere (its own token, another client); the user stays signed in on `other`.
  const elsewhere = await playwright.request.newContext({ baseURL });
  const out = await elsewhere.post('/api/v1/logout', { headers: { Authorization: `Bearer ${await sessionTokenOf(revoked)}` }, form: {} });
  expect(out.ok()).toBe(true);
  await elsewhere.dispose();

  // The server dropped the socket: only the user brings it back, and the session is gone.
  await expect(revoked.getByRole('heading', { name: 'Falha na conexão' })).toBeVisible();
  await revoked.getByRole('main').getByRole('button', { name: 'Try to reconnect' }).click();
  await expect(revoked).toHaveURL(/\/login/);
  await expect(revoked.getByText('You were disconnected', { exact: true })).toBeVisible();
  await expect(revoked.getByRole('heading', { name: 'Sign in to Atende' })).toBeVisible();
  await expect(other.getByText('Connected')).toBeVisible();
  await revoked.context().close();
  await other.context().close();
});

test('a connection that does not come back shows disconnected after the 4000 ms time-out, and recovers by itself', async ({ page }) => {
  // While `held`, every connection attempt of the page is turned away (a network drop).
  let held = false;
  const live: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/socket\//, (ws) => {
    if (held) return void ws.close();
    ws.connectToServer();
    live.push(ws);
  });
  await signIn(page, demo('agent2'));
  await expect(page).toHaveURL(/\/app$/);
  await expect(page.getByText('Connected')).toBeVisible();

  held = true;
  const dropped = Date.now();
  for (const ws of live.splice(0)) await ws.close();
  await expect(page.getByText('Trying to reconnect')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Falha na conexão' })).toBeVisible({ timeout: 10_000 });
  expect(Date.now() - dropped).toBeGreaterThanOrEqual(3_900);
  await expect(page.getByRole('main').getByRole('button', { name: 'Try to reconnect' })).toBeVisible();

  // The network is back: socket.io's own retries reconnect without a click.
  held = false;
  await expect(page.getByText('Connected')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('Start messaging! Select a chat and talk to the customers')).toBeVisible();
});
