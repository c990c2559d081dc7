import { rooms, type JoinAck, type ServerEventPayload } from '@atende/contract';
import jwt from 'jsonwebtoken';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connected, emitWithAck, nextEvent, refused, startTestApp, type TestApp, type TestSocket } from '../testing';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let globex: Awaited<ReturnType<TestApp['tenant']>>;
const open: TestSocket[] = [];

/** A connected socket for `email`, closed after the test. */
async function socketOf(email: string): Promise<{ socket: TestSocket; token: string }> {
  const token = await t.login(email);
  const socket = t.socket(token);
  open.push(socket);
  await connected(socket);
  return { socket, token };
}

function userEvent(tenantId: string, uuid: string, username: string): ServerEventPayload<'update-user'> {
  return {
    tenant_uuid: tenantId,
    user: {
      id: 1,
      uuid,
      username,
      email: `${username}@x.test`,
      roles: [{ name: 'agent' }],
      workspace: { uuid: tenantId, name: 'W', tenant: { uuid: tenantId, name: 'T' } },
      is_logged: true,
      logged_off_by: null,
      state: 'online',
      current_pause: null,
      logged_at: null,
    },
  };
}

beforeAll(async () => {
  t = await startTestApp({ ALLOWED_ORIGINS: 'https://app.atende.test' });
  acme = await t.tenant('Acme');
  globex = await t.tenant('Globex');
});
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(() => t.close());

describe('realtime handshake', () => {
  // The socket is authenticated by the session, like HTTP.
  it('refuses a connection without a token, with a garbage, forged or revoked token', async () => {
    expect((await refused(t.socket(undefined))).message).toBe('unauthorized');
    expect((await refused(t.socket('garbage'))).message).toBe('unauthorized');
    const token = await t.login('agent@acme.test');
    const claims = jwt.decode(token) as Record<string, string>;
    const forged = jwt.sign({ sid: claims.sid, sub: claims.sub, tid: claims.tid }, 'y'.repeat(40), {
      audience: 'atende-web',
      issuer: 'atende-api',
    });
    expect((await refused(t.socket(forged))).message).toBe('unauthorized');
    await t.http.post('/api/v1/logout').set('Authorization', `Bearer ${token}`).type('form').send({});
    expect((await refused(t.socket(token))).message).toBe('unauthorized');
  });

  // Cross-site WebSocket hijacking: a page on another site must not ride the session cookie.
  it('refuses a browser Origin that is not allowed, including the opaque origin null', async () => {
    const token = await t.login('agent@acme.test');
    for (const origin of ['https://evil.example', 'null', 'not a url', 'file://']) {
      const socket = t.socket(token, { extraHeaders: { origin } });
      open.push(socket);
      await refused(socket);
    }
    // Still serving after the odd origins: a listed origin, the api's own, and no Origin (sdk) connect.
    for (const headers of [{ origin: 'https://app.atende.test' }, { origin: t.url }, {}] as Record<string, string>[]) {
      const socket = t.socket(token, { extraHeaders: headers });
      open.push(socket);
      await connected(socket);
    }
  });

  it('accepts the session cookie of the web app as well as the auth token', async () => {
    const res = await t.http.post('/api/v1/login').type('form').send({ email: 'agent2@acme.test', password: 'secret123' });
    const cookie = String(res.headers['set-cookie']).split(';')[0]!;
    const socket = t.socket(undefined, { extraHeaders: { cookie, origin: 'https://app.atende.test' } });
    open.push(socket);
    await connected(socket);
  });

  // A connected socket does not keep its first HTTP request; what it needs stays.
  it('lets go of the first HTTP request once connected, keeping the handshake and the events', async () => {
    const { socket } = await socketOf('agent@acme.test');
    const [server] = await t.io.in(rooms.user(acme.users.agent!.uuid)).fetchSockets();
    const local = t.io.sockets.sockets.get(server!.id)!;
    expect(local.conn.request).toBeNull();
    expect(local.handshake.headers.host).toBeTruthy();
    const seen = nextEvent(socket, 'update-user', (p) => p.user.username === 'still-here');
    t.ctx.realtime.emit(rooms.user(acme.users.agent!.uuid), 'update-user', userEvent(acme.tenantId, acme.users.agent!.uuid, 'still-here'));
    await seen;
  });
});

