import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { demo, screenshot, sendContactMessage, signedInPage, signIn } from './helpers';

// Against the started stack: a contact writes through the demo custom API channel,
// agent replies reach the demo contact system (the stack runs it on E2E_PORT + 1).
const PORT = Number(process.env.E2E_PORT ?? 3100);
const CONTACT_SYSTEM = `http://127.0.0.1:${Number(process.env.DEMO_WEBHOOK_PORT ?? PORT + 1)}`;
const CHANNEL_TOKEN = 'demo-api-channel-token';

interface Listed {
  uuid: string;
  contact: { name: string; phone_number: string | null };
  channel: { uuid: string };
}

/** The agent's active conversations, read with the page's own session. */
async function activeChats(page: Page): Promise<Listed[]> {
  const res = await page.request.get('/api/v1/conversations/offered/me');
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: Listed[] }).data;
}

/** The contact writes through the custom API channel, as their system would. */
async function contactWrites(request: APIRequestContext, channelUuid: string, phone: string, content: string): Promise<void> {
  await sendContactMessage(request, channelUuid, CHANNEL_TOKEN, {
    contact: { phone },
    message: { id: `e2e-${Date.now()}-${Math.random()}`, content },
  });
}

async function accept(page: Page): Promise<Listed> {
  const before = new Set((await activeChats(page)).map((c) => c.uuid));
  await page.getByRole('button', { name: 'Accept session' }).click();
  let accepted: Listed | undefined;
  await expect(async () => {
    accepted = (await activeChats(page)).find((c) => !before.has(c.uuid));
    expect(accepted).toBeDefined();
  }).toPass();
  await expect(page.getByTestId('chat-contact-name')).toHaveText(accepted!.contact.name);
  return accepted!;
}

const composer = (page: Page) => page.getByRole('textbox', { name: /^(Message|Internal note)$/ });
const messages = (page: Page) => page.getByRole('log', { name: 'Messages' });

test('an agent accepts, replies, hears the contact live, notes, transfers; the other agent finishes', async ({ browser, request }) => {
  const agent = await signedInPage(browser, demo('agent'));
  const agent2 = await signedInPage(browser, demo('agent2'));
  await expect(agent.getByRole('listbox', { name: 'Conversations' })).toBeVisible();

  const conversation = await accept(agent);
  const list = agent.getByRole('listbox', { name: 'Conversations' });
  await expect(list.getByRole('option', { name: new RegExp(conversation.contact.name) })).toHaveAttribute('aria-selected', 'true');
  // The contact's first message and the history events are in the chat.
  await expect(messages(agent).getByTestId('system-message').first()).toBeVisible();

  // Reply: shown at once, then delivered to the contact system (check tick).
  await composer(agent).fill('Olá! Já verifico seu pedido.');
  await composer(agent).press('Enter');
  const reply = messages(agent).getByTestId('message').filter({ hasText: 'Olá! Já verifico seu pedido.' });
  await expect(reply).toBeVisible();
  await expect(composer(agent)).toHaveValue('');
  await expect(reply.getByLabel('Sent')).toBeVisible({ timeout: 15_000 });

  // The contact answers: it appears live.
  await contactWrites(request, conversation.channel.uuid, conversation.contact.phone_number!, 'Obrigada, aguardo!');
  await expect(messages(agent).getByText('Obrigada, aguardo!')).toBeVisible();

  // An internal note: shown as a note, never delivered to the contact.
  await agent.getByRole('switch', { name: 'Internal note', exact: true }).check();
  await composer(agent).fill('Cliente VIP, priorizar');
  await composer(agent).press('Enter');
  const note = messages(agent).getByTestId('message').filter({ hasText: 'Cliente VIP, priorizar' });
  await expect(note.getByText('Internal note')).toBeVisible();
  await screenshot(agent, 'workstation-chat');
  const delivered = (await (await request.get(`${CONTACT_SYSTEM}/_simulator/requests`)).json()) as {
    requests: { body: { message: { content: string } } }[];
  };
  expect(delivered.requests.some((r) => r.body.message.content.includes('Olá! Já verifico'))).toBe(true);
  expect(delivered.requests.some((r) => r.body.message.content.includes('Cliente VIP'))).toBe(false);

  // Transfer to the other agent, who sees it arrive live.
  await agent.getByRole('button', { name: 'Transfer' }).click();
  const dialog = agent.getByRole('dialog', { name: 'Transfer session' });
  await dialog.getByRole('textbox', { name: 'Agent' }).click();
  await agent.getByRole('option', { name: 'Agent 2' }).click();
  await dialog.getByRole('button', { name: 'Transfer' }).click();
  await expect(agent.getByText('Session transferred successfully')).toBeVisible();
  await expect(list.getByRole('option', { name: new RegExp(conversation.contact.name) })).toHaveCount(0);
  await expect(agent.getByText('Start messaging! Select a chat and talk to the customers')).toBeVisible();

  await expect(agent2.getByText('A session was transferred to you')).toBeVisible();
  const list2 = agent2.getByRole('listbox', { name: 'Conversations' });
  await list2.getByRole('option', { name: new RegExp(conversation.contact.name) }).click();
  await expect(messages(agent2).getByText('Obrigada, aguardo!')).toBeVisible();
  await expect(messages(agent2).getByText('Transferred by Agent to Agent 2 (Support)')).toBeVisible();

  // Finish with a reason.
  await agent2.getByRole('button', { name: 'Finish' }).click();
  const finish = agent2.getByRole('dialog', { name: 'Finish session' });
  await finish.getByRole('textbox', { name: 'Finish reason' }).click();
  await agent2.getByRole('option', { name: 'Solved' }).click();
  await finish.getByRole('button', { name: 'Finish' }).click();
  await expect(agent2.getByText('Session finished successfully!')).toBeVisible();
  await expect(list2.getByRole('option', { name: new RegExp(conversation.contact.name) })).toHaveCount(0);
  const closed = await agent2.request.get(`/api/v1/conversations/${conversation.uuid}`);
  expect(((await closed.json()) as { data: { state: string; ended_by: string } }).data).toMatchObject({
    state: 'closed',
    ended_by: 'agent',
  });
  await agent.context().close();
  await agent2.context().close();
});

