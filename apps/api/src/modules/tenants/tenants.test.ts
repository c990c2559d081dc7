import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

// Tenants section (tenant_admin) and workspace settings; tenancy everywhere
// Docs/architecture.md: another tenant's object answers 404 and changes nothing.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let globex: Awaited<ReturnType<TestApp['tenant']>>;
const token: Record<string, string> = {};
const as = (who: string) => ({ Authorization: `Bearer ${token[who]}` });
const snapshot = async () => ({
  tenants: await t.database.db.tenant.findMany({ orderBy: { id: 'asc' } }),
  workspaces: await t.database.db.workspace.findMany({ orderBy: { id: 'asc' } }),
});

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme');
  globex = await t.tenant('Globex');
  for (const who of ['agent', 'supervisor', 'manager', 'admin', 'owner', 'campaigns', 'tenants'])
    token[who] = await t.login(`${who}@acme.test`);
  token.globexAdmin = await t.login('admin@globex.test');
});
afterAll(() => t.close());

describe('GET /api/v1/tenants/me and /api/v1/tenants/:id', () => {
  it('answers every role its own tenant with the feature flags', async () => {
    for (const who of ['agent', 'supervisor', 'campaigns']) {
      const me = await t.http.get('/api/v1/tenants/me').set(as(who));
      expect(me.status, who).toBe(200);
      expect(me.body.data).toMatchObject({
        uuid: acme.tenantId,
        name: 'Acme',
        config: { features: { qr_code_login: true }, default_country_code: '+55' },
      });
      expect((await t.http.get(`/api/v1/tenants/${acme.tenantId}`).set(as(who))).status, who).toBe(200);
    }
  });

  it("answers 404 for another tenant's id to everybody but tenant_admin, admin and owner included", async () => {
    for (const who of ['agent', 'supervisor', 'manager', 'admin', 'owner', 'campaigns']) {
      const res = await t.http.get(`/api/v1/tenants/${globex.tenantId}`).set(as(who));
      expect(res.status, who).toBe(404);
      expect(res.body).toMatchObject({ code: 'tenant_not_found', error_message: 'Tenant not found' });
    }
    const res = await t.http.get(`/api/v1/tenants/${globex.tenantId}`).set(as('tenants'));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ uuid: globex.tenantId, name: 'Globex' });
  });

  it('answers 404 for an unknown tenant and 400 for an invalid id', async () => {
    expect((await t.http.get(`/api/v1/tenants/${crypto.randomUUID()}`).set(as('tenants'))).status).toBe(404);
    for (const id of ['123', 'not-a-uuid', `${acme.tenantId}x`, "' OR 1=1 --"]) {
      const res = await t.http.get(`/api/v1/tenants/${encodeURIComponent(id)}`).set(as('tenants'));
      expect(res.status, id).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
  });
});

