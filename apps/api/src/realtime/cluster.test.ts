import { rooms, type ServerEventPayload } from '@atende/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connected, nextEvent, startTestApp, type TestApp, type TestSocket } from '../testing';

// N api processes share realtime through the Redis adapter.
let a: TestApp;
let b: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
const open: TestSocket[] = [];

function track(socket: TestSocket): TestSocket {
  open.push(socket);
  return socket;
}

function waitingQueue(tenantId: string, quantity: number): ServerEventPayload<'waiting-queue'> {
  return { tenant_uuid: tenantId, quantity_waiting_queue: quantity };
}

/** What another process (the worker) does: XADD an envelope on the realtime outbox stream. */
function xaddOutbox(fields: string[]): Promise<string | null> {
  return a.redis.xadd(`${a.env.REDIS_PREFIX}realtime-outbox`, '*', ...fields);
}

beforeAll(async () => {
  a = await startTestApp();
  b = await startTestApp({}, { shareWith: a });
  acme = await a.tenant('Acme');
});
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

describe('two api instances', () => {
  it('share the database and the Redis prefix', () => {
    expect(b.env.REDIS_PREFIX).toBe(a.env.REDIS_PREFIX);
    expect(b.database.url).toBe(a.database.url);
    expect(b.url).not.toBe(a.url);
  });

  it('share rooms: a pause changed through one reaches the sockets on the other', async () => {
    // The session made on A is valid on B: sessions are in Postgres, not in a process.
    const agent = await a.login('agent@acme.test');
    const supervisor = await a.login('supervisor@acme.test');
    const agentOnB = track(b.socket(agent));
    const supervisorOnA = track(a.socket(supervisor));
    await Promise.all([connected(agentOnB), connected(supervisorOnA)]);
    expect(await supervisorOnA.timeout(5000).emitWithAck('join', { room: rooms.metrics(acme.tenantId) })).toEqual({ ok: true });

    const pause = acme.pauses[1]!;
    const toAgent = nextEvent(agentOnB, 'update-user', (p) => p.user.current_pause?.uuid === pause.id);
    const toSupervisor = nextEvent(supervisorOnA, 'update-user', (p) => p.user.current_pause?.uuid === pause.id);
    // Paused through B, received on B (own room) and on A (metrics room).
    const res = await b.http.patch('/api/v1/users/me').set('Authorization', `Bearer ${agent}`).send({ current_pause_uuid: pause.id });
    expect(res.status).toBe(200);
    await Promise.all([toAgent, toSupervisor]);
    // And emitted from A's code, received on B.
    const direct = nextEvent(agentOnB, 'update-user', (p) => p.user.current_pause === null);
    const unpause = await a.http.patch('/api/v1/users/me').set('Authorization', `Bearer ${agent}`).send({ current_pause_uuid: null });
    expect(unpause.status).toBe(200);
    await direct;
  });

  it('drop a forced-offline session on whichever instance holds its socket', async () => {
    const agent = await a.login('agent2@acme.test');
    const supervisor = await a.login('supervisor@acme.test');
    const onB = track(b.socket(agent));
    await connected(onB);
    const told = nextEvent(onB, 'update-user', (p) => p.user.is_logged === false);
    const dropped = new Promise<string>((resolve) => onB.once('disconnect', resolve));
    const res = await a.http
      .patch(`/api/v1/users/${acme.users.agent2!.id}`)
      .set('Authorization', `Bearer ${supervisor}`)
      .send({ state: 'offline' });
    expect(res.status).toBe(200);
    expect((await told).user.logged_off_by).toBe('supervisor');
    expect(await dropped).toBe('io server disconnect');
  });
});

describe('connection state recovery', () => {
  // The connection cycles disconnected, connecting, connected; events sent meanwhile are not lost.
  it('hands a briefly disconnected socket the events emitted meanwhile, with socket.recovered', async () => {
    const token = await a.login('manager@acme.test');
    const socket = track(a.socket(token));
    await connected(socket);
    const room = rooms.user(acme.users.manager!.uuid);
    // Recovery resumes from the offset of the last event the client got: receive one first.
    const first = nextEvent(socket, 'waiting-queue', (p) => p.quantity_waiting_queue === 1);
    a.ctx.realtime.emit(room, 'waiting-queue', waitingQueue(acme.tenantId, 1));
    await first;
    expect(socket.recovered).toBe(false);

    // Wait for the server to see the drop (it then keeps the socket's session for recovery).
    const onServer = a.io.of('/').sockets.get(socket.id!);
    const gone = new Promise<string>((resolve) => onServer!.once('disconnect', resolve));
    socket.io.engine.close();
    expect(await gone).toBe('transport close');
    expect(socket.connected).toBe(false);
    const received: number[] = [];
    const bothMissed = new Promise<void>((resolve) =>
      socket.on('waiting-queue', (p) => {
        received.push(p.quantity_waiting_queue);
        if (received.length === 2) resolve();
      }),
    );
    // Emitted while the socket is away, from both instances.
    a.ctx.realtime.emit(room, 'waiting-queue', waitingQueue(acme.tenantId, 2));
    b.ctx.realtime.emit(room, 'waiting-queue', waitingQueue(acme.tenantId, 3));
    await b.redis.ping();
    await connected(socket);
    expect(socket.recovered).toBe(true);
    await bothMissed;
    expect(received.sort()).toEqual([2, 3]);
  });
});