test('a draft survives switching conversations; the keyboard moves through the list', async ({ browser }) => {
  const agent = await signedInPage(browser, demo('agent'));
  const first = await accept(agent);
  await composer(agent).fill('rascunho para o primeiro');
  // The message chosen to reply to belongs to the draft as well; choosing it moves the focus to the composer.
  await messages(agent).getByTestId('message').first().getByRole('button', { name: 'Reply' }).click();
  await expect(agent.getByText('Replying to')).toBeVisible();
  await expect(composer(agent)).toBeFocused();
  const second = await accept(agent);
  await expect(composer(agent)).toHaveValue('');
  await expect(agent.getByText('Replying to')).toHaveCount(0);
  await composer(agent).fill('outro texto');

  const list = agent.getByRole('listbox', { name: 'Conversations' });
  await list.getByRole('option', { name: new RegExp(first.contact.name) }).click();
  await expect(composer(agent)).toHaveValue('rascunho para o primeiro');
  await expect(agent.getByText('Replying to')).toBeVisible();
  // Arrow keys, Home and End select conversations (selection follows focus).
  await list.focus();
  await list.press('End');
  const options = list.getByRole('option');
  await expect(options.last()).toHaveAttribute('aria-selected', 'true');
  await list.press('Home');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await agent
    .getByRole('listbox', { name: 'Conversations' })
    .getByRole('option', { name: new RegExp(second.contact.name) })
    .click();
  await expect(composer(agent)).toHaveValue('outro texto');
  // A reload keeps the drafts too (session storage) and the open conversation (URL).
  await agent.reload();
  await expect(composer(agent)).toHaveValue('outro texto');
  await screenshot(agent, 'workstation-list');

  // Return both to the queue for the next specs.
  for (const c of [first, second]) {
    await list.getByRole('option', { name: new RegExp(c.contact.name) }).click();
    await agent.getByRole('button', { name: 'Return to queue' }).click();
    await expect(agent.getByText('Session returned to queue successfully!')).toBeVisible();
  }
  await expect(list.getByRole('option')).toHaveCount(0);
  await agent.context().close();
});

// The socket's first connection reloads the list; an accept answered while that reload is on its way
// must not be overwritten by the reload's older answer (it was, under load: "No active chats").
test('a chat accepted while the list is being reloaded stays in the list and opens', async ({ page }) => {
  let connect = () => undefined as void;
  const connected = new Promise<void>((resolve) => (connect = resolve));
  await page.routeWebSocket(/\/socket\//, async (ws) => {
    await connected;
    ws.connectToServer();
  });
  // Once `holding`, the list's answer is taken from the server at once but given to the page only on `release`.
  let holding = false;
  let answered = () => undefined as void;
  const serverAnswered = new Promise<void>((resolve) => (answered = resolve));
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/v1/conversations/offered/me', async (route) => {
    if (!holding) return route.continue();
    const response = await route.fetch();
    answered();
    await released;
    await route.fulfill({ response });
  });
  await signIn(page, demo('agent'));
  await expect(page.getByTestId('waiting-count')).toHaveText(/^[1-9]\d* waiting$/);
  holding = true;
  connect();
  await expect(page.getByText('Connected')).toBeVisible();
  await serverAnswered; // the reload's answer is written: without the chat about to be accepted
  const acceptAnswer = page.waitForResponse(
    (r) => r.request().method() === 'PATCH' && new URL(r.url()).pathname === '/api/v1/conversations',
  );
  await page.getByRole('button', { name: 'Accept session' }).click();
  const accepted = ((await (await acceptAnswer).json()) as { data: Listed }).data;
  release();
  await expect(page.getByTestId('chat-contact-name')).toHaveText(accepted.contact.name);
  await expect(
    page.getByRole('listbox', { name: 'Conversations' }).getByRole('option', { name: new RegExp(accepted.contact.name) }),
  ).toBeVisible();
  // Back to the queue for the next specs.
  expect((await page.request.patch(`/api/v1/conversations/${accepted.uuid}`, { data: { state: 'waiting' } })).ok()).toBe(true);
});

