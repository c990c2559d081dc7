import { rooms } from '@atende/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connected, startTestApp, type TestApp } from '../../testing';

// A role change takes effect at the user's next session, made
// immediate: the user's open sessions end with the change, on every path that writes the roles.
let t: TestApp;
let seams: Awaited<ReturnType<TestApp['tenant']>>;

beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_IP: '1000' });
  seams = await t.tenant('Seams', { users: { owner: ['owner'], boss: ['admin'], lead: ['admin'], scripted: ['admin'], racer: ['admin'] } });
});
afterAll(() => t.close());

/** Signs in as the web app does: the session cookie, sent back with the app's own Origin on writes. */
async function webSession(email: string): Promise<{ Cookie: string; Origin: string }> {
  const res = await t.http.post('/api/v1/login').type('form').send({ email, password: 'secret123' });
  expect(res.status).toBe(200);
  return { Cookie: String(res.headers['set-cookie']).split(';')[0]!, Origin: t.url };
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The admin writes of the issue, each a valid request an admin's session would be allowed. */
function adminWrites(headers: Record<string, string>) {
  return {
    channel: () =>
      t.http
        .post('/api/v1/channels')
        .set(headers)
        .type('form')
        .send({ name: 'Exfiltrate', type: 'custom', webhook_url: 'https://8.8.8.8/hook' }),
    bot: () =>
      t.http
        .post('/api/v1/bots')
        .set(headers)
        .send({
          name: 'Late bot',
          nodes: [
            { id: 's', type: 'start', next: 'bye' },
            { id: 'bye', type: 'end', text: 'Bye!' },
          ],
        }),
    integrations: () =>
      t.http
        .put('/api/v1/workspaces/me/integrations')
        .set(headers)
        .send({ zapier: { enabled: true, token: 'zap-secret-123' } }),
    token: () => t.http.post('/api/v1/oauth/tokens').set(headers).send({ client_name: 'Late' }),
    sector: (name = 'Late sector') => t.http.post('/api/v1/sectors').set(headers).send({ name }),
  };
}

describe("a role change ends the user's open sessions", () => {
  it('an admin demoted to agent: the old web session can no longer create channels, bots, integrations or sectors', async () => {
    const boss = await webSession('boss@seams.test');
    const socket = await connected(t.socket(undefined, { extraHeaders: { Cookie: boss.Cookie, Origin: t.url } }));
    const dropped = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    // Before: the admin session may write (and the dashboards' room is open to it).
    expect((await adminWrites(boss).sector('While admin')).status).toBe(201);
    expect(await new Promise((resolve) => socket.emit('join', { room: rooms.metrics(seams.tenantId) }, resolve))).toEqual({ ok: true });

    const owner = bearer(await t.login('owner@seams.test'));
    expect(
      (
        await t.http
          .patch(`/api/v1/users/${seams.users.boss!.uuid}`)
          .set(owner)
          .send({ roles: ['agent'] })
      ).status,
    ).toBe(200);

    const channelsBefore = await t.database.db.channel.count({ where: { tenantId: seams.tenantId } });
    for (const [name, write] of Object.entries(adminWrites(boss))) {
      const res = await write();
      expect(res.status, name).toBe(401);
      // The web app's shared handler signs out on 401 and words the code (Portuguese in pt/server.ts).
      expect(res.body, name).toMatchObject({ code: 'session_ended', error_message: 'Your session has ended, sign in again' });
    }
    expect(await t.database.db.channel.count({ where: { tenantId: seams.tenantId } })).toBe(channelsBefore);
    expect(await t.database.db.bot.count({ where: { tenantId: seams.tenantId } })).toBe(0);
    expect(await t.database.db.sector.count({ where: { tenantId: seams.tenantId, name: 'Late sector' } })).toBe(0);
    expect(await t.database.db.userSession.findMany({ where: { userId: seams.users.boss!.id }, select: { revokedReason: true } })).toEqual([
      { revokedReason: 'roles_changed' },
    ]);
    // Its live socket is dropped too: it no longer hears the dashboards.
    expect(await dropped).toBe('io server disconnect');

    // Signing in again gives an agent's session: the admin writes are refused for the role.
    const again = bearer(await t.login('boss@seams.test'));
    expect((await adminWrites(again).channel()).status).toBe(403);
  });

  it('holds on every path that writes the roles, not only the users api: a script demoting in the database', async () => {
    const scripted = bearer(await t.login('scripted@seams.test'));
    expect((await adminWrites(scripted).token()).status).toBe(201);
    await t.database.db.user.update({ where: { id: seams.users.scripted!.id }, data: { roles: ['agent'] } });
    expect((await adminWrites(scripted).token()).status).toBe(401);
    expect((await adminWrites(scripted).integrations()).status).toBe(401);
  });

  it('gives a sign-in that races a demotion the new roles, never a session left with the old ones', async () => {
    let commit!: () => void;
    const held = new Promise<void>((resolve) => (commit = resolve));
    let written!: () => void;
    const demoted = new Promise<void>((resolve) => (written = resolve));
    // The demotion is written and not yet committed while the user signs in.
    const demotion = t.database.db.$transaction(
      async (tx) => {
        await tx.user.update({ where: { id: seams.users.racer!.id }, data: { roles: ['agent'] } });
        written();
        await held;
      },
      { timeout: 10_000 },
    );
    await demoted;
    let settled = false;
    const signIn = t.login('racer@seams.test').finally(() => (settled = true));
    // Commit only once the sign-in waits on the demotion's row lock (or, had it taken none, has already answered).
    const lockWaits = async () =>
      (
        await t.database.db.$queryRaw<
          { n: number }[]
        >`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`
      )[0]!.n;
    await vi.waitFor(async () => expect(settled || (await lockWaits()) > 0).toBe(true), { timeout: 5000 });
    commit();
    await demotion;
    const racer = bearer(await signIn);
    const me = await t.http.get('/api/v1/users/me').set(racer);
    expect(me.body.data.roles).toEqual([{ name: 'agent' }]);
    expect((await adminWrites(racer).channel()).status).toBe(403);
  });

  it("keeps the session making the change, with the new roles, and ends the user's other sessions", async () => {
    const here = bearer(await t.login('lead@seams.test'));
    const elsewhere = bearer(await t.login('lead@seams.test'));
    const lead = await t.database.db.user.findUniqueOrThrow({ where: { id: seams.users.lead!.id } });
    const res = await t.http
      .patch(`/api/v1/users/${lead.uuid}`)
      .set(here)
      .send({ roles: ['admin', 'supervisor'] });
    expect(res.status).toBe(200);
    const me = await t.http.get('/api/v1/users/me').set(here);
    expect(me.status).toBe(200);
    expect(me.body.data.roles.map((r: { name: string }) => r.name).sort()).toEqual(['admin', 'supervisor']);
    expect((await t.http.get('/api/v1/users/me').set(elsewhere)).status).toBe(401);
  });

  it('changes nothing for the sessions when the roles stay the same (a rename, the same roles reordered)', async () => {
    const owner = bearer(await t.login('owner@seams.test'));
    const lead = bearer(await t.login('lead@seams.test'));
    const uuid = seams.users.lead!.uuid;
    expect((await t.http.patch(`/api/v1/users/${uuid}`).set(owner).send({ username: 'Lead Renamed' })).status).toBe(200);
    expect(
      (
        await t.http
          .patch(`/api/v1/users/${uuid}`)
          .set(owner)
          .send({ roles: ['supervisor', 'admin'] })
      ).status,
    ).toBe(200);
    expect((await t.http.get('/api/v1/users/me').set(lead)).status).toBe(200);
  });

  it("ends a removed user's sessions with the removal", async () => {
    const owner = bearer(await t.login('owner@seams.test'));
    const lead = bearer(await t.login('lead@seams.test'));
    const socket = await connected(t.socket(await t.login('lead@seams.test')));
    const dropped = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    expect((await t.http.delete(`/api/v1/users/${seams.users.lead!.uuid}`).set(owner)).status).toBe(200);
    expect((await t.http.get('/api/v1/users/me').set(lead)).status).toBe(401);
    expect(await dropped).toBe('io server disconnect');
    const reasons = await t.database.db.userSession.findMany({
      where: { userId: seams.users.lead!.id, revokedAt: { not: null }, revokedReason: 'deleted' },
    });
    expect(reasons.length).toBeGreaterThanOrEqual(2);
  });
});
