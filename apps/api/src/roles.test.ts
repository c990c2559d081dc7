import { randomUUID } from 'node:crypto';
import { ROLES, type Role } from '@atende/contract';
import { allows, PERMISSION_NAMES, PERMISSIONS, type PermissionName } from '@atende/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './testing';

// The role matrix, written down once in @atende/core (PERMISSIONS), is what
// the binder enforces: for every capability one call is made by a user of every role, and the api
// answers 403 forbidden exactly where the table says no (role matrix).
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
const USERS: Record<Role, string> = {
  agent: 'agent',
  supervisor: 'supervisor',
  manager: 'manager',
  admin: 'admin',
  owner: 'owner',
  campaign_manager: 'campaigns',
  tenant_admin: 'tenants',
};
const token: Partial<Record<string, string>> = {};
const as = (who: string) => ({ Authorization: `Bearer ${token[who]}` });
const nobody = randomUUID();

interface Probe {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  /** Writes are probed with a body the schema refuses: the role is checked first, so nothing is written. */
  body?: object;
}

/** One call per capability; null where the capability is a screen of the web app, not a call. */
const PROBES: Record<PermissionName, Probe | null> = {
  public: { method: 'get', path: '/api/health' },
  signed_in: { method: 'get', path: '/api/v1/users/me' },
  workstation: { method: 'get', path: '/api/v1/conversations/offered/me' },
  'conversations.start': { method: 'post', path: `/api/v1/contacts/${nobody}/conversations`, body: {} },
  'contacts.read': { method: 'get', path: '/api/v1/contacts' },
  'contacts.create': { method: 'post', path: '/api/v1/contacts', body: { name: 7 } },
  'contacts.update': { method: 'patch', path: `/api/v1/contacts/${nobody}`, body: { name: 7 } },
  'contacts.delete': { method: 'delete', path: `/api/v1/contacts/${nobody}` },
  'users.update': { method: 'patch', path: `/api/v1/users/${nobody}`, body: { username: 7 } },
  'users.list': { method: 'get', path: '/api/v1/users' },
  'users.force_offline': { method: 'patch', path: `/api/v1/users/${nobody}`, body: { state: 'offline' } },
  'users.manage': { method: 'post', path: '/api/v1/users', body: {} },
  qr_login: { method: 'get', path: '/api/v1/users/me/login_qr_code' },
  admin_area: null,
  dashboard: { method: 'get', path: '/api/v1/dashboard/stats' },
  'dashboard.omnichannel': { method: 'get', path: '/api/v1/dashboard/sectors' },
  reports: { method: 'get', path: '/api/v1/reports/agents/productivity' },
  'reports.session_metrics': { method: 'get', path: '/api/v1/reports/metrics/conversations' },
  'reports.bots': { method: 'get', path: '/api/v1/reports/bots' },
  'reports.surveys': { method: 'get', path: '/api/v1/reports/surveys' },
  'reports.login_history': { method: 'get', path: '/api/v1/reports/login_history' },
  campaigns: { method: 'get', path: '/api/v1/campaign' },
  'templates.manage': { method: 'delete', path: `/api/v1/channels/outbound_templates/${nobody}` },
  tenants: { method: 'get', path: '/api/v1/tenants' },
  'tenants.configure': { method: 'post', path: `/api/v1/tenants/${nobody}/configure`, body: { features: 7 } },
  'settings.pauses': { method: 'post', path: '/api/v1/pauses', body: {} },
  'settings.canned_responses': { method: 'get', path: '/api/v1/workspaces/me/canned_responses' },
  'canned_responses.use': { method: 'get', path: `/api/v1/channels/${nobody}/canned_responses` },
  'settings.opening_hours.read': { method: 'get', path: '/api/v1/workspaces/me/opening_hours' },
  'settings.opening_hours.write': { method: 'put', path: '/api/v1/workspaces/me/opening_hours', body: { enabled: 7 } },
  'settings.workspace.write': { method: 'patch', path: '/api/v1/workspaces/me', body: { max_conversation_per_user: 'x' } },
  'settings.automations.read': { method: 'get', path: '/api/v1/actions' },
  'settings.automations.write': { method: 'post', path: '/api/v1/actions', body: {} },
  'settings.menus.read': { method: 'get', path: '/api/v1/automated-menus' },
  'settings.menus.write': { method: 'post', path: '/api/v1/automated-menus', body: {} },
  'settings.surveys.read': { method: 'get', path: '/api/v1/surveys' },
  'settings.surveys.write': { method: 'post', path: '/api/v1/surveys', body: {} },
  'settings.sectors.write': { method: 'post', path: '/api/v1/sectors', body: {} },
  'settings.channels.write': { method: 'patch', path: `/api/v1/channels/${nobody}`, body: { name: 7 } },
  'settings.conversation_reasons': { method: 'post', path: '/api/v1/conversation/reasons', body: {} },
  'bots.read': { method: 'get', path: '/api/v1/bots' },
  'bots.manage': { method: 'post', path: '/api/v1/bots', body: {} },
  integrations: { method: 'get', path: '/api/v1/workspaces/me/integrations' },
  'integrations.tokens.write': { method: 'post', path: '/api/v1/oauth/tokens', body: {} },
  'conversation_fields.use': { method: 'get', path: '/api/v1/conversations/fields' },
  'conversation_fields.define': { method: 'post', path: '/api/v1/conversations/fields', body: {} },
};