test('a reply the contact system refuses for good says why without retry; one it could not take shows retry, and the retry delivers it', async ({
  browser,
  request,
}) => {
  const agent = await signedInPage(browser, demo('agent'));
  const conversation = await accept(agent);
  // A refusal (400) would only repeat: the bubble says why and offers no retry.
  expect((await request.post(`${CONTACT_SYSTEM}/_simulator/plan`, { data: { count: 1, status: 400 } })).status()).toBe(204);
  await composer(agent).fill('Mensagem recusada');
  await composer(agent).press('Enter');
  const refused = messages(agent).getByTestId('message').filter({ hasText: 'Mensagem recusada' });
  await expect(refused.getByTestId('message-not-sent')).toBeVisible({ timeout: 20_000 });
  await expect(refused.getByTestId('message-failure')).toContainText('400');
  await expect(refused.getByRole('button', { name: 'Your message may not be sent, try again' })).toHaveCount(0);

  // Unavailable through every attempt (503 five times, retried with backoff): failed, and retry is offered.
  expect((await request.post(`${CONTACT_SYSTEM}/_simulator/plan`, { data: { count: 5, status: 503 } })).status()).toBe(204);
  await composer(agent).fill('Mensagem que falha');
  await composer(agent).press('Enter');
  const failed = messages(agent).getByTestId('message').filter({ hasText: 'Mensagem que falha' });
  const retry = failed.getByRole('button', { name: 'Your message may not be sent, try again' });
  await expect(retry).toBeVisible({ timeout: 40_000 });
  await screenshot(agent, 'workstation-failed-send');
  await retry.click();
  await expect(failed.getByLabel('Sent')).toBeVisible({ timeout: 20_000 });
  await expect(retry).toHaveCount(0);
  // Exactly one message in the chat for the two attempts.
  await expect(failed).toHaveCount(1);

  await agent.getByRole('button', { name: 'Return to queue' }).click();
  await expect(
    agent.getByRole('listbox', { name: 'Conversations' }).getByRole('option', { name: new RegExp(conversation.contact.name) }),
  ).toHaveCount(0);
  await agent.context().close();
});

test('a supervisor watches a conversation live and finishes it; past views and invalid ids', async ({ browser, request }) => {
  const agent = await signedInPage(browser, demo('agent'));
  const conversation = await accept(agent);
  const supervisor = await signedInPage(browser, demo('supervisor'));
  await supervisor.goto(`/chat/${conversation.uuid}`);
  await expect(supervisor.getByRole('heading', { name: conversation.contact.name })).toBeVisible();
  await expect(supervisor.getByText('Live')).toBeVisible();

  // Live: the contact's and the agent's new messages reach the supervisor's view.
  await contactWrites(request, conversation.channel.uuid, conversation.contact.phone_number!, 'Alguém aí?');
  await expect(messages(supervisor).getByText('Alguém aí?')).toBeVisible();
  await composer(agent).fill('Sim, estou aqui.');
  await composer(agent).press('Enter');
  await expect(messages(supervisor).getByText('Sim, estou aqui.')).toBeVisible();
  await screenshot(supervisor, 'supervisor-live-view');

  await supervisor.getByRole('button', { name: 'Finish as supervisor' }).click();
  await supervisor.getByRole('dialog', { name: 'Finish session' }).getByRole('button', { name: 'Finish' }).click();
  await expect(supervisor.getByText('Finished conversation successfully')).toBeVisible();
  await expect(supervisor.getByTestId('conversation-state')).toHaveText('Closed');
  // The agent's list loses it live.
  await expect(
    agent.getByRole('listbox', { name: 'Conversations' }).getByRole('option', { name: new RegExp(conversation.contact.name) }),
  ).toHaveCount(0);

  // A report link to one message: the past view scrolls to it.
  const list = (await (await supervisor.request.get(`/api/v1/conversations/${conversation.uuid}/messages`)).json()) as {
    data: { uuid: string; message: string }[];
  };
  const target = list.data.find((m) => m.message === 'Alguém aí?')!;
  await supervisor.goto(`/chat-history/reports/${conversation.uuid}#${target.uuid}`);
  await expect(supervisor.locator(`#message-${target.uuid}`)).toBeInViewport();
  await expect(supervisor.getByText('Live')).toHaveCount(0);

  await supervisor.goto('/chat/00000000-0000-4000-8000-000000000000');
  await expect(supervisor.getByText('This conversation is invalid or has ended')).toBeVisible();
  await supervisor.goto('/chat/not-a-uuid');
  await expect(supervisor.getByText('This conversation is invalid or has ended')).toBeVisible();

  // The agent finds it in today's chat history and opens it.
  await agent.goto('/app/chat-history');
  await agent.getByRole('link', { name: `Open the chat history of ${conversation.contact.name}` }).click();
  await expect(agent).toHaveURL(new RegExp(`/agent-chat-history/agent/${conversation.uuid}`));
  await expect(messages(agent).getByText('Sim, estou aqui.')).toBeVisible();
  // Agents may not open the supervisors' live view.
  await agent.goto(`/chat/${conversation.uuid}`);
  await expect(agent.getByText('Você não tem permissão para acessar essa página')).toBeVisible();
  await agent.context().close();
  await supervisor.context().close();
});

