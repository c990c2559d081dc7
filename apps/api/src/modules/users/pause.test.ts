import { rooms } from '@atende/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connected, nextEvent, startTestApp, type TestApp, type TestSocket } from '../../testing';

// Pause: an agent pauses with a chosen reason, unpausing is manual;
// PATCH /api/v1/users/me with current_pause_uuid (null unpauses), live update-user to the user's
// room and to tenant_{uuid}_metrics.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let globex: Awaited<ReturnType<TestApp['tenant']>>;
const open: TestSocket[] = [];

async function socketOf(token: string): Promise<TestSocket> {
  const socket = t.socket(token);
  open.push(socket);
  return connected(socket);
}
const patchMe = (token: string, body: unknown) =>
  t.http
    .patch('/api/v1/users/me')
    .set('Authorization', `Bearer ${token}`)
    .send(body as object);

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme');
  globex = await t.tenant('Globex');
});
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(() => t.close());

describe('PATCH /api/v1/users/me (pause and unpause)', () => {
  it("pauses with one of the tenant's pauses, tells the user's room and the supervisors' metrics room", async () => {
    const agent = await t.login('agent@acme.test');
    const supervisor = await t.login('supervisor@acme.test');
    const agentSocket = await socketOf(agent);
    const supervisorSocket = await socketOf(supervisor);
    expect(await supervisorSocket.timeout(5000).emitWithAck('join', { room: rooms.metrics(acme.tenantId) })).toEqual({ ok: true });
    const pause = acme.pauses[0]!;
    const isPaused = (p: { user: { uuid: string; current_pause: { uuid: string } | null } }) =>
      p.user.uuid === acme.users.agent!.uuid && p.user.current_pause?.uuid === pause.id;
    const toAgent = nextEvent(agentSocket, 'update-user', isPaused);
    const toSupervisor = nextEvent(supervisorSocket, 'update-user', isPaused);

    const res = await patchMe(agent, { current_pause_uuid: pause.id, back_to_queue: false });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ state: 'paused', current_pause: { uuid: pause.id, description: pause.description } });
    const [a, s] = await Promise.all([toAgent, toSupervisor]);
    expect(a).toMatchObject({ tenant_uuid: acme.tenantId, user: { state: 'paused' } });
    expect(s).toEqual(a);
    expect((await t.database.db.user.findUniqueOrThrow({ where: { id: acme.users.agent!.id } })).currentPauseId).toBe(pause.id);
  });

  it('unpauses with current_pause_uuid null', async () => {
    const agent = await t.login('agent@acme.test');
    const socket = await socketOf(agent);
    await patchMe(agent, { current_pause_uuid: acme.pauses[1]!.id });
    const unpaused = nextEvent(socket, 'update-user', (p) => p.user.current_pause === null);
    const res = await patchMe(agent, { current_pause_uuid: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ state: 'online', current_pause: null });
    expect((await unpaused).user.state).toBe('online');
  });

  // Another tenant's object answers 404 and changes nothing.
  it("answers 404 for another tenant's pause, or one that does not exist, and stays as it was", async () => {
    const agent = await t.login('agent2@acme.test');
    await patchMe(agent, { current_pause_uuid: acme.pauses[0]!.id });
    for (const id of [globex.pauses[0]!.id, crypto.randomUUID()]) {
      const res = await patchMe(agent, { current_pause_uuid: id });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'pause_not_found', error_message: 'Pause not found' });
    }
    const row = await t.database.db.user.findUniqueOrThrow({ where: { id: acme.users.agent2!.id } });
    expect(row).toMatchObject({ currentPauseId: acme.pauses[0]!.id, state: 'paused' });
  });

  it('answers 404 for a pause that was removed', async () => {
    const agent = await t.login('agent2@acme.test');
    const removed = await t.database.db.pause.create({
      data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, description: 'Old', deletedAt: new Date() },
    });
    expect((await patchMe(agent, { current_pause_uuid: removed.id })).status).toBe(404);
  });

  it('refuses bad bodies with 400: empty, unknown fields, wrong types, invalid uuid, pause together with online', async () => {
    const agent = await t.login('manager@acme.test');
    const before = await t.database.db.user.findUniqueOrThrow({ where: { id: acme.users.manager!.id } });
    const bodies: unknown[] = [
      {},
      { back_to_queue: true },
      { current_pause_uuid: 'lunch' },
      { current_pause_uuid: 42 },
      { state: 'paused' },
      { state: 'online', current_pause_uuid: acme.pauses[0]!.id },
      { current_pause_uuid: null, is_logged: false },
      { roles: [{ name: 'admin' }] },
      [],
    ];
    for (const body of bodies) {
      const res = await patchMe(agent, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error_message, JSON.stringify(body)).toBeTruthy();
      expect(res.body.code).toMatch(/^(validation_failed|missing_parameters|pause_or_online)$/);
    }
    const after = await t.database.db.user.findUniqueOrThrow({ where: { id: acme.users.manager!.id } });
    expect(after).toEqual(before);
  });
});
