import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

// Agents belong to sectors, set from the user form (GET/PUT /api/v1/users/:id/sectors).
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let globex: Awaited<ReturnType<TestApp['tenant']>>;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme', { users: { agent: ['agent'], admin: ['admin'], supervisor: ['supervisor'] } });
  globex = await t.tenant('Globex', { users: { agent: ['agent'] } });
  admin = await t.login('admin@acme.test');
});
afterAll(() => t.close());

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const path = (id: number | string) => `/api/v1/users/${id}/sectors`;

describe('user sectors', () => {
  it('replaces and reads the sectors of a user; an empty list means every sector', async () => {
    const agent = acme.users.agent!;
    const [support, sales] = acme.sectors.map((s) => s.id);
    expect((await t.http.get(path(agent.id)).set(bearer(admin))).body).toEqual({ data: { sector_uuids: [] } });
    const set = await t.http
      .put(path(agent.uuid))
      .set(bearer(admin))
      .send({ sector_uuids: [support, sales, support] });
    expect(set.status).toBe(200);
    expect([...set.body.data.sector_uuids].sort()).toEqual([support, sales].sort());
    const only = await t.http
      .put(path(agent.id))
      .set(bearer(admin))
      .send({ sector_uuids: [sales] });
    expect(only.body.data.sector_uuids).toEqual([sales]);
    expect(await t.database.db.userSector.findMany({ where: { userId: agent.id }, select: { sectorId: true, tenantId: true } })).toEqual([
      { sectorId: sales, tenantId: acme.tenantId },
    ]);
    // The transfer destinations follow (an agent of a sector); they list signed-in agents.
    await t.login('agent@acme.test');
    const destinations = await t.http.get('/api/v1/conversations/transfer_destinations').set(bearer(await t.login('supervisor@acme.test')));
    expect(destinations.status).toBe(200);
    const listed = destinations.body.data.agents as { uuid: string; sector_uuids: string[] }[];
    expect(listed.find((a) => a.uuid === agent.uuid)?.sector_uuids).toEqual([sales]);
    expect((await t.http.put(path(agent.id)).set(bearer(admin)).send({ sector_uuids: [] })).body.data.sector_uuids).toEqual([]);
  });

  it("refuses another tenant's sector or user, unknown ids, bad bodies and callers who are not admins", async () => {
    const agent = acme.users.agent!;
    const foreignSector = globex.sectors[0]!.id;
    const refused = await t.http
      .put(path(agent.id))
      .set(bearer(admin))
      .send({ sector_uuids: [foreignSector] });
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ code: 'sector_not_found', error_message: 'Sector not found' });
    expect(
      (
        await t.http
          .put(path(agent.id))
          .set(bearer(admin))
          .send({ sector_uuids: ['0b7c1e6a-554b-4e9a-992b-1c6f4f2a1100'] })
      ).status,
    ).toBe(404);
    expect((await t.http.get(path(globex.users.agent!.id)).set(bearer(admin))).status).toBe(404);
    const bad = await t.http
      .put(path(agent.id))
      .set(bearer(admin))
      .send({ sector_uuids: ['nope'] });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
    expect((await t.http.put(path(agent.id)).set(bearer(admin)).send({})).status).toBe(400);
    const asAgent = await t.http
      .put(path(agent.id))
      .set(bearer(await t.login('agent@acme.test')))
      .send({ sector_uuids: [] });
    expect(asAgent.status).toBe(403);
    expect(await t.database.db.userSector.count({ where: { userId: agent.id } })).toBe(0);
  });
});
