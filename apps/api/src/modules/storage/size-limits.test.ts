import { request as httpRequest } from 'node:http';
import { queues, SUBSCRIBERS_FILE_MAX_BYTES, UPLOAD_MAX_BYTES } from '@atende/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
const tokens: Record<string, string> = {};
const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme', { users: { agent: ['agent'], admin: ['admin'], campaigns: ['campaign_manager'] } });
  for (const name of ['agent', 'admin', 'campaigns']) tokens[name] = await t.login(`${name}@acme.test`);
});
afterAll(() => t.close());

/** A 413 that says which limit was passed, with a code the web words in the user's language. */
const expectTooLarge = (res: { status: number; body: Record<string, unknown> }, maxBytes: number) => {
  expect(res.status, JSON.stringify(res.body)).toBe(413);
  expect(res.body).toMatchObject({ code: 'payload_too_large', params: { max_bytes: maxBytes, max_size: expect.any(String) } });
  expect(res.body.error_message).toEqual(expect.any(String));
};

/** A subscriber CSV of `rows` rows (about 30 bytes each). */
const subscriberCsv = (rows: number) => {
  const lines = ['name,phone,1'];
  for (let i = 0; i < rows; i++) lines.push(`Contato ${i},+55119${String(i).padStart(8, '0')},X${i}`);
  return Buffer.from(`${lines.join('\n')}\n`);
};

/**
 * Posts one multipart file over HTTP in two writes, the first ending exactly `cut` bytes into the
 * file, the way a proxy or a slow link may deliver it: the parser then meets the limit exactly at a
 * chunk's end, where it used to keep the first `cut` bytes and say nothing.
 */
function postFileInTwoWrites(path: string, token: string, file: Buffer, cut: number, filename: string, contentType: string) {
  const boundary = 'atende-size-limit-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    const req = httpRequest(`${t.url}${path}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': head.length + file.length + tail.length,
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') }));
    });
    // The server may answer (and close) before the second write: that answer is the one awaited.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error)));
    req.write(Buffer.concat([head, file.subarray(0, cut)]));
    setTimeout(() => req.end(Buffer.concat([file.subarray(cut), tail])), 300);
  });
}

