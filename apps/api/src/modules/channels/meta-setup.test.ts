import { decryptCredentials, parseSecretsKey } from '@atende/channels';
import { startMetaSimulator, type MetaSimulator } from '@atende/simulators/meta';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';
import { META_SETUP_STATE_TTL_MS, signMetaSetupState } from './meta-setup-state';

/**
 * The /messenger-setup and /instagram-setup flow against the Meta
 * simulator playing the login: the dialog, the code exchange, /me/accounts (two pages, one linked
 * to Instagram), subscribed_apps, and the channel made from the chosen page.
 */
const PAGE = '100300400500';
const OUTLET = String(BigInt(PAGE) + 1n);
const PAGE_TOKEN = 'EAAsetup-page-token';
const APP = { id: '990001', secret: 'setup-app-secret', verify: 'setup-verify-token' };
let sim: MetaSimulator;
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let admin: string;
let otherAdmin: string;
const as = (token: string) => ({ Authorization: `Bearer ${token}` });

beforeAll(async () => {
  sim = await startMetaSimulator({ object: 'page', pageId: PAGE, pageToken: PAGE_TOKEN, appSecret: APP.secret, login: { appId: APP.id } });
  t = await startTestApp({
    OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
    META_APP_ID: APP.id,
    META_APP_SECRET: APP.secret,
    META_VERIFY_TOKEN: APP.verify,
    META_GRAPH_URL: sim.baseUrl,
    META_DIALOG_URL: sim.baseUrl,
  });
  acme = await t.tenant('Acme', { users: { admin: ['admin'], boss: ['admin'], agent: ['agent'] } });
  await t.tenant('Other', { users: { admin: ['admin'] } });
  admin = await t.login('admin@acme.test');
  otherAdmin = await t.login('admin@other.test');
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

const start = (token: string, kind: 'messenger' | 'instagram' = 'messenger') =>
  t.http.post('/api/v1/channels/meta_setup/start').set(as(token)).send({ kind });
/** What the browser does at the dialog: follows "Continue as …" (or "Cancel") back to redirect_uri. */
async function dialog(url: string, choice: 'continue' | 'cancel' = 'continue'): Promise<URL> {
  const html = await (await fetch(url)).text();
  const href = new RegExp(`id="${choice}" href="([^"]+)"`).exec(html)![1]!.replace(/&#38;/g, '&');
  return new URL(href);
}
/** Start, the dialog, the exchange: the state and the pages answer. */
async function login(token: string, kind: 'messenger' | 'instagram' = 'messenger') {
  const started = await start(token, kind);
  expect(started.status).toBe(200);
  const back = await dialog(started.body.data.dialog_url);
  const pages = await t.http
    .post('/api/v1/channels/meta_setup/pages')
    .set(as(token))
    .send({ state: back.searchParams.get('state'), code: back.searchParams.get('code') });
  return { state: started.body.data.state as string, code: back.searchParams.get('code')!, pages };
}

describe('Meta channel setup', () => {
  it('starts with the dialog address: our app, the setup screen as redirect_uri, the permissions and a state; only for channel admins', async () => {
    const started = await start(admin);
    expect(started.status).toBe(200);
    const url = new URL(started.body.data.dialog_url);
    expect(url.origin + url.pathname).toBe(`${sim.baseUrl}/v21.0/dialog/oauth`);
    expect(url.searchParams.get('client_id')).toBe(APP.id);
    expect(url.searchParams.get('redirect_uri')).toBe(`${t.url}/messenger-setup`);
    expect(url.searchParams.get('scope')).toContain('pages_messaging');
    expect(url.searchParams.get('state')).toBe(started.body.data.state);
    expect((await start(await t.login('agent@acme.test'))).status).toBe(403);
    const instagram = new URL((await start(admin, 'instagram')).body.data.dialog_url);
    expect(instagram.searchParams.get('redirect_uri')).toBe(`${t.url}/instagram-setup`);
    expect(instagram.searchParams.get('scope')).toContain('instagram_manage_messages');
  });

  it("refuses a forged, expired or another user's state with meta_setup_state_invalid", async () => {
    const { state } = (await start(admin)).body.data as { state: string };
    const pages = (s: string, token = admin) =>
      t.http.post('/api/v1/channels/meta_setup/pages').set(as(token)).send({ state: s, code: 'AQany' });
    // The state is a JWT: header.payload.signature. A payload naming another tenant under the same
    // signature, a wrong signature, and something else altogether.
    const [header, payload, signature] = state.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), t: 'another-tenant' }),
    ).toString('base64url');
    for (const bad of [`${header}.${forged}.${signature}`, `${header}.${payload}.${'A'.repeat(signature!.length)}`, 'garbage']) {
      const answer = await pages(bad);
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('meta_setup_state_invalid');
    }
    const me = acme.users.admin!;
    const expired = signMetaSetupState(
      { tenantId: acme.tenantId, workspaceId: acme.workspaceId, userUuid: me.uuid },
      'messenger',
      t.env.JWT_SECRET,
      Date.now() - META_SETUP_STATE_TTL_MS - 1000,
    );
    expect((await pages(expired)).body.code).toBe('meta_setup_state_invalid');
    // Another admin of the same tenant cannot use it either: the state names its user.
    expect((await pages(state, await t.login('boss@acme.test'))).body.code).toBe('meta_setup_state_invalid');
  });

  it('answers meta_login_refused when Meta refuses the code, and Cancel at the dialog comes back with access_denied', async () => {
    const { state, dialog_url: url } = (await start(admin)).body.data as { state: string; dialog_url: string };
    const refused = await t.http.post('/api/v1/channels/meta_setup/pages').set(as(admin)).send({ state, code: 'AQnot-a-code-meta-gave' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('meta_login_refused');
    const cancelled = await dialog(url, 'cancel');
    expect(cancelled.searchParams.get('error')).toBe('access_denied');
    expect(cancelled.searchParams.get('state')).toBe(state);
  });

  it('lists both pages for Messenger and only the Instagram-linked one for Instagram, with no token; a reload answers the same', async () => {
    const messenger = await login(admin);
    expect(messenger.pages.status).toBe(200);
    expect(messenger.pages.body.data).toEqual({
      kind: 'messenger',
      pages: [
        { id: PAGE, name: 'Atende Demo', instagram_username: 'atende.demo', channel: null },
        { id: OUTLET, name: 'Atende Outlet', instagram_username: null, channel: null },
      ],
    });
    expect(JSON.stringify(messenger.pages.body)).not.toContain(PAGE_TOKEN);
    // The screen reloaded with the same (already used) code: the kept login answers.
    const again = await t.http
      .post('/api/v1/channels/meta_setup/pages')
      .set(as(admin))
      .send({ state: messenger.state, code: messenger.code });
    expect(again.body.data.pages).toHaveLength(2);
    const instagram = await login(admin, 'instagram');
    expect(instagram.pages.body.data.pages.map((p: { id: string }) => p.id)).toEqual([PAGE]);
    // Connected, the Instagram channel keeps the account's id: the app's webhooks name it.
    const connected = await t.http
      .post('/api/v1/channels/meta_setup/connect')
      .set(as(admin))
      .send({ state: instagram.state, page_id: PAGE });
    expect(connected.status).toBe(200);
    expect(connected.body.data).toMatchObject({
      type: 'instagram',
      name: '@atende.demo',
      settings: { page_id: PAGE, instagram_account_id: expect.stringMatching(/^1784\d+$/) },
    });
    await t.database.db.channel.update({ where: { id: connected.body.data.uuid }, data: { deletedAt: new Date() } });
  });

  let channelId = '';
  it('connects the chosen page: the channel is created with the page token encrypted and never returned, and the page subscribed', async () => {
    const { state } = await login(admin);
    const notListed = await t.http.post('/api/v1/channels/meta_setup/connect').set(as(admin)).send({ state, page_id: '123' });
    expect(notListed.status).toBe(400);
    const connected = await t.http
      .post('/api/v1/channels/meta_setup/connect')
      .set(as(admin))
      .send({ state, page_id: PAGE, entry_point: acme.sectors[0]!.id, entry_point_type: 'sector' });
    expect(connected.status).toBe(200);
    expect(connected.body).toMatchObject({
      created: true,
      data: {
        name: 'Atende Demo',
        type: 'messenger',
        settings: { page_id: PAGE, base_url: sim.baseUrl },
        entry_point: { uuid: acme.sectors[0]!.id, type: 'sector' },
      },
    });
    expect(JSON.stringify(connected.body)).not.toContain(PAGE_TOKEN);
    expect([...connected.body.data.credentials_set].sort()).toEqual(['access_token', 'app_secret', 'verify_token']);
    channelId = connected.body.data.uuid;
    const row = await t.database.db.channel.findUniqueOrThrow({ where: { id: channelId } });
    expect(row.credentialsEncrypted).not.toContain(PAGE_TOKEN);
    expect(decryptCredentials(row.credentialsEncrypted!, parseSecretsKey(t.env.CHANNEL_SECRETS_KEY))).toMatchObject({
      access_token: PAGE_TOKEN,
      app_secret: APP.secret,
      verify_token: APP.verify,
    });
    expect(sim.subscribed()).toEqual([PAGE]);

    // The channel works: the app's webhook (set with the configured verify token) delivers a contact's message.
    await fetch(`${sim.baseUrl}/_simulator/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${t.url}/api/v1/channels/${channelId}/webhook`, verify_token: APP.verify }),
    });
    expect((await sim.sendInbound({ from: { id: '7000333', firstName: 'Ana' }, text: 'oi' })).status).toBe(200);
  });

  it('connecting the page again updates its channel instead of making a second one', async () => {
    const { state, pages } = await login(admin);
    expect(pages.body.data.pages[0].channel).toEqual({ uuid: channelId, name: 'Atende Demo' });
    await t.http.patch(`/api/v1/channels/${channelId}`).set(as(admin)).send({ name: 'Renamed' });
    const again = await t.http.post('/api/v1/channels/meta_setup/connect').set(as(admin)).send({ state, page_id: PAGE });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      created: false,
      data: { uuid: channelId, name: 'Renamed', entry_point: { uuid: acme.sectors[0]!.id } },
    });
    expect(await t.database.db.channel.count({ where: { tenantId: acme.tenantId, type: 'messenger', deletedAt: null } })).toBe(1);
  });

  it("refuses a page another customer's channel has with channel_identity_taken, by the setup or the form, creating nothing", async () => {
    const { state } = await login(otherAdmin);
    const taken = await t.http.post('/api/v1/channels/meta_setup/connect').set(as(otherAdmin)).send({ state, page_id: PAGE });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({
      code: 'channel_identity_taken',
      error_message: 'This page, account, number or bot is already connected to another channel',
    });
    // The channel form (no login at all) is refused the same way.
    const form = await t.http.post('/api/v1/channels').set(as(otherAdmin)).type('form').send({
      name: 'Not mine',
      type: 'messenger',
      page_id: PAGE,
      access_token: 'EAAx',
      app_secret: 's',
      verify_token: 'v',
      base_url: sim.baseUrl,
    });
    expect(form.status).toBe(409);
    expect(form.body.code).toBe('channel_identity_taken');
    expect(await t.database.db.channel.count({ where: { type: 'messenger', config: { path: ['page_id'], equals: PAGE } } })).toBe(1);
    // The other page is free.
    const outlet = await t.http.post('/api/v1/channels/meta_setup/connect').set(as(otherAdmin)).send({ state, page_id: OUTLET });
    expect(outlet.body).toMatchObject({ created: true, data: { name: 'Atende Outlet' } });
  });

  it('answers meta_setup_not_configured on a server without a Meta app', async () => {
    const bare = await startTestApp({ OUTBOUND_ALLOW_HOSTS: '127.0.0.1' }, { shareWith: t });
    try {
      const answer = await bare.http.post('/api/v1/channels/meta_setup/start').set(as(admin)).send({ kind: 'messenger' });
      expect(answer.status).toBe(422);
      expect(answer.body.code).toBe('meta_setup_not_configured');
    } finally {
      await bare.close();
    }
  });
});
