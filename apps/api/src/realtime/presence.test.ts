import { rooms } from '@atende/contract';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { customChannel, inbound } from '../modules/conversations/fixtures';
import { connected, nextEvent, startTestApp, type TestApp, type TestSocket } from '../testing';
import { PresenceTracker } from './presence';

// Presence follows a live connection (sign-off rule once no
// browser is connected for the grace period), and logout returns the chats as its dialog says.
const GRACE_MS = 800;
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let channel: { id: string };
let channelToken: string;
const open: TestSocket[] = [];

beforeAll(async () => {
  t = await startTestApp({ PRESENCE_GRACE_MS: String(GRACE_MS), LOGIN_MAX_ATTEMPTS_PER_IP: '1000' });
  acme = await t.tenant('Acme', {
    users: {
      agent: ['agent'],
      agent2: ['agent'],
      agent3: ['agent'],
      agent4: ['agent'],
      apionly: ['agent'],
      desk: ['agent'],
      supervisor: ['supervisor'],
    },
  });
  ({ channel, token: channelToken } = await customChannel(t.database.db, acme.tenantId, acme.workspaceId, acme.sectors[0]!.id));
});
afterEach(async () => {
  for (const s of open.splice(0)) s.disconnect();
  await t.database.db.workspace.update({ where: { id: acme.workspaceId }, data: { conversationDeliveryMode: 'on_demand' } });
  await t.database.db.conversation.updateMany({
    where: { tenantId: acme.tenantId, state: { in: ['waiting', 'answered'] } },
    data: { state: 'closed', closedAt: new Date() },
  });
  await t.database.db.user.updateMany({ where: { tenantId: acme.tenantId }, data: { isLogged: false, state: 'offline' } });
});
afterAll(() => t.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const userRow = (name: string) => t.database.db.user.findUniqueOrThrow({ where: { id: acme.users[name]!.id } });

async function browserOf(token: string): Promise<TestSocket> {
  const socket = t.socket(token);
  open.push(socket);
  return connected(socket);
}

/** Waits until `name` is logged in (or, with `false`, signed off) as the database says. */
const loggedIn = (name: string, isLogged = true, timeout = 5000) =>
  vi.waitFor(async () => expect(await userRow(name)).toMatchObject({ isLogged }), { timeout });

/**
 * Closes the only browser of another agent, `name`, and waits until presence signs them off. A
 * sweep that signs them off has looked at everyone who went away before they did.
 */
async function sweptPast(browser: TestSocket, name: string): Promise<void> {
  browser.disconnect();
  await vi.waitFor(async () => expect(await userRow(name)).toMatchObject({ isLogged: false, loggedOffBy: 'system' }), {
    timeout: GRACE_MS * 8,
  });
}

/** A contact writes; with on_demand the conversation waits, and `token`'s agent accepts it. */
async function chatHeldBy(token: string, name: string, phone: string): Promise<string> {
  await inbound(t, channel.id, channelToken, { phone, id: `m-${phone}-${Date.now()}`, content: 'Olá' });
  const res = await t.http
    .patch('/api/v1/conversations')
    .set({ Authorization: `Bearer ${token}` })
    .send({ user_id: acme.users[name]!.id });
  expect(res.status).toBe(200);
  return res.body.data.uuid as string;
}

describe('presence follows a live connection', () => {
  it('signs off an agent whose only browser closed, after the grace period: chats back to the queue, not picked by distribution', async () => {
    const token = await t.login('agent@acme.test');
    const browser = await browserOf(token);
    const held = await chatHeldBy(token, 'agent', '11970000001');
    const supervisor = await browserOf(await t.login('supervisor@acme.test'));
    await new Promise<void>((resolve) => supervisor.emit('join', { room: rooms.metrics(acme.tenantId) }, () => resolve()));
    const offline = nextEvent(supervisor, 'update-user', (p) => p.user.uuid === acme.users.agent!.uuid && !p.user.is_logged, 5000);

    browser.disconnect();
    // Within the grace the agent is still online (a quarter of it passing is the scenario).
    await sleep(GRACE_MS / 4);
    expect(await userRow('agent')).toMatchObject({ isLogged: true, state: 'online' });

    // After it: offline on the dashboard, and the chat returned with reason logoff.
    expect((await offline).user).toMatchObject({ is_logged: false, state: 'offline', logged_off_by: 'system' });
    // The chats return just after the announcement.
    await vi.waitFor(
      async () => expect((await t.database.db.conversation.findUniqueOrThrow({ where: { id: held } })).state).toBe('waiting'),
      { timeout: 5000 },
    );
    const conv = await t.database.db.conversation.findUniqueOrThrow({
      where: { id: held },
      include: { events: { orderBy: { at: 'desc' }, take: 1 } },
    });
    expect(conv).toMatchObject({ state: 'waiting', userId: null });
    expect(conv.events[0]).toMatchObject({ type: 'enter-queue', detail: { event: 'logoff' } });

    // Auto distribution now skips them, while a connected agent gets the work.
    const other = await t.login('agent2@acme.test');
    await browserOf(other);
    await t.database.db.workspace.update({ where: { id: acme.workspaceId }, data: { conversationDeliveryMode: 'round_robin' } });
    const res = await inbound(t, channel.id, channelToken, { phone: '11970000002', id: `rr-${Date.now()}` });
    const fresh = await t.database.db.conversation.findUniqueOrThrow({ where: { id: res.body.data.conversation_uuid } });
    expect(fresh.userId).toBe(acme.users.agent2!.id);
    // The session itself is still valid: the same browser coming back is logged in again.
    await browserOf(token);
    await loggedIn('agent');
    expect(await userRow('agent')).toMatchObject({ isLogged: true, state: 'online', loggedOffBy: null });
  });

  it('keeps an agent online who reconnects within the grace period, and one with another tab still open', async () => {
    const token = await t.login('agent3@acme.test');
    const first = await browserOf(token);
    const held = await chatHeldBy(token, 'agent3', '11970000003');
    const second = await browserOf(token);
    // Agents whose only browser closes after agent3's: once signed off, agent3 has been swept too.
    const witness = await browserOf(await t.login('agent@acme.test'));
    const witness2 = await browserOf(await t.login('agent2@acme.test'));

    first.disconnect();
    await sweptPast(witness, 'agent');
    expect(await userRow('agent3')).toMatchObject({ isLogged: true, state: 'online' });

    second.disconnect();
    // Coming back within the grace is the scenario.
    await sleep(GRACE_MS / 2);
    await browserOf(token);
    await sweptPast(witness2, 'agent2');
    expect(await userRow('agent3')).toMatchObject({ isLogged: true, state: 'online' });
    expect(await t.database.db.conversation.findUniqueOrThrow({ where: { id: held } })).toMatchObject({
      state: 'answered',
      userId: acme.users.agent3!.id,
    });
  });
});

describe('a session that never opens a socket', () => {
  it('goes offline for distribution after the grace period, as a lost browser does: round robin gives 8 of 8 to the connected agent', async () => {
    // An API sign-in, or a tab closed before its socket connected: no socket ever opens.
    await t.login('apionly@acme.test');
    const desk = await t.login('desk@acme.test');
    await browserOf(desk);
    expect(await userRow('apionly')).toMatchObject({ isLogged: true, state: 'online' });

    // Sign-off by presence: offline, by the system, once the grace period has passed.
    await loggedIn('apionly', false, GRACE_MS * 8);
    expect(await userRow('apionly')).toMatchObject({ isLogged: false, state: 'offline', loggedOffBy: 'system' });
    expect(await userRow('desk')).toMatchObject({ isLogged: true, state: 'online' });

    await t.database.db.workspace.update({ where: { id: acme.workspaceId }, data: { conversationDeliveryMode: 'round_robin' } });
    const owners: (number | null)[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await inbound(t, channel.id, channelToken, { phone: `1197100000${i}`, id: `never-${i}-${Date.now()}` });
      owners.push((await t.database.db.conversation.findUniqueOrThrow({ where: { id: res.body.data.conversation_uuid } })).userId);
    }
    expect(owners).toEqual(Array(8).fill(acme.users.desk!.id));
  });
});

describe('presence when Redis does not answer', () => {
  it('still logs an agent signed off by presence back in when their browser connects, and says why it could not mark them seen', async () => {
    await t.database.db.user.update({
      where: { id: acme.users.agent2!.id },
      data: { isLogged: false, state: 'offline', loggedOffBy: 'system' },
    });
    // A connection that cannot reach Redis and does not queue: each command fails at once, as one
    // whose answers come too late does after its timeout.
    const unreachable = new Redis({
      host: '127.0.0.1',
      port: 1,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    unreachable.on('error', () => undefined);
    const tracker = new PresenceTracker({
      db: t.database.db,
      realtime: t.ctx.realtime,
      log: pino({ level: 'silent' }),
      redis: unreachable,
      prefix: 'atende-test-presence-down:',
      graceMs: GRACE_MS,
    });
    try {
      await expect(tracker.connected(acme.tenantId, acme.users.agent2!.id)).rejects.toThrow();
      expect(await userRow('agent2')).toMatchObject({ isLogged: true, state: 'online', loggedOffBy: null });
    } finally {
      unreachable.disconnect();
    }
  });
});

describe('logout returns the chats as the dialog says', () => {
  it('returns them even when the user stays logged in on another connected browser', async () => {
    const laptop = await t.login('agent4@acme.test');
    const phone = await t.login('agent4@acme.test');
    await browserOf(laptop);
    await browserOf(phone);
    const held = await chatHeldBy(laptop, 'agent4', '11970000004');
    expect(
      (
        await t.http
          .post('/api/v1/logout')
          .set({ Authorization: `Bearer ${laptop}` })
          .type('form')
          .send({})
      ).status,
    ).toBe(200);
    const conv = await t.database.db.conversation.findUniqueOrThrow({
      where: { id: held },
      include: { events: { orderBy: { at: 'desc' }, take: 1 } },
    });
    expect(conv).toMatchObject({ state: 'waiting', userId: null });
    expect(conv.events[0]).toMatchObject({ detail: { event: 'logoff' } });
    // The phone's browser is still connected: logged in and online there.
    expect(await userRow('agent4')).toMatchObject({ isLogged: true, state: 'online' });
    expect((await t.http.get('/api/v1/users/me').set({ Authorization: `Bearer ${phone}` })).status).toBe(200);
  });

  it('signs the user off when the other session has no browser connected', async () => {
    const laptop = await t.login('agent4@acme.test');
    const forgotten = await t.login('agent4@acme.test');
    await browserOf(laptop);
    const held = await chatHeldBy(laptop, 'agent4', '11970000005');
    expect(
      (
        await t.http
          .post('/api/v1/logout')
          .set({ Authorization: `Bearer ${laptop}` })
          .type('form')
          .send({})
      ).status,
    ).toBe(200);
    expect(await t.database.db.conversation.findUniqueOrThrow({ where: { id: held } })).toMatchObject({ state: 'waiting', userId: null });
    expect(await userRow('agent4')).toMatchObject({ isLogged: false, state: 'offline', loggedOffBy: 'self' });
    // That session is not ended: opening it again logs the user back in.
    await browserOf(forgotten);
    await loggedIn('agent4');
  });
});