describe('files over a size limit are refused, never cut', () => {
  it('refuses a 5.5 MB subscriber CSV of 180,000 rows with 413 and the limit, storing and queueing nothing', async () => {
    const db = t.database.db;
    const channel = (
      await db.channel.create({
        data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, name: 'WhatsApp', type: 'whatsapp_360dialog' },
      })
    ).id;
    const template = await db.outboundTemplate.create({
      data: {
        tenantId: acme.tenantId,
        channelId: channel,
        name: 'oferta',
        language: 'pt_BR',
        category: 'MARKETING',
        status: 'APPROVED',
        components: [{ type: 'BODY', text: 'Olá {{1}}' }],
      },
    });
    const campaign = await t.http
      .post('/api/v1/campaign')
      .set(auth('campaigns'))
      .send({
        name: 'Grande',
        channel_uuid: channel,
        whatsapp_template_uuid: template.id,
        dnd_list: [],
        inbound_entrypoint: acme.sectors[0]!.id,
        config: { default_action: { action: 'end_with_message', message: 'Obrigado!' }, reply_actions: {} },
      });
    expect(campaign.status, JSON.stringify(campaign.body)).toBe(201);
    const csv = subscriberCsv(180_000);
    expect(csv.length).toBeGreaterThan(5_500_000);
    const path = `/api/v1/campaign/${campaign.body.data.uuid}/subscribers`;
    expectTooLarge(
      await postFileInTwoWrites(path, tokens.campaigns!, csv, SUBSCRIBERS_FILE_MAX_BYTES, 'big.csv', 'text/csv'),
      SUBSCRIBERS_FILE_MAX_BYTES,
    );
    expectTooLarge(
      await t.http.post(path).set(auth('campaigns')).attach('file', csv, { filename: 'big.csv', contentType: 'text/csv' }),
      SUBSCRIBERS_FILE_MAX_BYTES,
    );
    expect(await db.storedFile.count({ where: { tenantId: acme.tenantId } })).toBe(0);
    expect(await db.outboxJob.count({ where: { tenantId: acme.tenantId, queue: queues.subscriberImport.name } })).toBe(0);
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.body.data.uuid } })).importStatus).toBeNull();
    // Exactly at the limit is taken whole.
    const exact = Buffer.concat([csv.subarray(0, SUBSCRIBERS_FILE_MAX_BYTES - 1), Buffer.from('\n')]);
    const taken = await t.http
      .post(`/api/v1/campaign/${campaign.body.data.uuid}/subscribers`)
      .set(auth('campaigns'))
      .attach('file', exact, { filename: 'exact.csv', contentType: 'text/csv' });
    expect(taken.status, JSON.stringify(taken.body)).toBe(202);
    expect((await db.storedFile.findFirstOrThrow({ where: { tenantId: acme.tenantId } })).size).toBe(SUBSCRIBERS_FILE_MAX_BYTES);
  });

  it('refuses an upload over 5 MB (attachments, avatars, template media) with 413 and the limit, whatever its chunks', async () => {
    const before = await t.database.db.storedFile.count();
    const big = Buffer.alloc(5.5 * 1024 * 1024, 'a');
    expectTooLarge(
      await postFileInTwoWrites('/api/v1/storage/files', tokens.agent!, big, UPLOAD_MAX_BYTES, 'notes.txt', 'text/plain'),
      UPLOAD_MAX_BYTES,
    );
    for (const size of [UPLOAD_MAX_BYTES + 1, 5.5 * 1024 * 1024, 12 * 1024 * 1024]) {
      const res = await t.http
        .post('/api/v1/storage/files')
        .set(auth('agent'))
        .attach('file', Buffer.alloc(size, 'a'), { filename: 'notes.txt', contentType: 'text/plain' });
      expectTooLarge(res, UPLOAD_MAX_BYTES);
    }
    expect(await t.database.db.storedFile.count()).toBe(before);
  });

  it('refuses a voice note over 5 MB as JSON with 413 and the limit, from an agent or a livechat visitor', async () => {
    const tooLong = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(UPLOAD_MAX_BYTES, 3)]).toString('base64');
    expectTooLarge(
      await t.http.post('/api/v1/storage/files').set(auth('agent')).send({ file: tooLong, encoding: 'base64', content_type: 'audio/ogg' }),
      UPLOAD_MAX_BYTES,
    );
    const created = await t.http.post('/api/v1/channels').set(auth('admin')).type('form').send({ name: 'Site', type: 'livechat' });
    const channelId = created.body.data.uuid as string;
    const look = (await t.http.get(`/api/v1/channels/${channelId}`).set(auth('admin'))).body.data.appearance;
    await t.http
      .patch(`/api/v1/channels/${channelId}`)
      .set(auth('admin'))
      .send({ appearance: { ...look, widget_settings: { ...look.widget_settings, audio_recording_allowed: true } } });
    const session = await t.http.post(`/api/v1/livechat/${channelId}/sessions`).send({ name: 'Ana', custom_fields: {} });
    expect(session.status).toBe(201);
    const visitor = { Authorization: `Bearer ${session.body.data.visitor_token}` };
    expectTooLarge(
      await t.http
        .post('/api/v1/livechat/voice')
        .set(visitor)
        .send({ id: 'v-1', file: tooLong, encoding: 'base64', content_type: 'audio/ogg' }),
      UPLOAD_MAX_BYTES,
    );
    // Past the route's body limit (8 MB of base64) the answer names the file's limit, not the body's.
    const farTooLong = Buffer.alloc(7 * 1024 * 1024, 3).toString('base64');
    const refused = await t.http
      .post('/api/v1/livechat/voice')
      .set(visitor)
      .send({ id: 'v-2', file: farTooLong, encoding: 'base64', content_type: 'audio/ogg' });
    expectTooLarge(refused, UPLOAD_MAX_BYTES);
    expect(refused.body.error_message).toBe('Maximum file size exceeded (5 MB)');
    expectTooLarge(
      await t.http
        .post('/api/v1/storage/files')
        .set(auth('agent'))
        .send({ file: farTooLong, encoding: 'base64', content_type: 'audio/ogg' }),
      UPLOAD_MAX_BYTES,
    );
  });

  it('refuses a JSON body over 1 MB and a form over 64 KB with 413 and the limit', async () => {
    const res = await t.http
      .post('/api/v1/contacts')
      .set(auth('agent'))
      .send({ name: 'x'.repeat(1024 * 1024 + 10) });
    expectTooLarge(res, 1024 * 1024);
    expect(res.body).toMatchObject({ error_message: 'Request body is too large', params: { max_size: '1 MB' } });
    const form = await t.http
      .post('/api/v1/login')
      .type('form')
      .send({ email: 'agent@acme.test', password: 'x'.repeat(70 * 1024) });
    expectTooLarge(form, 64 * 1024);
    expect(form.body.params.max_size).toBe('64 KB');
  });
});