describe('GET /api/v1/tenants', () => {
  it('lists every tenant to tenant_admin', async () => {
    const res = await t.http.get('/api/v1/tenants').set(as('tenants'));
    expect(res.status).toBe(200);
    expect(res.body.data.map((x: { name: string }) => x.name)).toEqual(['Acme', 'Globex']);
  });

  it('lists only their own tenant to admin and owner (they cover every check, inside their tenant)', async () => {
    for (const who of ['admin', 'owner']) {
      const res = await t.http.get('/api/v1/tenants').set(as(who));
      expect(res.status, who).toBe(200);
      expect(res.body.data.map((x: { uuid: string }) => x.uuid)).toEqual([acme.tenantId]);
    }
  });

  it('refuses manager, supervisor, agent and campaign manager with 403', async () => {
    for (const who of ['manager', 'supervisor', 'agent', 'campaigns']) {
      const res = await t.http.get('/api/v1/tenants').set(as(who));
      expect(res.status, who).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
  });
});

describe('POST /api/v1/tenants/:id/configure', () => {
  it('lets tenant_admin configure any tenant; the flag takes effect for its users at once', async () => {
    const res = await t.http
      .post(`/api/v1/tenants/${globex.tenantId}/configure`)
      .set(as('tenants'))
      .send({ features: { qr_code_login: false }, agent: { max_slots: 5 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      uuid: globex.tenantId,
      config: { features: { qr_code_login: false, outbound_campaign: true }, agent: { max_slots: 5 } },
    });
    const globexAgent = await t.login('agent@globex.test');
    const qr = await t.http.get('/api/v1/users/me/login_qr_code').set('Authorization', `Bearer ${globexAgent}`);
    expect(qr.status).toBe(403);
    expect(qr.body.code).toBe('feature_disabled');
    await t.http
      .post(`/api/v1/tenants/${globex.tenantId}/configure`)
      .set(as('tenants'))
      .send({ features: { qr_code_login: true } });
  });

  it('lets admin and owner configure their own tenant', async () => {
    const res = await t.http
      .post(`/api/v1/tenants/${acme.tenantId}/configure`)
      .set(as('admin'))
      .send({ name: 'Acme Corp', first_steps_completed: true });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Acme Corp', config: { first_steps_completed: true } });
    expect((await t.http.post(`/api/v1/tenants/${acme.tenantId}/configure`).set(as('owner')).send({ name: 'Acme' })).status).toBe(200);
  });

  it('refuses an admin or owner changing their own plan (features, agent slots), and changes nothing', async () => {
    const before = await snapshot();
    for (const who of ['admin', 'owner']) {
      for (const body of [
        { features: { outbound_campaign: false } },
        { agent: { max_slots: 99 } },
        { name: 'Acme', features: { bots_interface: true } },
      ]) {
        const res = await t.http.post(`/api/v1/tenants/${acme.tenantId}/configure`).set(as(who)).send(body);
        expect(res.status, `${who} ${JSON.stringify(body)}`).toBe(403);
        expect(res.body.code).toBe('plan_locked');
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('answers 404 to an admin configuring another tenant, and nothing changes', async () => {
    const before = await snapshot();
    for (const [who, id] of [
      ['admin', globex.tenantId],
      ['owner', globex.tenantId],
      ['globexAdmin', acme.tenantId],
    ] as const) {
      const res = await t.http
        .post(`/api/v1/tenants/${id}/configure`)
        .set(as(who))
        .send({ name: 'Hijacked', features: { outbound_campaign: false } });
      expect(res.status, who).toBe(404);
      expect(res.body.code).toBe('tenant_not_found');
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses manager, supervisor, agent, campaign manager with 403 and changes nothing', async () => {
    const before = await snapshot();
    for (const who of ['manager', 'supervisor', 'agent', 'campaigns']) {
      const res = await t.http.post(`/api/v1/tenants/${acme.tenantId}/configure`).set(as(who)).send({ name: 'Mine' });
      expect(res.status, who).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a form-encoded body, what a page on another origin can post with the cookie, and changes nothing', async () => {
    const login = await t.http.post('/api/v1/login').type('form').send({ email: 'admin@acme.test', password: 'secret123' });
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const before = await snapshot();
    const res = await t.http.post(`/api/v1/tenants/${acme.tenantId}/configure`).set('Cookie', cookie).type('form').send({ name: 'Pwned' });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
    expect(await snapshot()).toEqual(before);
  });

  it('refuses bad bodies with 400 and changes nothing', async () => {
    const before = await snapshot();
    const bodies: unknown[] = [
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(121) },
      { name: 5 },
      { features: { no_such_flag: true } },
      { features: { qr_code_login: 'yes' } },
      { features: [] },
      { flags: { ['k'.repeat(65)]: true } },
      { flags: { note: 'x'.repeat(2001) } },
      { flags: { nested: { a: 1 } } },
      { default_country_code: '55' },
      { default_country_code: '+12345' },
      { agent: { max_slots: 0 } },
      { agent: { max_slots: 101 } },
      { agent: { max_slots: 1.5 } },
      { agent: { max_slots: 3, extra: 1 } },
      { first_steps_completed: 'true' },
      { is_demo: true },
      { id: globex.tenantId },
    ];
    for (const body of bodies) {
      const res = await t.http
        .post(`/api/v1/tenants/${acme.tenantId}/configure`)
        .set(as('tenants'))
        .send(body as object);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', error_message: expect.any(String) });
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe('GET and PATCH /api/v1/workspaces/me', () => {
  it('answers every role its own workspace', async () => {
    for (const who of ['agent', 'globexAdmin']) {
      const res = await t.http.get('/api/v1/workspaces/me').set(as(who));
      expect(res.status, who).toBe(200);
      expect(res.body.data.uuid).toBe(who === 'globexAdmin' ? globex.workspaceId : acme.workspaceId);
      expect(res.body.data).toMatchObject({ max_conversation_per_user: 10, conversation_delivery_mode: expect.any(String) });
    }
  });

  it('lets manager, admin and owner change it; integrations only admin and owner', async () => {
    for (const who of ['manager', 'admin', 'owner']) {
      const res = await t.http
        .patch('/api/v1/workspaces/me')
        .set(as(who))
        .send({ max_conversation_per_user: 7, conversation_delivery_mode: 'fifo' });
      expect(res.status, who).toBe(200);
      expect(res.body.data).toMatchObject({ max_conversation_per_user: 7, conversation_delivery_mode: 'fifo' });
    }
    const denied = await t.http
      .patch('/api/v1/workspaces/me')
      .set(as('manager'))
      .send({ integrations: { crm: { url: 'https://crm.test' } } });
    expect(denied.status).toBe(403);
    const ok = await t.http
      .patch('/api/v1/workspaces/me')
      .set(as('admin'))
      .send({ integrations: { crm: { url: 'https://crm.test' } } });
    expect(ok.body.data.integrations).toEqual({ crm: { url: 'https://crm.test' } });
    // Only the caller's workspace moved.
    const other = await t.database.db.workspace.findUniqueOrThrow({ where: { id: globex.workspaceId } });
    expect(other).toMatchObject({ maxConversationPerUser: 10, integrations: {} });
  });

  it('refuses supervisor, agent, campaign manager and tenant admin with 403', async () => {
    for (const who of ['supervisor', 'agent', 'campaigns', 'tenants']) {
      const res = await t.http.patch('/api/v1/workspaces/me').set(as(who)).send({ name: 'Mine' });
      expect(res.status, who).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
  });

  it('refuses bad bodies with 400 and changes nothing', async () => {
    const before = await snapshot();
    const bodies: unknown[] = [
      { max_conversation_per_user: 0 },
      { max_conversation_per_user: 101 },
      { max_conversation_per_user: '5' },
      { max_conversation_per_user: 2.5 },
      { conversation_delivery_mode: 'random' },
      { archived_conversation_behavior_on_new_messages: 'delete' },
      { name: '' },
      { name: 'x'.repeat(121) },
      { tenant_id: globex.tenantId },
      { integrations: 'crm' },
      { integrations: { ['k'.repeat(65)]: 1 } },
      null,
      'text',
      [],
    ];
    for (const body of bodies) {
      const res = await t.http
        .patch('/api/v1/workspaces/me')
        .set(as('admin'))
        .set('content-type', 'application/json')
        .send(JSON.stringify(body));
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error_message).toBeTruthy();
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe('switching a feature off stops what runs behind it', () => {
  it("stops the tenant's running and scheduled campaigns when outbound_campaign goes off, and no other tenant's", async () => {
    const db = t.database.db;
    const campaignsOf = async (tenant: typeof acme) => {
      const channel = await db.channel.create({
        data: { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, name: 'WA', type: 'whatsapp_cloud' },
      });
      const template = await db.outboundTemplate.create({
        data: {
          tenantId: tenant.tenantId,
          channelId: channel.id,
          name: 'oferta',
          language: 'pt_BR',
          category: 'MARKETING',
          status: 'APPROVED',
          components: [],
        },
      });
      const make = (name: string, state: string, desiredState: string) =>
        db.campaign.create({
          data: {
            tenantId: tenant.tenantId,
            workspaceId: tenant.workspaceId,
            name,
            channelId: channel.id,
            templateId: template.id,
            state,
            desiredState,
            createdById: tenant.users.admin!.id,
          },
        });
      return {
        running: await make('Running', 'running', 'running'),
        starting: await make('Starting', 'stopped', 'running'),
        scheduled: await make('Later', 'scheduled', 'scheduled'),
        done: await make('Done', 'completed', 'completed'),
      };
    };
    const mine = await campaignsOf(acme);
    const theirs = await campaignsOf(globex);
    // Turning another flag off, or outbound_campaign on, stops nothing.
    expect(
      (
        await t.http
          .post(`/api/v1/tenants/${acme.tenantId}/configure`)
          .set(as('tenants'))
          .send({ features: { outbound_campaign: true, internal_note: false } })
      ).status,
    ).toBe(200);
    expect((await db.campaign.findUniqueOrThrow({ where: { id: mine.running.id } })).desiredState).toBe('running');

    const res = await t.http
      .post(`/api/v1/tenants/${acme.tenantId}/configure`)
      .set(as('tenants'))
      .send({ features: { outbound_campaign: false } });
    expect(res.status).toBe(200);
    const state = async (id: string) => db.campaign.findUniqueOrThrow({ where: { id }, select: { state: true, desiredState: true } });
    // The running one is told to stop (its dispatcher lets go of it before its next batch).
    expect(await state(mine.running.id)).toEqual({ state: 'running', desiredState: 'stopped' });
    expect(await state(mine.starting.id)).toEqual({ state: 'stopped', desiredState: 'stopped' });
    expect(await state(mine.scheduled.id)).toEqual({ state: 'stopped', desiredState: 'stopped' });
    expect(await state(mine.done.id)).toEqual({ state: 'completed', desiredState: 'completed' });
    expect(await state(theirs.running.id)).toEqual({ state: 'running', desiredState: 'running' });
    expect(await state(theirs.scheduled.id)).toEqual({ state: 'scheduled', desiredState: 'scheduled' });
    await t.http
      .post(`/api/v1/tenants/${acme.tenantId}/configure`)
      .set(as('tenants'))
      .send({ features: { outbound_campaign: true, internal_note: true } });
    await db.campaign.deleteMany({ where: { id: { in: [...Object.values(mine), ...Object.values(theirs)].map((c) => c.id) } } });
  });
});

describe('POST /api/v1/tenants', () => {
  const body = (overrides: Record<string, unknown> = {}) => ({
    name: 'Initech',
    default_country_code: '+1',
    agent: { max_slots: 4 },
    features: { outbound_campaign: true, bots_interface: false },
    admin: { username: 'Bill Lumbergh', email: 'Bill@Initech.test', password: 'tps-report-1' },
    ...overrides,
  });

  it('lets tenant_admin create a customer with its plan and first admin, who signs in to a working desk', async () => {
    const res = await t.http.post('/api/v1/tenants').set(as('tenants')).send(body());
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'Initech',
      config: { default_country_code: '+1', agent: { max_slots: 4 }, features: { outbound_campaign: true, bots_interface: false } },
    });
    const id = res.body.data.uuid as string;
    const admin = await t.login('bill@initech.test', 'tps-report-1');
    const me = await t.http.get('/api/v1/tenants/me').set({ Authorization: `Bearer ${admin}` });
    expect(me.body.data.uuid).toBe(id);
    const user = await t.http.get('/api/v1/users/me').set({ Authorization: `Bearer ${admin}` });
    expect(user.body.data.roles.map((r: { name: string }) => r.name)).toEqual(['admin']);
    expect(await t.database.db.sector.count({ where: { tenantId: id } })).toBe(1);
    expect(await t.database.db.pause.count({ where: { tenantId: id } })).toBe(1);
    expect((await t.http.get('/api/v1/tenants').set(as('tenants'))).body.data.map((x: { uuid: string }) => x.uuid)).toContain(id);
    // The customer's admin sees their plan but cannot change it.
    expect(
      (
        await t.http
          .post(`/api/v1/tenants/${id}/configure`)
          .set({ Authorization: `Bearer ${admin}` })
          .send({ features: { bots_interface: true } })
      ).body.code,
    ).toBe('plan_locked');
  });

  it('refuses bad input and everybody but tenant_admin, and creates nothing', async () => {
    const before = await t.database.db.tenant.count();
    const cases: [Record<string, unknown>, number][] = [
      [{ name: ' ' }, 400],
      [{ admin: { username: 'Bill Lumbergh', email: 'not-an-email', password: 'tps-report-1' } }, 400],
      [{ admin: { username: 'Bill Lumbergh', email: 'bill2@initech.test', password: 'short' } }, 400],
      [{ admin: undefined }, 400],
      [{ agent: { max_slots: 0 } }, 400],
      [{ default_country_code: 'BR' }, 400],
      [{ features: { nope: true } }, 400],
    ];
    for (const [overrides, status] of cases) {
      const res = await t.http
        .post('/api/v1/tenants')
        .set(as('tenants'))
        .send(body({ name: 'Other Co', ...overrides }));
      expect(res.status, JSON.stringify(overrides)).toBe(status);
      expect(typeof res.body.error_message).toBe('string');
    }
    for (const who of ['admin', 'owner', 'manager', 'agent'])
      expect(
        (
          await t.http
            .post('/api/v1/tenants')
            .set(as(who))
            .send(body({ name: 'Other Co' }))
        ).status,
        who,
      ).toBe(403);
    expect(await t.database.db.tenant.count()).toBe(before);
  });
});
