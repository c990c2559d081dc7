import { DEFAULT_LIVECHAT_APPEARANCE, type LivechatAppearance } from '@atende/contract';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
const tokens: Record<string, string> = {};
let channelId = '';

beforeAll(async () => {
  t = await startTestApp({ PUBLIC_URL: 'https://atende.example', LOGIN_MAX_ATTEMPTS_PER_IP: '1000' });
  acme = await t.tenant('Acme', { users: { agent: ['agent'], admin: ['admin'] } });
  await t.tenant('Other', { users: { admin: ['admin'] } });
  for (const name of ['agent', 'admin']) tokens[name] = await t.login(`${name}@acme.test`);
  tokens.outsider = await t.login('admin@other.test');
});
afterAll(() => t.close());
const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });
const visitor = (token: string) => ({ Authorization: `Bearer ${token}` });

const appearance: LivechatAppearance = {
  theme_data: { primary_color: '#112233', text_color: '#ffffff', background_color: '#fafafa' },
  widget_settings: {
    title: 'Fale conosco',
    logo: 'https://cdn.example/logo.png',
    avatar: null,
    background_image: null,
    audio_recording_allowed: true,
  },
  custom_fields: [
    {
      key: 'cpf',
      label: 'CPF',
      required: true,
      max_length: 14,
      validator: '\\d{3}\\.\\d{3}\\.\\d{3}-\\d{2}',
      validator_message: 'Use o formato 000.000.000-00',
    },
    { key: 'pedido', label: 'Pedido', required: false, max_length: 5, validator: null, validator_message: null },
  ],
};

async function startSession(body: Record<string, unknown>, id = channelId) {
  return t.http.post(`/api/v1/livechat/${id}/sessions`).send(body);
}

