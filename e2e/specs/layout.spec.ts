import { expect, test } from '@playwright/test';
import { acceptConversationOf, demo, demoApiChannel, finishAgentConversations, sendContactMessage, signedInPage } from './helpers';

const CHANNEL_TOKEN = 'demo-api-channel-token';

// The workstation at 1280×720 and 1366×768. The navigation folds to its icons (and
// the user's choice is kept), the side columns narrow so the chat stays usable, and toasts appear at
// the bottom left instead of over the header's or the chat's controls.
// Specs after this one expect the agent to hold no chats: finish what each test accepted (archived included).
test.afterEach(({ playwright, baseURL }) => finishAgentConversations(playwright, baseURL));

for (const size of [
  { width: 1280, height: 720 },
  { width: 1366, height: 768 },
]) {
  test(`the chat column stays usable at ${size.width}×${size.height}`, async ({ browser }) => {
    const agent = await signedInPage(browser, demo('agent'));
    await agent.setViewportSize(size);
    const phone = `+55119${String(Date.now()).slice(-8)}`;
    const channel = await demoApiChannel(agent.request);
    await sendContactMessage(agent.request, channel, CHANNEL_TOKEN, {
      contact: { phone, name: `Layout ${phone.slice(-4)}` },
      message: { id: `e2e-layout-${Date.now()}`, content: 'Olá, tudo bem?' },
    });
    await acceptConversationOf(agent, phone);

    // Folded by default on these screens: icons named by their labels.
    const nav = agent.getByRole('navigation', { name: 'Agent panel' });
    await expect(nav.getByRole('link', { name: 'History' })).toBeVisible();
    expect((await nav.boundingBox())!.width).toBeLessThanOrEqual(80);
    const chat = agent.getByRole('region', { name: 'Chat' });
    const customer = agent.getByRole('complementary', { name: 'Customer' });
    await expect(customer).toBeVisible();
    const chatBox = (await chat.boundingBox())!;
    expect(chatBox.width).toBeGreaterThanOrEqual(560);
    // Everything fits across: the customer panel ends inside the window, nothing scrolls sideways.
    const customerBox = (await customer.boundingBox())!;
    expect(customerBox.x + customerBox.width).toBeLessThanOrEqual(size.width);
    expect(await agent.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
    // The composer and its send button are on screen.
    const send = agent.getByRole('button', { name: 'Send' });
    await expect(send).toBeInViewport();

    // Unfolded on request, and the choice is kept after a reload.
    await agent.getByRole('button', { name: 'Expand the menu' }).click();
    await expect(nav.getByText('History')).toBeVisible();
    expect((await nav.boundingBox())!.width).toBeGreaterThan(200);
    await agent.reload();
    await expect(agent.getByRole('button', { name: 'Collapse the menu' })).toBeVisible();
    await agent.getByRole('button', { name: 'Collapse the menu' }).click();
    await expect(nav.getByText('History')).toHaveCount(0);

    // Every conversation action is on screen, and a toast sits below the header: the header's
    // controls stay clickable while it shows.
    const actions = agent.getByRole('toolbar', { name: 'Conversation actions' });
    for (const button of await actions.getByRole('button').all()) await expect(button).toBeInViewport({ ratio: 1 });
    await actions.getByRole('button', { name: 'Archive' }).click();
    const toast = agent.getByText('Conversa arquivada');
    await expect(toast).toBeVisible();
    // Bottom left, over the navigation and the list: clear of the header and of the chat's column.
    const header = (await agent.locator('header').first().boundingBox())!;
    const toastBox = (await agent.locator('.mantine-Notification-root').filter({ hasText: 'Conversa arquivada' }).boundingBox())!;
    expect(toastBox.y).toBeGreaterThanOrEqual(header.y + header.height);
    expect(toastBox.x + toastBox.width).toBeLessThanOrEqual((await chat.boundingBox())!.x);
    await agent.getByRole('button', { name: 'User menu' }).click();
    await expect(agent.getByRole('menuitem').first()).toBeVisible();
    await agent.keyboard.press('Escape');
    await agent.context().close();
  });
}

// /app's page names the agent screen's chunks, few of them, for the browser to fetch beside the
// entry (app.html); the other pages do not, and every chunk it names is served.
test('the agent page preloads the workstation chunks, and only /app does', async ({ browser, request }) => {
  const preloads = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]!);
  const agentHtml = await (await request.get('/app')).text();
  const indexHtml = await (await request.get('/admin')).text();
  const extra = preloads(agentHtml).filter((href) => !preloads(indexHtml).includes(href));
  expect(extra.some((href) => /\/assets\/WorkstationPage-[\w-]+\.js$/.test(href))).toBe(true);
  expect(extra.some((href) => /\/assets\/Authenticated-[\w-]+\.js$/.test(href))).toBe(true);
  for (const href of preloads(agentHtml)) expect((await request.get(href)).status(), href).toBe(200);
  // The UI components the workstation adds come in one chunk (vite.config.ts uiChunks), not in some
  // forty of a few hundred bytes: over HTTP/1.1 each six of them cost a round trip.
  expect(extra.some((href) => /\/assets\/workstation-ui-[\w-]+\.js$/.test(href))).toBe(true);
  expect(preloads(agentHtml).length).toBeLessThanOrEqual(25);
  // The page still works from it: the agent's list and Accept session are on screen.
  const agent = await signedInPage(browser, demo('agent'));
  await agent.goto('/app');
  await expect(agent.getByRole('listbox', { name: 'Conversations' })).toBeVisible();
  await expect(agent.getByRole('button', { name: 'Accept session' })).toBeVisible();
});
