import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let other: Awaited<ReturnType<TestApp['tenant']>>;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme', {
    users: { agent: ['agent'], supervisor: ['supervisor'], manager: ['manager'], admin: ['admin'], owner: ['owner'] },
  });
  other = await t.tenant('Other', { users: { admin: ['admin'] } });
  for (const name of ['agent', 'supervisor', 'manager', 'admin', 'owner']) tokens[name] = await t.login(`${name}@acme.test`);
  tokens.outsider = await t.login('admin@other.test');
});
afterAll(() => t.close());
const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });
const names = async (who = 'admin') =>
  (await t.http.get('/api/v1/sectors?_limit=0').set(auth(who))).body.data.map((s: { name: string }) => s.name);

describe('sectors', () => {
  let id: string;

  it('an admin creates a sector with its SLA times and ticket announcement; everyone signed in lists it', async () => {
    const res = await t.http.post('/api/v1/sectors').set(auth('admin')).send({
      name: '  Retention ',
      sla_first_response_seconds: 120,
      sla_session_seconds: 3600,
      ticket_announce: true,
      ticket_message: 'Seu protocolo é {{ticket}}',
    });
    expect(res.status).toBe(201);
    id = res.body.data.uuid;
    expect(res.body.data).toEqual({
      uuid: id,
      name: 'Retention',
      sla_first_response_seconds: 120,
      sla_session_seconds: 3600,
      ticket_announce: true,
      ticket_message: 'Seu protocolo é {{ticket}}',
    });
    expect(await names('agent')).toEqual(['Retention', 'Sales', 'Support']);
    // A minimal sector: SLA times unset, ticket not announced.
    const minimal = await t.http.post('/api/v1/sectors').set(auth('owner')).send({ name: 'Billing' });
    expect(minimal.status).toBe(201);
    expect(minimal.body.data).toMatchObject({
      sla_first_response_seconds: null,
      sla_session_seconds: null,
      ticket_announce: false,
      ticket_message: null,
    });
  });

  it('edits only the fields sent', async () => {
    const res = await t.http.patch(`/api/v1/sectors/${id}`).set(auth('admin')).send({ sla_session_seconds: null, name: 'Retenção' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'Retenção',
      sla_first_response_seconds: 120,
      sla_session_seconds: null,
      ticket_announce: true,
    });
  });

  it('refuses bad input with the field and its message, and stores nothing', async () => {
    const before = await t.database.db.sector.count();
    const cases: [Record<string, unknown>, string, string][] = [
      [{}, 'name', 'This field is required'],
      [{ name: '   ' }, 'name', 'This field is required'],
      [{ name: 'x'.repeat(121) }, 'name', '120 characters maximum'],
      [{ name: 'A', sla_first_response_seconds: 0 }, 'sla_first_response_seconds', 'The SLA must be at least 1 second'],
      [{ name: 'A', sla_session_seconds: 1.5 }, 'sla_session_seconds', 'Enter a whole number of seconds'],
      [{ name: 'A', sla_session_seconds: 31 * 24 * 3600 }, 'sla_session_seconds', 'The SLA must be at most 30 days'],
      [{ name: 'A', ticket_announce: true }, 'ticket_message', 'The ticket message is required when the ticket is announced'],
      [{ name: 'A', ticket_message: 'x'.repeat(1001) }, 'ticket_message', '1000 characters maximum'],
    ];
    for (const [body, path, message] of cases) {
      const res = await t.http.post('/api/v1/sectors').set(auth('admin')).send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.fields, JSON.stringify(body)).toContainEqual(expect.objectContaining({ path, message }));
    }
    // The PATCH checks the announcement against the stored message.
    const billing = (await t.http.get('/api/v1/sectors?name=Billing').set(auth('admin'))).body.data[0].uuid;
    const res = await t.http.patch(`/api/v1/sectors/${billing}`).set(auth('admin')).send({ ticket_announce: true });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error_message: 'The ticket message is required when the ticket is announced',
      fields: [{ path: 'ticket_message' }],
    });
    expect(await t.database.db.sector.count()).toBe(before);
  });

  it('refuses a name another live sector has, whatever its case', async () => {
    const res = await t.http.post('/api/v1/sectors').set(auth('admin')).send({ name: 'support' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      code: 'sector_name_taken',
      fields: [{ path: 'name', message: 'A sector with this name already exists', code: 'sector_name_taken' }],
    });
  });

  // Supervisors (and managers) read the settings; only admins change sectors.
  it('refuses writes to supervisors, managers and agents', async () => {
    for (const who of ['agent', 'supervisor', 'manager']) {
      expect((await t.http.post('/api/v1/sectors').set(auth(who)).send({ name: 'Nope' })).status, who).toBe(403);
      expect((await t.http.patch(`/api/v1/sectors/${id}`).set(auth(who)).send({ name: 'Nope' })).status, who).toBe(403);
      expect((await t.http.delete(`/api/v1/sectors/${id}`).set(auth(who))).status, who).toBe(403);
    }
    expect((await t.http.get('/api/v1/sectors').set(auth('supervisor'))).status).toBe(200);
    expect((await t.http.post('/api/v1/sectors').send({ name: 'Nope' })).status).toBe(401);
  });

  it("answers 404 for another tenant's sector and leaves it alone", async () => {
    const theirs = other.sectors[0]!.id;
    expect((await t.http.patch(`/api/v1/sectors/${theirs}`).set(auth('admin')).send({ name: 'Mine' })).status).toBe(404);
    expect((await t.http.delete(`/api/v1/sectors/${theirs}`).set(auth('admin'))).status).toBe(404);
    expect((await t.http.patch(`/api/v1/sectors/${id}`).set(auth('outsider')).send({ name: 'Mine' })).status).toBe(404);
    expect(await t.database.db.sector.findUniqueOrThrow({ where: { id: theirs } })).toMatchObject({ name: 'Support', deletedAt: null });
    expect((await t.http.delete('/api/v1/sectors/not-a-uuid').set(auth('admin'))).status).toBe(400);
  });

  it('refuses to delete the entry sector of a live channel or campaign', async () => {
    const sales = acme.sectors[1]!.id;
    const channel = await t.database.db.channel.create({
      data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, name: 'Chat', type: 'livechat', entrySectorId: sales },
    });
    const res = await t.http.delete(`/api/v1/sectors/${sales}`).set(auth('admin'));
    expect(res.status).toBe(409);
    expect(res.body.error_message).toBe('Some channels depend on this sector');
    await t.database.db.channel.update({ where: { id: channel.id }, data: { deletedAt: new Date() } });
    // Likewise the entry point of a campaign's replies.
    const template = await t.database.db.outboundTemplate.create({
      data: {
        tenantId: acme.tenantId,
        channelId: channel.id,
        name: 'oferta',
        language: 'pt_BR',
        category: 'MARKETING',
        status: 'APPROVED',
        components: [],
      },
    });
    const campaign = await t.database.db.campaign.create({
      data: {
        tenantId: acme.tenantId,
        workspaceId: acme.workspaceId,
        name: 'Promo',
        channelId: channel.id,
        templateId: template.id,
        entrySectorId: sales,
        createdById: acme.users.admin!.id,
      },
    });
    const again = await t.http.delete(`/api/v1/sectors/${sales}`).set(auth('admin'));
    expect(again.status).toBe(409);
    expect(again.body.error_message).toBe('Some campaigns depend on this sector');
    await t.database.db.campaign.update({ where: { id: campaign.id }, data: { deletedAt: new Date() } });
  });

  it('refuses to delete a sector with open conversations (never strands a waiting chat), and drops its agents when it goes', async () => {
    const db = t.database.db;
    const created = await t.http.post('/api/v1/sectors').set(auth('admin')).send({ name: 'Plantão' });
    const sector = created.body.data.uuid as string;
    const contact = await db.contact.create({ data: { tenantId: acme.tenantId, name: 'Bia' } });
    const channel = await db.channel.create({
      data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, name: 'API 2', type: 'custom' },
    });
    const waiting = await db.conversation.create({
      data: {
        tenantId: acme.tenantId,
        workspaceId: acme.workspaceId,
        contactId: contact.id,
        channelId: channel.id,
        sectorId: sector,
        state: 'waiting',
        ticketNumber: 77,
      },
    });
    await db.userSector.create({ data: { tenantId: acme.tenantId, userId: acme.users.agent!.id, sectorId: sector } });
    const refused = await t.http.delete(`/api/v1/sectors/${sector}`).set(auth('admin'));
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'sector_has_open_conversations',
      error_message: 'Some open conversations are in this sector: transfer or finish them first',
      params: { count: 1 },
    });
    expect(await db.sector.findUniqueOrThrow({ where: { id: sector } })).toMatchObject({ deletedAt: null });
    // Finished, the conversation no longer holds the sector; the agent's membership goes with it.
    await db.conversation.update({ where: { id: waiting.id }, data: { state: 'closed' } });
    expect((await t.http.delete(`/api/v1/sectors/${sector}`).set(auth('admin'))).status).toBe(200);
    expect(await db.userSector.count({ where: { sectorId: sector } })).toBe(0);
    expect(await db.conversation.findUniqueOrThrow({ where: { id: waiting.id } })).toMatchObject({ sectorId: sector });
  });

  it('deletes softly: the sector leaves the lists and transfer destinations; conversations keep it', async () => {
    const db = t.database.db;
    const contact = await db.contact.create({ data: { tenantId: acme.tenantId, name: 'Ana' } });
    const channel = await db.channel.create({
      data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, name: 'API', type: 'custom' },
    });
    const conversation = await db.conversation.create({
      data: {
        tenantId: acme.tenantId,
        workspaceId: acme.workspaceId,
        contactId: contact.id,
        channelId: channel.id,
        sectorId: id,
        state: 'closed',
        ticketNumber: 1,
      },
    });
    expect((await t.http.delete(`/api/v1/sectors/${id}`).set(auth('admin'))).status).toBe(200);
    expect(await names()).toEqual(['Billing', 'Sales', 'Support']);
    const destinations = await t.http.get('/api/v1/conversations/transfer_destinations').set(auth('supervisor'));
    expect(destinations.body.data.sectors.map((s: { name: string }) => s.name)).not.toContain('Retenção');
    expect(await db.sector.findUniqueOrThrow({ where: { id } })).toMatchObject({ name: 'Retenção' });
    expect(await db.conversation.findUniqueOrThrow({ where: { id: conversation.id } })).toMatchObject({ sectorId: id });
    // Gone for writes too; its name is free again.
    expect((await t.http.patch(`/api/v1/sectors/${id}`).set(auth('admin')).send({ name: 'Back' })).status).toBe(404);
    expect((await t.http.post('/api/v1/sectors').set(auth('admin')).send({ name: 'Retenção' })).status).toBe(201);
  });
});