test('pausing with active chats: Keep holds them, Return to queue gives them back until the pause ends', async ({ browser }) => {
  const agent = await signedInPage(browser, demo('agent'));
  const conversation = await accept(agent);
  const list = agent.getByRole('listbox', { name: 'Conversations' });
  const row = list.getByRole('option', { name: new RegExp(conversation.contact.name) });

  await agent.getByRole('button', { name: 'Online' }).click();
  await agent.getByRole('menuitem', { name: 'Lunch' }).click();
  await agent.getByRole('dialog').getByRole('button', { name: 'Keep' }).click();
  await expect(agent.getByRole('button', { name: 'Paused: Lunch' })).toBeVisible();
  await expect(row).toBeVisible();
  // Paused: accepting is refused with the reason shown.
  await expect(agent.getByRole('button', { name: 'Accept session' })).toBeDisabled();
  await expect(agent.getByText('You cannot accept sessions while paused')).toBeVisible();

  await agent.getByRole('button', { name: 'Paused: Lunch' }).click();
  await agent.getByRole('menuitem', { name: 'Unpause' }).click();
  await agent.getByRole('button', { name: 'Online' }).click();
  await agent.getByRole('menuitem', { name: 'Lunch' }).click();
  await agent.getByRole('dialog').getByRole('button', { name: 'Return to queue' }).click();
  await expect(agent.getByRole('button', { name: 'Paused: Lunch' })).toBeVisible();
  await expect(row).toHaveCount(0);
  const waiting = await agent.request.get(`/api/v1/conversations/${conversation.uuid}`);
  expect(waiting.status()).toBe(404);
  await agent.getByRole('button', { name: 'Paused: Lunch' }).click();
  await agent.getByRole('menuitem', { name: 'Unpause' }).click();
  await expect(agent.getByRole('button', { name: 'Online' })).toBeVisible();
  // Returned chats "are reassigned on return": nobody took it, so it is the agent's again.
  await expect(row).toBeVisible();
  await agent.context().close();
});

test('logging out with active chats warns first and returns them to the queue', async ({ browser }) => {
  // Earlier specs left sessions of this agent open; chats return when the agent's last session ends,
  // so a supervisor first ends them all (force offline).
  const supervisor = await signedInPage(browser, demo('supervisor'));
  const users = (await (await supervisor.request.get('/api/v1/users?role=agent')).json()) as { data: { id: number; email: string }[] };
  const agentId = users.data.find((u) => u.email === demo('agent'))!.id;
  expect((await supervisor.request.patch(`/api/v1/users/${agentId}`, { data: { state: 'offline' } })).status()).toBe(200);
  const agent = await signedInPage(browser, demo('agent'));
  const conversation = await accept(agent);
  await agent.getByRole('button', { name: 'User menu' }).click();
  await agent.getByRole('menuitem', { name: 'Logout' }).click();
  const dialog = agent.getByRole('dialog', { name: 'Logout' });
  await expect(dialog.getByText('You have 1 active chats. Logging out returns them to the queue.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Logout' }).click();
  await expect(agent).toHaveURL(/\/login/);
  const after = await supervisor.request.get(`/api/v1/conversations/${conversation.uuid}`);
  expect(((await after.json()) as { data: { state: string; user: unknown } }).data).toMatchObject({ state: 'waiting', user: null });
  await agent.context().close();
  await supervisor.context().close();
});
