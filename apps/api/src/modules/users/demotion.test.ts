import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_IP: '1000' });
  await t.tenant('Demote', { users: { boss: ['admin'], chief: ['admin'] } });
});
afterAll(() => t.close());

// A demotion ends the user's open sessions, so none of its writes go through.
describe('privileged writes after a demotion', () => {
  it('an admin demoted to agent cannot create admins or tokens with the old session', async () => {
    const boss = { Authorization: `Bearer ${await t.login('boss@demote.test')}` };
    const chief = { Authorization: `Bearer ${await t.login('chief@demote.test')}` };
    const newAdmin = (email: string) => ({ username: 'New Admin', email, password: 'abc12345', roles: ['admin'] });
    expect((await t.http.post('/api/v1/users').set(boss).send(newAdmin('first@demote.test'))).status).toBe(201);
    const bossRow = await t.database.db.user.findFirstOrThrow({ where: { email: 'boss@demote.test' } });
    const demoted = await t.http
      .patch(`/api/v1/users/${bossRow.uuid}`)
      .set(chief)
      .send({ roles: ['agent'] });
    expect(demoted.status).toBe(200);
    const attempt = await t.http.post('/api/v1/users').set(boss).send(newAdmin('second@demote.test'));
    expect(attempt.status).toBe(401);
    expect(await t.database.db.user.count({ where: { email: 'second@demote.test' } })).toBe(0);
    expect((await t.http.post('/api/v1/oauth/tokens').set(boss).send({ client_name: 'Late' })).status).toBe(401);
    // The admin who was not demoted still can.
    expect((await t.http.post('/api/v1/users').set(chief).send(newAdmin('third@demote.test'))).status).toBe(201);
  });

  // /users/me names the roles the session has; a role change ends
  // the user's open sessions, so the next sign-in is where the new roles show.
  it('a promotion ends the open session, and the next sign-in has the new roles', async () => {
    await t.tenant('Promote', { users: { lead: ['admin'], newbie: ['agent'] } });
    const lead = { Authorization: `Bearer ${await t.login('lead@promote.test')}` };
    const newbie = { Authorization: `Bearer ${await t.login('newbie@promote.test')}` };
    const row = await t.database.db.user.findFirstOrThrow({ where: { email: 'newbie@promote.test' } });
    const before = await t.http.get('/api/v1/users/me').set(newbie);
    expect(before.body.data.roles.map((r: { name: string }) => r.name)).toEqual(['agent']);
    expect(
      (
        await t.http
          .patch(`/api/v1/users/${row.uuid}`)
          .set(lead)
          .send({ roles: ['agent', 'supervisor'] })
      ).status,
    ).toBe(200);
    expect((await t.http.get('/api/v1/users/me').set(newbie)).status).toBe(401);
    const again = { Authorization: `Bearer ${await t.login('newbie@promote.test')}` };
    const after = await t.http.get('/api/v1/users/me').set(again);
    expect(after.body.data.roles.map((r: { name: string }) => r.name).sort()).toEqual(['agent', 'supervisor']);
    expect((await t.http.get('/api/v1/dashboard/conversations').set(again)).status).toBe(200);
  });
});