describe('livechat channel and appearance', () => {
  it('creates a livechat channel with a default appearance', async () => {
    const created = await t.http
      .post('/api/v1/channels')
      .set(auth('admin'))
      .type('form')
      .send({ name: 'Site', type: 'livechat', entry_point: acme.sectors[0]!.id });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      type: 'livechat',
      webhook_url: null,
      appearance: { ...DEFAULT_LIVECHAT_APPEARANCE, widget_settings: { ...DEFAULT_LIVECHAT_APPEARANCE.widget_settings, title: 'Site' } },
    });
    channelId = created.body.data.uuid;
  });

  it('saves a valid appearance in the channel config', async () => {
    const res = await t.http.patch(`/api/v1/channels/${channelId}`).set(auth('admin')).send({ appearance });
    expect(res.status).toBe(200);
    expect(res.body.data.appearance).toEqual(appearance);
    const row = await t.database.db.channel.findUniqueOrThrow({ where: { id: channelId } });
    expect(row.config).toMatchObject({
      theme_data: appearance.theme_data,
      widget_settings: appearance.widget_settings,
      custom_fields: appearance.custom_fields,
    });
  });

  it('refuses each bad appearance with 400, the message and the field, and keeps the stored one', async () => {
    const field = appearance.custom_fields[0]!;
    const cases: [string, LivechatAppearance, string][] = [
      ['colour', { ...appearance, theme_data: { ...appearance.theme_data, primary_color: 'red' } }, 'theme_data.primary_color'],
      [
        'short colour',
        { ...appearance, theme_data: { ...appearance.theme_data, background_color: '#fff' } },
        'theme_data.background_color',
      ],
      ['empty title', { ...appearance, widget_settings: { ...appearance.widget_settings, title: ' ' } }, 'widget_settings.title'],
      ['long title', { ...appearance, widget_settings: { ...appearance.widget_settings, title: 'x'.repeat(61) } }, 'widget_settings.title'],
      [
        'http logo',
        { ...appearance, widget_settings: { ...appearance.widget_settings, logo: 'http://cdn.example/a.png' } },
        'widget_settings.logo',
      ],
      ['key chars', { ...appearance, custom_fields: [{ ...field, key: 'c-p f' }] }, 'custom_fields.0.key'],
      ['duplicate key', { ...appearance, custom_fields: [field, { ...field, label: 'Outro' }] }, 'custom_fields.1.key'],
      ['no label', { ...appearance, custom_fields: [{ ...field, label: '' }] }, 'custom_fields.0.label'],
      ['max length 0', { ...appearance, custom_fields: [{ ...field, max_length: 0 }] }, 'custom_fields.0.max_length'],
      ['max length 2001', { ...appearance, custom_fields: [{ ...field, max_length: 2001 }] }, 'custom_fields.0.max_length'],
      ['bad regex', { ...appearance, custom_fields: [{ ...field, validator: '([a-z' }] }, 'custom_fields.0.validator'],
      ['long regex', { ...appearance, custom_fields: [{ ...field, validator: 'a'.repeat(201) }] }, 'custom_fields.0.validator'],
      ['back-reference (not RE2)', { ...appearance, custom_fields: [{ ...field, validator: '(a)\\1' }] }, 'custom_fields.0.validator'],
    ];
    for (const [name, bad, path] of cases) {
      const res = await t.http.patch(`/api/v1/channels/${channelId}`).set(auth('admin')).send({ appearance: bad });
      expect(res.status, name).toBe(400);
      expect(res.body.error_message, name).toEqual(expect.any(String));
      expect(res.body.fields.map((f: { path: string }) => f.path).join(' '), name).toContain(path);
    }
    const notAFile = await t.http
      .patch(`/api/v1/channels/${channelId}`)
      .set(auth('admin'))
      .send({
        appearance: { ...appearance, widget_settings: { ...appearance.widget_settings, avatar: '00000000-0000-4000-8000-000000000000' } },
      });
    expect(notAFile.status).toBe(400);
    expect(notAFile.body.fields).toEqual([
      { path: 'appearance.widget_settings.avatar', message: 'Use an uploaded image', code: 'uploaded_image_required' },
    ]);
    expect((await t.http.get(`/api/v1/channels/${channelId}`).set(auth('admin'))).body.data.appearance).toEqual(appearance);
  });

  it('accepts an uploaded image as logo and gives the widget a signed link to it', async () => {
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a0f1c7a20000000049454e44ae426082',
      'hex',
    );
    const up = await t.http
      .post('/api/v1/storage/files')
      .set(auth('admin'))
      .attach('file', png, { filename: 'logo.png', contentType: 'image/png' });
    expect(up.status).toBe(201);
    const fileId = up.body.data.data.uuid as string;
    const withFile = { ...appearance, widget_settings: { ...appearance.widget_settings, avatar: fileId } };
    expect((await t.http.patch(`/api/v1/channels/${channelId}`).set(auth('admin')).send({ appearance: withFile })).status).toBe(200);
    const config = await t.http.get(`/api/v1/livechat/${channelId}/config`);
    expect(config.status).toBe(200);
    expect(config.body.data.widget_settings.avatar_url).toMatch(
      new RegExp(`^https://atende\\.example/api/v1/storage/files/${fileId}/signed\\?`),
    );
    const signedPath = (config.body.data.widget_settings.avatar_url as string).replace('https://atende.example', '');
    expect((await t.http.get(signedPath)).status).toBe(200);
    // Another tenant's admin cannot point a channel at this file.
    expect((await t.http.patch(`/api/v1/channels/${channelId}`).set(auth('outsider')).send({ appearance: withFile })).status).toBe(404);
    await t.http.patch(`/api/v1/channels/${channelId}`).set(auth('admin')).send({ appearance });
  });

  it('refuses an appearance on other channel types and for non-admins', async () => {
    const custom = await t.http.post('/api/v1/channels').set(auth('admin')).type('form').send({ name: 'API', type: 'custom' });
    const res = await t.http.patch(`/api/v1/channels/${custom.body.data.uuid}`).set(auth('admin')).send({ appearance });
    expect(res.status).toBe(400);
    expect(res.body.error_message).toBe('Only livechat channels have an appearance');
    expect(custom.body.data.appearance).toBeNull();
    expect((await t.http.patch(`/api/v1/channels/${channelId}`).set(auth('agent')).send({ appearance })).status).toBe(403);
  });
});