async function call(who: string, probe: Probe) {
  const request = t.http[probe.method](probe.path).set(as(who));
  return probe.body ? request.send(probe.body) : request;
}

function expectForbidden(res: { status: number; body: { code?: string; error_message?: string } }, label: string, code = 'forbidden') {
  expect(res.status, label).toBe(403);
  expect(res.body, label).toMatchObject({ code, error_message: expect.any(String) });
}

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme', {
    users: {
      agent: ['agent'],
      supervisor: ['supervisor'],
      manager: ['manager'],
      admin: ['admin'],
      owner: ['owner'],
      campaigns: ['campaign_manager'],
      tenants: ['tenant_admin'],
      admin2: ['admin'],
      kicked: ['agent'],
    },
  });
  for (const who of [...Object.values(USERS), 'admin2', 'kicked']) token[who] = await t.login(`${who}@acme.test`);
});
afterAll(() => t.close());

describe('the role matrix (one table in @atende/core)', () => {
  it('prints the table', () => {
    const rows = Object.fromEntries(
      PERMISSION_NAMES.map((name) => {
        const p = PERMISSIONS[name];
        const cells = Object.fromEntries(ROLES.map((role) => [role, allows([role], name) ? '✓' : '·']));
        return [name, { ...cells, flag: 'flag' in p ? p.flag : '', spec: p.spec }];
      }),
    );
    // The printed matrix is the point of this test ("a test prints" it).
    // eslint-disable-next-line no-console
    console.table(rows);
    expect(Object.keys(rows)).toEqual(PERMISSION_NAMES);
  });

  it('answers 403 forbidden to exactly the roles the table leaves out, for every capability', async () => {
    const mismatches: string[] = [];
    for (const name of PERMISSION_NAMES) {
      const probe = PROBES[name];
      if (!probe) continue;
      for (const role of ROLES) {
        const res = await call(USERS[role], probe);
        expect(res.status, `${name} as ${role}: no 5xx`).toBeLessThan(500);
        const refused = res.status === 403 && res.body.code === 'forbidden';
        if (refused === allows([role], name))
          mismatches.push(`${name} as ${role}: ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
        if (refused) expect(res.body.error_message, `${name} as ${role}`).toEqual(expect.any(String));
      }
    }
    expect(mismatches).toEqual([]);
  });
});

describe('the cases an audit found', () => {
  it('refuses contact-book edits to tenant_admin, and to campaign_manager except adding a contact (DND)', async () => {
    expect(allows(['tenant_admin'], 'contacts.create')).toBe(false);
    expect(allows(['campaign_manager'], 'contacts.update')).toBe(false);
    const contact = await t.http
      .post('/api/v1/contacts')
      .set(as('agent'))
      .send({ name: 'Maria', phone1: '+5511987654321', organization: 'Padaria' });
    expect(contact.status).toBeLessThan(300);
    const id = contact.body.data.uuid as string;
    expectForbidden(
      await t.http.post('/api/v1/contacts').set(as('tenants')).send({ name: 'Intruder', phone1: '+5511987650000', organization: 'X' }),
      'tenant_admin create',
    );
    expectForbidden(await t.http.patch(`/api/v1/contacts/${id}`).set(as('tenants')).send({ name: 'Renamed' }), 'tenant_admin update');
    expectForbidden(await t.http.delete(`/api/v1/contacts/${id}`).set(as('tenants')), 'tenant_admin delete');
    expectForbidden(await t.http.get('/api/v1/contacts').set(as('tenants')), 'tenant_admin list');
    expectForbidden(await t.http.patch(`/api/v1/contacts/${id}`).set(as('campaigns')).send({ name: 'Renamed' }), 'campaign_manager update');
    expectForbidden(await t.http.delete(`/api/v1/contacts/${id}`).set(as('campaigns')), 'campaign_manager delete');
    expect(
      (await t.http.post('/api/v1/contacts').set(as('campaigns')).send({ name: 'DND person', phone1: '+5511987651111', organization: 'Y' }))
        .status,
    ).toBeLessThan(300);
    const row = await t.database.db.contact.findUniqueOrThrow({ where: { id } });
    expect(row.name).toBe('Maria');
    expect(await t.database.db.contact.count({ where: { tenantId: acme.tenantId, name: 'Intruder' } })).toBe(0);
    // Those the spec gives the contact book still edit it.
    expect((await t.http.patch(`/api/v1/contacts/${id}`).set(as('agent')).send({ name: 'Maria S.' })).status).toBe(200);
    expect((await t.http.patch(`/api/v1/contacts/${id}`).set(as('supervisor')).send({ name: 'Maria Silva' })).status).toBe(200);
  });

  it('refuses an admin forcing the owner offline; the owner stays signed in', async () => {
    expectForbidden(
      await t.http.patch(`/api/v1/users/${acme.users.owner!.uuid}`).set(as('admin')).send({ state: 'offline' }),
      'admin -> owner',
      'owner_sign_off_owner_only',
    );
    expect((await t.http.get('/api/v1/users/me').set(as('owner'))).status).toBe(200);
    const owner = await t.database.db.user.findUniqueOrThrow({ where: { id: acme.users.owner!.id } });
    expect(owner.isLogged).toBe(true);
    // What stays allowed: an admin ends an agent's session, an owner an admin's.
    expect((await t.http.patch(`/api/v1/users/${acme.users.kicked!.uuid}`).set(as('admin')).send({ state: 'offline' })).status).toBe(200);
    expect((await t.http.patch(`/api/v1/users/${acme.users.admin2!.uuid}`).set(as('owner')).send({ state: 'offline' })).status).toBe(200);
    expect((await t.http.get('/api/v1/users/me').set(as('admin2'))).status).toBe(401);
  });

  it('lets a supervisor read every settings screen the admin area shows them (the channel screen lists bots)', async () => {
    const reads = [
      '/api/v1/pauses',
      '/api/v1/sectors',
      '/api/v1/surveys',
      '/api/v1/actions',
      '/api/v1/automated-menus',
      '/api/v1/workspaces/me',
      '/api/v1/workspaces/me/opening_hours',
      '/api/v1/workspaces/me/canned_responses',
      '/api/v1/workspaces/me/canned_response_categories',
      '/api/v1/conversations/fields',
      '/api/v1/channels',
      '/api/v1/bots',
    ];
    for (const path of reads) expect((await t.http.get(path).set(as('supervisor'))).status, path).toBe(200);
    // and still not the admin-only ones (integrations, bots editing, conversation reasons).
    expectForbidden(await t.http.get('/api/v1/workspaces/me/integrations').set(as('supervisor')), 'integrations');
    expectForbidden(await t.http.post('/api/v1/bots').set(as('supervisor')).send({}), 'bots write');
    expectForbidden(await t.http.post('/api/v1/conversation/reasons').set(as('supervisor')).send({}), 'reasons write');
  });

  it('keeps a manager out of campaigns (the stricter reading of the role rules)', async () => {
    expectForbidden(await t.http.get('/api/v1/campaign').set(as('manager')), 'manager campaigns');
    expectForbidden(await t.http.get('/api/v1/dnd').set(as('manager')), 'manager dnd');
    for (const who of ['campaigns', 'admin', 'owner']) expect((await t.http.get('/api/v1/campaign').set(as(who))).status, who).toBe(200);
  });
});