describe('connection state recovery after the session ended', () => {
  // Recovery replays the rooms' missed events before the handshake is checked: a session revoked
  // while its socket was away must not get them (nor its rooms) back.
  it('replays nothing to a socket whose session was revoked while it was away', async () => {
    const first = await a.login('supervisor@acme.test');
    const socket = track(a.socket(first));
    await connected(socket);
    const metrics = rooms.metrics(acme.tenantId);
    expect(await socket.timeout(5000).emitWithAck('join', { room: metrics })).toEqual({ ok: true });
    const seen: number[] = [];
    socket.on('waiting-queue', (p) => seen.push(p.quantity_waiting_queue));
    const one = nextEvent(socket, 'waiting-queue', (p) => p.quantity_waiting_queue === 41);
    a.ctx.realtime.emit(metrics, 'waiting-queue', waitingQueue(acme.tenantId, 41));
    await one;

    const onServer = a.io.of('/').sockets.get(socket.id!);
    const gone = new Promise<string>((resolve) => onServer!.once('disconnect', resolve));
    socket.io.engine.close();
    await gone;
    expect((await a.http.post('/api/v1/logout').set('Authorization', `Bearer ${first}`).type('form').send({})).status).toBe(200);
    a.ctx.realtime.emit(metrics, 'waiting-queue', waitingQueue(acme.tenantId, 42));
    await a.redis.ping();

    // The revoked token is refused; a new sign-in on the same client starts afresh.
    await expect(connected(socket)).rejects.toThrow('unauthorized');
    socket.auth = { token: await a.login('supervisor@acme.test') };
    await connected(socket);
    expect(socket.recovered).toBe(false);
    const marker = nextEvent(socket, 'waiting-queue', (p) => p.quantity_waiting_queue === 43);
    a.ctx.realtime.emit(rooms.user(acme.users.supervisor!.uuid), 'waiting-queue', waitingQueue(acme.tenantId, 43));
    await marker;
    a.ctx.realtime.emit(metrics, 'waiting-queue', waitingQueue(acme.tenantId, 44));
    const marker2 = nextEvent(socket, 'waiting-queue', (p) => p.quantity_waiting_queue === 45);
    a.ctx.realtime.emit(rooms.user(acme.users.supervisor!.uuid), 'waiting-queue', waitingQueue(acme.tenantId, 45));
    await marker2;
    // 42 was emitted while away to the old session; 44 to a room the new session never joined.
    expect(seen).toEqual([41, 43, 45]);
  });
});

describe('realtime outbox relay', () => {
  // The worker's events reach browsers through the outbox; one delivery each.
  it('delivers an entry written by another process once, with two api instances consuming', async () => {
    const supervisor = await a.login('supervisor@acme.test');
    const onA = track(a.socket(supervisor));
    const onB = track(b.socket(supervisor));
    await Promise.all([connected(onA), connected(onB)]);
    const metrics = rooms.metrics(acme.tenantId);
    for (const s of [onA, onB]) expect(await s.timeout(5000).emitWithAck('join', { room: metrics })).toEqual({ ok: true });
    const counts = { a: 0, b: 0 };
    onA.on('waiting-queue', (p) => {
      if (p.quantity_waiting_queue === 7) counts.a++;
    });
    onB.on('waiting-queue', (p) => {
      if (p.quantity_waiting_queue === 7) counts.b++;
    });

    const got = Promise.all([7, 7].map((n, i) => nextEvent(i ? onB : onA, 'waiting-queue', (p) => p.quantity_waiting_queue === n)));
    await xaddOutbox(['envelope', JSON.stringify({ room: metrics, event: 'waiting-queue', payload: waitingQueue(acme.tenantId, 7) })]);
    await got;
    // Acknowledged by exactly one consumer, nothing pending that could be delivered again.
    const pending = (await a.redis.xpending(`${a.env.REDIS_PREFIX}realtime-outbox`, 'api')) as [number, ...unknown[]];
    expect(pending[0]).toBe(0);
    // Later entries, written after the first was delivered, arrive; the first never again.
    const markers = Promise.all([onA, onB].map((s) => nextEvent(s, 'waiting-queue', (p) => p.quantity_waiting_queue === 8)));
    await xaddOutbox(['envelope', JSON.stringify({ room: metrics, event: 'waiting-queue', payload: waitingQueue(acme.tenantId, 8) })]);
    await markers;
    expect(counts).toEqual({ a: 1, b: 1 });
  });

  it('drops invalid entries without stopping: bad JSON, unknown event, wrong payload, missing field', async () => {
    const token = await a.login('agent@acme.test');
    const socket = track(b.socket(token));
    await connected(socket);
    const room = rooms.user(acme.users.agent!.uuid);
    const seen: number[] = [];
    socket.on('waiting-queue', (p) => seen.push(p.quantity_waiting_queue));
    await xaddOutbox(['envelope', '{not json']);
    await xaddOutbox(['envelope', JSON.stringify({ room, event: 'no-such-event', payload: {} })]);
    await xaddOutbox([
      'envelope',
      JSON.stringify({ room, event: 'waiting-queue', payload: { tenant_uuid: 'x', quantity_waiting_queue: 'many' } }),
    ]);
    await xaddOutbox(['other', JSON.stringify({ room, event: 'waiting-queue', payload: waitingQueue(acme.tenantId, 98) })]);
    await xaddOutbox([JSON.stringify({ room, event: 'waiting-queue', payload: waitingQueue(acme.tenantId, 97) }), 'envelope']);
    const good = nextEvent(socket, 'waiting-queue', (p) => p.quantity_waiting_queue === 99);
    await xaddOutbox(['envelope', JSON.stringify({ room, event: 'waiting-queue', payload: waitingQueue(acme.tenantId, 99) })]);
    await good;
    expect(seen).toEqual([99]);
    const health = await a.http.get('/api/health');
    expect(health.body).toMatchObject({ status: 'ok', redis: true });
  });
});