describe('livechat public api', () => {
  let token = '';
  let conversationId = '';

  it('answers the appearance of an enabled livechat channel, without a session', async () => {
    const res = await t.http.get(`/api/v1/livechat/${channelId}/config`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      channel_uuid: channelId,
      theme_data: appearance.theme_data,
      widget_settings: { title: 'Fale conosco', logo_url: 'https://cdn.example/logo.png', avatar_url: null, audio_recording_allowed: true },
      custom_fields: appearance.custom_fields,
    });
  });

  it('answers 404 for a disabled channel, another type, a deleted one or an unknown id', async () => {
    const custom = (await t.http.get('/api/v1/channels?type=custom').set(auth('admin'))).body.data[0];
    expect((await t.http.get(`/api/v1/livechat/${custom.uuid}/config`)).status).toBe(404);
    expect((await t.http.get('/api/v1/livechat/00000000-0000-4000-8000-000000000000/config')).status).toBe(404);
    expect((await t.http.get('/api/v1/livechat/not-a-uuid/config')).status).toBe(400);
    await t.http.patch(`/api/v1/channels/${channelId}`).set(auth('admin')).send({ enabled: false });
    expect((await t.http.get(`/api/v1/livechat/${channelId}/config`)).status).toBe(404);
    expect((await startSession({ name: 'Ana', custom_fields: { cpf: '123.456.789-01' } })).status).toBe(404);
    await t.http.patch(`/api/v1/channels/${channelId}`).set(auth('admin')).send({ enabled: true });
    const gone = await t.http.post('/api/v1/channels').set(auth('admin')).type('form').send({ name: 'Old site', type: 'livechat' });
    await t.http.delete(`/api/v1/channels/${gone.body.data.uuid}`).set(auth('admin'));
    expect((await t.http.get(`/api/v1/livechat/${gone.body.data.uuid}/config`)).status).toBe(404);
  });

  it("refuses a session whose custom fields break the channel's rules, with each field's message", async () => {
    const missing = await startSession({ name: 'Ana', custom_fields: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      error_message: 'CPF is required',
      fields: [{ path: 'custom_fields.cpf', message: 'CPF is required', code: 'livechat_field_required', params: { label: 'CPF' } }],
    });
    // The field's own validator message is the admin's words: a code that shows it as written.
    const regex = await startSession({ name: 'Ana', custom_fields: { cpf: '12345678901' } });
    expect(regex.body).toMatchObject({
      error_message: 'Use o formato 000.000.000-00',
      fields: [
        {
          path: 'custom_fields.cpf',
          code: 'livechat_field_pattern_mismatch',
          params: { message: 'Use o formato 000.000.000-00' },
        },
      ],
    });
    const long = await startSession({ name: 'Ana', custom_fields: { cpf: '123.456.789-01', pedido: '123456' } });
    expect(long.body.fields).toEqual([
      {
        path: 'custom_fields.pedido',
        message: 'Pedido must have at most 5 characters',
        code: 'livechat_field_too_long',
        params: { label: 'Pedido', max: 5 },
      },
    ]);
    const unknown = await startSession({ name: 'Ana', custom_fields: { cpf: '123.456.789-01', x: '1' } });
    expect(unknown.body.fields).toEqual([{ path: 'custom_fields.x', message: 'Unknown field', code: 'custom_field_unknown' }]);
    const noName = await startSession({ name: '', custom_fields: { cpf: '123.456.789-01' } });
    expect(noName.status).toBe(400);
    const badEmail = await startSession({ name: 'Ana', email: 'nope', custom_fields: { cpf: '123.456.789-01' } });
    expect(badEmail.status).toBe(400);
    expect(await t.database.db.contact.count({ where: { tenantId: acme.tenantId } })).toBe(0);
  });

  // With a backtracking engine these validators and 2,000 characters held the api's
  // event loop (28 characters: 1.7 s for every tenant); RE2 answers at once, and rightly.
  it('runs admins’ validators in linear time: a catastrophic pattern on a 2,000-character value answers at once', async () => {
    const created = await t.http.post('/api/v1/channels').set(auth('admin')).type('form').send({ name: 'ReDoS', type: 'livechat' });
    const id = created.body.data.uuid as string;
    const evil = (validator: string) => ({
      ...appearance,
      custom_fields: [{ key: 'code', label: 'Code', required: true, max_length: 2000, validator, validator_message: 'Invalid code' }],
    });
    for (const pattern of ['((a+))+', '(a|a)*', '(a|aa)+', '(.*a){12}']) {
      expect(
        (
          await t.http
            .patch(`/api/v1/channels/${id}`)
            .set(auth('admin'))
            .send({ appearance: evil(pattern) })
        ).status,
        pattern,
      ).toBe(200);
      const [refused, health] = await Promise.all([
        startSession({ name: 'Eve', custom_fields: { code: `${'a'.repeat(1999)}!` } }, id),
        t.http.get('/api/health'),
      ]);
      expect(refused.status, pattern).toBe(400);
      expect(refused.body.error_message).toBe('Invalid code');
      expect(health.status).toBe(200);
    }
    expect((await startSession({ name: 'Eve', custom_fields: { code: 'a'.repeat(2000) } }, id)).status).toBe(201);
  });

  it('starts a session: the visitor is a contact known as livechat:<visitor id> with the custom field values', async () => {
    const res = await startSession({ name: 'Ana Site', email: 'Ana@Example.com', custom_fields: { cpf: '123.456.789-01', pedido: '' } });
    expect(res.status).toBe(201);
    token = res.body.data.visitor_token;
    const identity = await t.database.db.contactIdentity.findFirstOrThrow({ where: { channelId }, include: { contact: true } });
    expect(identity.identifier).toBe(`livechat:${res.body.data.visitor_id}`);
    expect(identity.contact).toMatchObject({ name: 'Ana Site', email: 'ana@example.com', livechatCustomFields: { cpf: '123.456.789-01' } });
    // The agent's customer panel names each answer by its field's label, not its key.
    const contact = await t.http.get(`/api/v1/contacts/${identity.contactId}`).set(auth('agent'));
    expect(contact.status).toBe(200);
    expect(contact.body.data).toMatchObject({
      livechat_custom_fields: { cpf: '123.456.789-01' },
      livechat_field_labels: { cpf: 'CPF', pedido: 'Pedido' },
    });
  });

  it("puts the visitor's message in the entry sector's queue like any channel's", async () => {
    const res = await t.http
      .post('/api/v1/livechat/messages')
      .set(visitor(token))
      .send({ id: 'w-1', content: 'Oi, preciso de ajuda', channel_uuid: channelId });
    expect(res.status).toBe(202);
    conversationId = res.body.data.conversation_uuid;
    const conv = await t.database.db.conversation.findUniqueOrThrow({ where: { id: conversationId } });
    expect(conv).toMatchObject({ state: 'waiting', channelId, sectorId: acme.sectors[0]!.id });
    const again = await t.http.post('/api/v1/livechat/messages').set(visitor(token)).send({ id: 'w-1', content: 'Oi, preciso de ajuda' });
    expect(again.body.data).toEqual(res.body.data);
    expect(await t.database.db.message.count({ where: { conversationId } })).toBe(1);
    expect(await t.database.db.conversationEvent.count({ where: { conversationId, type: 'enter-queue' } })).toBe(1);
  });

  it("shows the agent's reply in the visitor's list, never a note, and a held request returns when the reply arrives", async () => {
    const accepted = await t.http.patch('/api/v1/conversations').set(auth('agent')).send({ user_id: acme.users.agent!.id });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.uuid).toBe(conversationId);
    const first = await t.http.get('/api/v1/livechat/messages').set(visitor(token));
    expect(first.status).toBe(200);
    expect(first.body.data.map((m: { from: string; content: string }) => [m.from, m.content])).toEqual([
      ['visitor', 'Oi, preciso de ajuda'],
    ]);
    const after = first.body.data[0].created_at as string;
    // Nothing new: the request is held for the whole wait, then answers what the visitor already has.
    const quietStart = Date.now();
    const quiet = await t.http.get(`/api/v1/livechat/messages?after=${encodeURIComponent(after)}&wait=1`).set(visitor(token));
    expect(Date.now() - quietStart).toBeGreaterThanOrEqual(900);
    expect(quiet.body.data).toHaveLength(1);
    // Long polling: the request waits for the reply instead of answering at once.
    const started = Date.now();
    const held = t.http
      .get(`/api/v1/livechat/messages?after=${encodeURIComponent(after)}&wait=10`)
      .set(visitor(token))
      .then((r) => r);
    // The reply is sent while the request is held (past its first look), which is the scenario under test.
    await new Promise((r) => setTimeout(r, 600));
    await t.http
      .post(`/api/v1/conversations/${conversationId}/messages`)
      .set(auth('agent'))
      .send({ content: 'cliente VIP', internal: true });
    const reply = await t.http
      .post(`/api/v1/conversations/${conversationId}/messages`)
      .set(auth('agent'))
      .send({ content: 'Olá Ana, como posso ajudar?' });
    expect(reply.status).toBe(201);
    const res = await held;
    expect(Date.now() - started).toBeLessThan(5_000);
    const contents = res.body.data.map((m: { content: string }) => m.content);
    expect(contents).toContain('Olá Ana, como posso ajudar?');
    expect(contents).not.toContain('cliente VIP');
    const all = await t.http.get('/api/v1/livechat/messages').set(visitor(token));
    expect(
      all.body.data.map((m: { from: string; content: string; agent_name: string | null }) => [m.from, m.content, m.agent_name]),
    ).toEqual([
      ['visitor', 'Oi, preciso de ajuda', null],
      ['agent', 'Olá Ana, como posso ajudar?', 'Agent'],
    ]);
  });

  it("gives the visitor an agent's attachment as a signed link", async () => {
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a0f1c7a20000000049454e44ae426082',
      'hex',
    );
    const up = await t.http
      .post('/api/v1/storage/files')
      .set(auth('agent'))
      .attach('file', png, { filename: 'boleto.png', contentType: 'image/png' });
    expect(up.status).toBe(201);
    const sent = await t.http
      .post(`/api/v1/conversations/${conversationId}/messages`)
      .set(auth('agent'))
      .send({ annex_uuid: up.body.data.data.uuid });
    expect(sent.status).toBe(201);
    const list = await t.http.get('/api/v1/livechat/messages').set(visitor(token));
    const annex = list.body.data.at(-1).annex as { url: string; content_type: string; filename: string };
    expect(annex).toMatchObject({ content_type: 'image/png', filename: 'boleto.png' });
    expect(annex.url).toMatch(/^https:\/\/atende\.example\/api\/v1\/storage\/files\/[\w-]+\/signed\?/);
    expect((await t.http.get(annex.url.replace('https://atende.example', ''))).status).toBe(200);
  });

  it("takes the visitor's voice note where the appearance allows audio, stores it once and shows it to the agent", async () => {
    const webm = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(64, 1)]).toString('base64');
    const files = () => t.database.db.storedFile.count({ where: { tenantId: acme.tenantId } });
    const before = await files();
    const bad = [
      [{ id: 'v-x', file: 'not base64!', encoding: 'base64', content_type: 'audio/webm' }, 400],
      [{ id: 'v-x', file: Buffer.from('plain text, not audio').toString('base64'), encoding: 'base64', content_type: 'audio/webm' }, 415],
      [{ id: 'v-x', file: webm, encoding: 'base64', content_type: 'video/mp4' }, 400],
    ] as const;
    for (const [body, status] of bad)
      expect((await t.http.post('/api/v1/livechat/voice').set(visitor(token)).send(body)).status, JSON.stringify(body).slice(0, 60)).toBe(
        status,
      );
    expect(
      (await t.http.post('/api/v1/livechat/voice').send({ id: 'v-1', file: webm, encoding: 'base64', content_type: 'audio/webm' })).status,
    ).toBe(401);
    expect(await files()).toBe(before);

    const res = await t.http
      .post('/api/v1/livechat/voice')
      .set(visitor(token))
      .send({ id: 'v-1', file: webm, encoding: 'base64', content_type: 'audio/webm', channel_uuid: channelId });
    expect(res.status).toBe(202);
    expect(res.body.data.conversation_uuid).toBe(conversationId);
    const again = await t.http
      .post('/api/v1/livechat/voice')
      .set(visitor(token))
      .send({ id: 'v-1', file: webm, encoding: 'base64', content_type: 'audio/webm' });
    expect(again.body.data).toEqual(res.body.data);
    expect(await files()).toBe(before + 1);
    const messages = await t.http.get(`/api/v1/conversations/${conversationId}/messages`).set(auth('admin'));
    expect(messages.body.data.at(-1)).toMatchObject({
      uuid: res.body.data.message_uuid,
      author: 'CONTACT',
      annex: { content_type: 'audio/webm' },
    });
    const listed = await t.http.get('/api/v1/livechat/messages').set(visitor(token));
    expect(listed.body.data.at(-1)).toMatchObject({ from: 'visitor', annex: { content_type: 'audio/webm' } });

    // Audio turned off in the appearance: no more voice notes.
    await t.http
      .patch(`/api/v1/channels/${channelId}`)
      .set(auth('admin'))
      .send({ appearance: { ...appearance, widget_settings: { ...appearance.widget_settings, audio_recording_allowed: false } } });
    const off = await t.http
      .post('/api/v1/livechat/voice')
      .set(visitor(token))
      .send({ id: 'v-2', file: webm, encoding: 'base64', content_type: 'audio/webm' });
    expect(off.status).toBe(403);
    expect(off.body.error_message).toBe('Voice messages are not allowed in this chat');
    await t.http.patch(`/api/v1/channels/${channelId}`).set(auth('admin')).send({ appearance });
  });

  it('refuses calls without a valid visitor token of this channel (401)', async () => {
    const other = await t.http.post('/api/v1/channels').set(auth('admin')).type('form').send({ name: 'Site 2', type: 'livechat' });
    const otherToken = (await startSession({ name: 'Bia', custom_fields: {} }, other.body.data.uuid)).body.data.visitor_token as string;
    const crossed = await t.http.get(`/api/v1/livechat/messages?channel_uuid=${channelId}`).set(visitor(otherToken));
    expect(crossed.status).toBe(401);
    const crossedSend = await t.http
      .post('/api/v1/livechat/messages')
      .set(visitor(otherToken))
      .send({ id: 'x', content: 'oi', channel_uuid: channelId });
    expect(crossedSend.status).toBe(401);
    // Bia's own list is empty: Ana's conversation is not hers.
    expect((await t.http.get('/api/v1/livechat/messages').set(visitor(otherToken))).body.data).toEqual([]);
    expect((await t.http.get('/api/v1/livechat/messages')).status).toBe(401);
    const claims = jwt.decode(token) as Record<string, unknown>;
    const forged = jwt.sign({ ch: claims.ch, vid: claims.vid, tid: claims.tid }, 'x'.repeat(40), {
      audience: 'atende-livechat',
      issuer: 'atende-api',
    });
    expect((await t.http.get('/api/v1/livechat/messages').set(visitor(forged))).status).toBe(401);
    // A user's session token is not a visitor token, and a visitor token is not a session.
    expect((await t.http.get('/api/v1/livechat/messages').set(auth('agent'))).status).toBe(401);
    expect((await t.http.get('/api/v1/channels').set(visitor(token))).status).toBe(401);
  });
});

describe('livechat rate limits', () => {
  // Last in the file: it uses up this IP's session allowance.
  it('refuses a client IP that starts too many sessions with 429, before any work', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++)
      statuses.push((await startSession({ name: 'Spam', custom_fields: {} }, '00000000-0000-4000-8000-000000000000')).status);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((s) => s === 404).length).toBeLessThanOrEqual(30);
    expect((await t.http.get(`/api/v1/livechat/${channelId}/config`)).status).toBe(200);
  });
});
