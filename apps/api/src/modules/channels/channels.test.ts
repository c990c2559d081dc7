import { decryptCredentials, parseSecretsKey } from '@atende/channels';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp({ PUBLIC_URL: 'https://atende.example' });
  acme = await t.tenant('Acme', { users: { agent: ['agent'], admin: ['admin'], campaigns: ['campaign_manager'] } });
  await t.tenant('Other', { users: { admin: ['admin'] } });
  for (const name of ['agent', 'admin', 'campaigns']) tokens[name] = await t.login(`${name}@acme.test`);
  tokens.outsider = await t.login('admin@other.test');
});
afterAll(() => t.close());
const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });

const cloudForm = {
  name: 'WhatsApp Cloud',
  type: 'whatsapp_cloud',
  phone_number_id: '1055',
  waba_id: '2077',
  access_token: 'EAAG-secret',
  app_secret: 'app-secret',
  verify_token: 'verify-me',
};

describe('channels api', () => {
  it('creates a WhatsApp channel form-encoded, stores credentials encrypted and never returns them', async () => {
    const created = await t.http
      .post('/api/v1/channels')
      .set(auth('admin'))
      .type('form')
      .send({ ...cloudForm, entry_point: acme.sectors[0]!.id, template_required_on_outbound_start: 'true' });
    expect(created.status).toBe(201);
    const channel = created.body.data;
    expect(channel).toMatchObject({
      name: 'WhatsApp Cloud',
      type: 'whatsapp_cloud',
      enabled: true,
      template_required_on_outbound_start: true,
      entry_point: { uuid: acme.sectors[0]!.id, type: 'sector' },
      settings: { phone_number_id: '1055', waba_id: '2077' },
      credentials_set: ['access_token', 'app_secret', 'verify_token'],
      api_version: null,
      webhook_url: `https://atende.example/api/v1/channels/${channel.uuid}/webhook`,
    });
    expect(JSON.stringify(created.body)).not.toMatch(/EAAG-secret|app-secret|verify-me/);
    const row = await t.database.db.channel.findUniqueOrThrow({ where: { id: channel.uuid } });
    expect(row.credentialsEncrypted).not.toContain('EAAG-secret');
    expect(decryptCredentials(row.credentialsEncrypted!, parseSecretsKey(t.env.CHANNEL_SECRETS_KEY))).toEqual({
      access_token: 'EAAG-secret',
      app_secret: 'app-secret',
      verify_token: 'verify-me',
    });
    const got = await t.http.get(`/api/v1/channels/${channel.uuid}`).set(auth('agent'));
    expect(got.status).toBe(200);
    expect(JSON.stringify(got.body)).not.toMatch(/EAAG-secret|app-secret|verify-me/);
  });

  it('refuses incomplete or invalid channels with the field named, and non-admins', async () => {
    const missing = await t.http
      .post('/api/v1/channels')
      .set(auth('admin'))
      .type('form')
      .send({ name: 'X', type: 'whatsapp_cloud', phone_number_id: '1' });
    expect(missing.status).toBe(400);
    expect(missing.body.error_message).toContain('waba_id');
    const badType = await t.http.post('/api/v1/channels').set(auth('admin')).type('form').send({ name: 'X', type: 'fax' });
    expect(badType.status).toBe(400);
    const unsupported = await t.http.post('/api/v1/channels').set(auth('admin')).type('form').send({ name: 'X', type: 'whatsapp_lion' });
    expect(unsupported.status).toBe(400);
    expect(unsupported.body.error_message).toBe('This channel type cannot be created yet');
    const badUrl = await t.http
      .post('/api/v1/channels')
      .set(auth('admin'))
      .type('form')
      .send({ ...cloudForm, base_url: 'file:///etc/passwd' });
    expect(badUrl.status).toBe(400);
    const badSector = await t.http
      .post('/api/v1/channels')
      .set(auth('admin'))
      .type('form')
      .send({ ...cloudForm, entry_point: '00000000-0000-4000-8000-000000000000' });
    expect(badSector.status).toBe(400);
    expect((await t.http.post('/api/v1/channels').set(auth('agent')).type('form').send(cloudForm)).status).toBe(403);
    expect((await t.http.post('/api/v1/channels').set(auth('campaigns')).type('form').send(cloudForm)).status).toBe(403);
    expect(await t.database.db.channel.count({ where: { tenantId: acme.tenantId } })).toBe(1);
  });

  it('refuses at save time a webhook_url or base_url on loopback, private or metadata addresses', async () => {
    const refused = (res: { status: number; body: { code?: string; error_message?: string } }) => {
      expect([res.status, res.body.code]).toEqual([400, 'outbound_address_not_allowed']);
      expect(res.body.error_message).toBe('This address is not allowed: it points to this server or a private network');
    };
    const before = await t.database.db.channel.count({ where: { tenantId: acme.tenantId } });
    for (const host of [
      '127.0.0.1',
      '[::1]',
      '0.0.0.0',
      '2130706433',
      '0x7f000001',
      '169.254.169.254',
      '[::ffff:127.0.0.1]',
      '[::7f00:1]',
      'localhost',
      '10.0.0.8',
    ]) {
      refused(
        await t.http
          .post('/api/v1/channels')
          .set(auth('admin'))
          .type('form')
          .send({ name: 'Hook', type: 'custom', webhook_url: `http://${host}:8080/hook` }),
      );
      refused(
        await t.http
          .post('/api/v1/channels')
          .set(auth('admin'))
          .type('form')
          .send({ ...cloudForm, base_url: `http://${host}/graph` }),
      );
    }
    expect(await t.database.db.channel.count({ where: { tenantId: acme.tenantId } })).toBe(before);
    const custom = await t.http
      .post('/api/v1/channels')
      .set(auth('admin'))
      .type('form')
      .send({ name: 'Hook', type: 'custom', webhook_url: 'https://8.8.8.8/hook' });
    expect(custom.status).toBe(201);
    refused(
      await t.http
        .patch(`/api/v1/channels/${custom.body.data.uuid}`)
        .set(auth('admin'))
        .send({ settings: { webhook_url: 'http://169.254.169.254/latest/meta-data/' } }),
    );
    expect((await t.database.db.channel.findUniqueOrThrow({ where: { id: custom.body.data.uuid } })).config).toMatchObject({
      webhook_url: 'https://8.8.8.8/hook',
    });
    expect(
      (
        await t.http
          .patch(`/api/v1/channels/${custom.body.data.uuid}`)
          .set(auth('admin'))
          .send({ settings: { webhook_url: 'https://1.1.1.1/hook' } })
      ).status,
    ).toBe(200);
    await t.http.delete(`/api/v1/channels/${custom.body.data.uuid}`).set(auth('admin'));
  });

  it('accepts a local address listed in OUTBOUND_ALLOW_HOSTS', async () => {
    const local = await startTestApp({ OUTBOUND_ALLOW_HOSTS: '127.0.0.1,localhost' }, { shareWith: t });
    try {
      const res = await local.http
        .post('/api/v1/channels')
        .set(auth('admin'))
        .type('form')
        .send({ name: 'Local hook', type: 'custom', webhook_url: 'http://localhost:8080/hook' });
      expect(res.status).toBe(201);
      expect(
        (
          await local.http
            .post('/api/v1/channels')
            .set(auth('admin'))
            .type('form')
            .send({ name: 'Meta', type: 'custom', webhook_url: 'http://169.254.169.254/' })
        ).body.code,
      ).toBe('outbound_address_not_allowed');
      await local.http.delete(`/api/v1/channels/${res.body.data.uuid}`).set(auth('admin'));
    } finally {
      await local.close();
    }
  });

  it('generates the 360dialog webhook token and shows it once; update_to_cloud_api moves it to the Cloud API', async () => {
    const created = await t.http
      .post('/api/v1/channels')
      .set(auth('admin'))
      .type('form')
      .send({ name: '360', type: 'whatsapp_360dialog', api_key: 'k-360' });
    expect(created.status).toBe(201);
    expect(created.body.inbound_token).toMatch(/^[\w-]{20,}$/);
    expect(created.body.data).toMatchObject({ api_version: 'onpremise', credentials_set: ['api_key', 'webhook_secret'] });
    const id = created.body.data.uuid;
    const moved = await t.http.post(`/api/v1/channels/${id}/update_to_cloud_api`).set(auth('admin')).send({});
    expect(moved.status).toBe(200);
    expect(moved.body.data.api_version).toBe('cloud');
    expect((await t.http.post(`/api/v1/channels/${id}/update_to_cloud_api`).set(auth('admin')).send({})).body.data.api_version).toBe(
      'cloud',
    );
    const cloud = (await t.http.get('/api/v1/channels?type=whatsapp_cloud').set(auth('admin'))).body.data[0];
    const refused = await t.http.post(`/api/v1/channels/${cloud.uuid}/update_to_cloud_api`).set(auth('admin')).send({});
    expect(refused.status).toBe(422);
  });

  it('edits name, flags, settings and credentials without losing the ones not given', async () => {
    const cloud = (await t.http.get('/api/v1/channels?type=whatsapp_cloud').set(auth('admin'))).body.data[0];
    const edited = await t.http
      .patch(`/api/v1/channels/${cloud.uuid}`)
      .set(auth('admin'))
      .send({ name: 'Cloud 2', enabled: false, entry_point: null, credentials: { access_token: 'EAAG-new' } });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({
      name: 'Cloud 2',
      enabled: false,
      entry_point: null,
      credentials_set: ['access_token', 'app_secret', 'verify_token'],
    });
    const row = await t.database.db.channel.findUniqueOrThrow({ where: { id: cloud.uuid } });
    expect(decryptCredentials(row.credentialsEncrypted!, parseSecretsKey(t.env.CHANNEL_SECRETS_KEY))).toMatchObject({
      access_token: 'EAAG-new',
      app_secret: 'app-secret',
    });
    const removing = await t.http
      .patch(`/api/v1/channels/${cloud.uuid}`)
      .set(auth('admin'))
      .send({ settings: { waba_id: '' } });
    expect(removing.status).toBe(400);
    expect((await t.http.patch(`/api/v1/channels/${cloud.uuid}`).set(auth('admin')).send({ secret: 'x' })).status).toBe(400);
    expect((await t.http.get(`/api/v1/channels/${cloud.uuid}`).set(auth('admin'))).body.data.settings.waba_id).toBe('2077');
  });

  it('lists the workspace channels (all with _limit=0, filtered by type and enabled), never another tenant’s', async () => {
    const all = await t.http.get('/api/v1/channels?_limit=0').set(auth('agent'));
    expect(all.status).toBe(200);
    expect(all.body.pagination.total).toBe(2);
    expect(all.body.data.map((c: { name: string }) => c.name)).toEqual(['360', 'Cloud 2']);
    expect((await t.http.get('/api/v1/channels?enabled=false').set(auth('agent'))).body.data.map((c: { name: string }) => c.name)).toEqual([
      'Cloud 2',
    ]);
    expect((await t.http.get('/api/v1/channels?_limit=1&_offset=1').set(auth('agent'))).body.data).toHaveLength(1);
    expect((await t.http.get('/api/v1/channels').set(auth('outsider'))).body.data).toEqual([]);
    expect((await t.http.get(`/api/v1/channels/${all.body.data[0].uuid}`).set(auth('outsider'))).status).toBe(404);
    expect((await t.http.patch(`/api/v1/channels/${all.body.data[0].uuid}`).set(auth('outsider')).send({ name: 'mine' })).status).toBe(404);
  });

  it('deletes a channel softly', async () => {
    const [first] = (await t.http.get('/api/v1/channels').set(auth('admin'))).body.data;
    expect((await t.http.delete(`/api/v1/channels/${first.uuid}`).set(auth('admin'))).status).toBe(200);
    expect((await t.http.get(`/api/v1/channels/${first.uuid}`).set(auth('admin'))).status).toBe(404);
    expect(await t.database.db.channel.count({ where: { id: first.uuid } })).toBe(1);
  });
});