describe('session lifetime', () => {
  // A socket is a view of a session: when the session expires the socket goes too.
  it('disconnects a socket when its session expires', async () => {
    const session = await t.database.db.userSession.create({
      data: { tenantId: acme.tenantId, userId: acme.users.agent!.id, roles: ['agent'], expiresAt: new Date(Date.now() + 1000) },
    });
    const token = jwt.sign({ sid: session.id, sub: acme.users.agent!.uuid, tid: acme.tenantId }, t.env.JWT_SECRET, {
      audience: 'atende-web',
      issuer: 'atende-api',
      expiresIn: 3600,
    });
    const socket = t.socket(token);
    open.push(socket);
    const dropped = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    await connected(socket);
    expect(await dropped).toBe('io server disconnect');
    expect((await refused(t.socket(token))).message).toBe('unauthorized');
  });
});

describe('rooms', () => {
  // Realtime channels.
  it('delivers an event only to the sockets of its room', async () => {
    const a = await socketOf('agent@acme.test');
    const b = await socketOf('agent2@acme.test');
    const seenByB: string[] = [];
    b.socket.on('update-user', (p) => seenByB.push(p.user.username));
    const forA = nextEvent(a.socket, 'update-user', (p) => p.user.username === 'for-a');
    t.ctx.realtime.emit(rooms.user(acme.users.agent!.uuid), 'update-user', userEvent(acme.tenantId, acme.users.agent!.uuid, 'for-a'));
    await forA;
    // Emitted after the first from the same process, so it arrives after it: B's only event is its own.
    const marker = nextEvent(b.socket, 'update-user', (p) => p.user.username === 'for-b');
    t.ctx.realtime.emit(rooms.user(acme.users.agent2!.uuid), 'update-user', userEvent(acme.tenantId, acme.users.agent2!.uuid, 'for-b'));
    await marker;
    expect(seenByB).toEqual(['for-b']);
  });

  // An audience of several rooms (a conversation's: its live view, its agent, the dashboards) is one
  // broadcast: a socket in two of the rooms gets the event once, a socket in none gets nothing.
  it('delivers one emit to several rooms once to each socket in any of them', async () => {
    const supervisor = await socketOf('supervisor@acme.test');
    const agent = await socketOf('agent@acme.test');
    const other = await socketOf('agent2@acme.test');
    expect(await emitWithAck<JoinAck>(supervisor.socket, 'join', { room: rooms.metrics(acme.tenantId) })).toEqual({ ok: true });
    const seen: Record<string, string[]> = { supervisor: [], agent: [], other: [] };
    for (const [name, s] of [
      ['supervisor', supervisor],
      ['agent', agent],
      ['other', other],
    ] as const)
      s.socket.on('update-user', (p) => seen[name]!.push(p.user.username));
    const audience = [rooms.metrics(acme.tenantId), rooms.user(acme.users.supervisor!.uuid), rooms.user(acme.users.agent!.uuid)];
    t.ctx.realtime.emit(audience, 'update-user', userEvent(acme.tenantId, acme.users.agent!.uuid, 'to-all'));
    // A later event from the same process to each socket marks the end of what the first could bring.
    const markers = [supervisor, agent, other].map((s) => nextEvent(s.socket, 'update-user', (p) => p.user.username === 'marker'));
    t.ctx.realtime.emit(
      [rooms.user(acme.users.supervisor!.uuid), rooms.user(acme.users.agent!.uuid), rooms.user(acme.users.agent2!.uuid)],
      'update-user',
      userEvent(acme.tenantId, acme.users.agent!.uuid, 'marker'),
    );
    await Promise.all(markers);
    expect(seen).toEqual({ supervisor: ['to-all', 'marker'], agent: ['to-all', 'marker'], other: ['marker'] });
  });

  // The metrics room is the supervisors' dashboard; an agent-only user has no privileged check.
  it("lets a supervisor join their tenant's metrics room, refuses an agent and every other tenant's room", async () => {
    const agent = await socketOf('agent@acme.test');
    const supervisor = await socketOf('supervisor@acme.test');
    const metrics = rooms.metrics(acme.tenantId);
    expect(await emitWithAck<JoinAck>(agent.socket, 'join', { room: metrics })).toMatchObject({
      ok: false,
      error_message: expect.any(String),
    });
    expect(await emitWithAck<JoinAck>(supervisor.socket, 'join', { room: metrics })).toEqual({ ok: true });
    for (const room of [
      rooms.metrics(globex.tenantId),
      rooms.campaigns(globex.tenantId),
      rooms.user(globex.users.agent!.uuid),
      rooms.user(acme.users.agent!.uuid),
      rooms.tenant(acme.tenantId),
      `session:${crypto.randomUUID()}`,
      'x'.repeat(500),
    ]) {
      expect(await emitWithAck<JoinAck>(supervisor.socket, 'join', { room }), room).toMatchObject({ ok: false });
    }
    expect(await emitWithAck<JoinAck>(supervisor.socket, 'join', 42)).toMatchObject({ ok: false });
    // The role matrix's campaigns row: a campaign manager or an admin may join the campaigns room; a
    // Supervisor may not, nor a manager (the stricter reading of the role rules).
    expect(await emitWithAck<JoinAck>(supervisor.socket, 'join', { room: rooms.campaigns(acme.tenantId) })).toMatchObject({ ok: false });
    const manager = await socketOf('manager@acme.test');
    expect(await emitWithAck<JoinAck>(manager.socket, 'join', { room: rooms.campaigns(acme.tenantId) })).toMatchObject({ ok: false });
    const campaigns = await socketOf('campaigns@acme.test');
    expect(await emitWithAck<JoinAck>(campaigns.socket, 'join', { room: rooms.campaigns(acme.tenantId) })).toEqual({ ok: true });

    // The joined room carries the agent's pause to the supervisor; the refused agent gets only its own copy.
    const pause = acme.pauses[0]!;
    const seenBySupervisor = nextEvent(
      supervisor.socket,
      'update-user',
      (p) => p.user.uuid === acme.users.agent!.uuid && p.user.current_pause?.uuid === pause.id,
    );
    const seenByAgent = nextEvent(agent.socket, 'update-user', (p) => p.user.current_pause?.uuid === pause.id);
    const res = await t.http.patch('/api/v1/users/me').set('Authorization', `Bearer ${agent.token}`).send({ current_pause_uuid: pause.id });
    expect(res.status).toBe(200);
    await Promise.all([seenBySupervisor, seenByAgent]);
    await t.http.patch('/api/v1/users/me').set('Authorization', `Bearer ${agent.token}`).send({ current_pause_uuid: null });
  });

  // Revocation drops a session's sockets through the session room; leaving it would dodge that.
  it("refuses leaving the socket's own user and session rooms, so a revoked session is still dropped", async () => {
    const { socket, token } = await socketOf('agent2@acme.test');
    const claims = jwt.decode(token) as Record<string, string>;
    expect(await emitWithAck<JoinAck>(socket, 'leave', { room: `session:${claims.sid}` })).toMatchObject({ ok: false });
    expect(await emitWithAck<JoinAck>(socket, 'leave', { room: acme.users.agent2!.uuid })).toMatchObject({ ok: false });
    expect(await emitWithAck<JoinAck>(socket, 'leave', { room: 'anything-else' })).toEqual({ ok: true });
    const dropped = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    await t.http.post('/api/v1/logout').set('Authorization', `Bearer ${token}`).type('form').send({});
    expect(await dropped).toBe('io server disconnect');
  });
});
