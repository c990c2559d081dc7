import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

let t: TestApp;
const tokens: Record<string, string> = {};
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const OGG = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(32, 2)]);

beforeAll(async () => {
  t = await startTestApp({ STORAGE_DIR: mkdtempSync(join(tmpdir(), 'atende-storage-')) });
  await t.tenant('Acme', { users: { agent: ['agent'] } });
  await t.tenant('Other', { users: { agent: ['agent'] } });
  tokens.agent = await t.login('agent@acme.test');
  tokens.outsider = await t.login('agent@other.test');
});
afterAll(() => t.close());
const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });
const upload = (bytes: Buffer, filename: string, contentType: string) =>
  t.http.post('/api/v1/storage/files').set(auth('agent')).attach('file', bytes, { filename, contentType });

// spec 000 §5, §7: multipart field "file", 5 MB, supported types; voice as JSON base64.
describe('storage', () => {
  it('uploads a file and downloads it with its name and type, to the same tenant only', async () => {
    const res = await upload(PNG, '../../etc/Foto do cliente.png', 'image/png');
    expect(res.status).toBe(201);
    const file = res.body.data.data;
    expect(file).toMatchObject({ content_type: 'image/png', original_filename: 'Foto do cliente.png', size: PNG.length, uri: `/api/v1/storage/files/${file.uuid}` });
    const down = await t.http.get(file.uri).set(auth('agent')).buffer(true).parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(down.status).toBe(200);
    expect(down.headers['content-type']).toBe('image/png');
    expect(down.headers['content-disposition']).toContain("filename*=UTF-8''Foto%20do%20cliente.png");
    expect(down.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(down.body as Buffer, PNG)).toBe(0);
    expect((await t.http.get(file.uri).set(auth('outsider'))).status).toBe(404);
    expect((await t.http.get(file.uri)).status).toBe(401);
  });

  it('uploads a voice note as JSON base64', async () => {
    const res = await t.http.post('/api/v1/storage/files').set(auth('agent')).send({ file: OGG.toString('base64'), encoding: 'base64', content_type: 'audio/ogg' });
    expect(res.status).toBe(201);
    expect(res.body.data.data).toMatchObject({ content_type: 'audio/ogg', size: OGG.length, original_filename: 'voice.ogg' });
  });

  it('refuses files over 5 MB, unsupported or spoofed types, empty files and broken bodies', async () => {
    const before = await t.database.db.storedFile.count();
    const big = await upload(Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]), 'big.png', 'image/png');
    expect(big.status).toBe(413);
    expect(big.body.error_message).toBe('Maximum file size exceeded (5 MB)');
    const exe = await upload(Buffer.from('MZ\x90\x00rest-of-an-exe'), 'setup.exe', 'application/x-msdownload');
    expect(exe.status).toBe(415);
    expect(exe.body.error_message).toBe('application/x-msdownload is not supported.');
    const spoofed = await upload(Buffer.from('MZ\x90\x00rest-of-an-exe'), 'cat.png', 'image/png');
    expect(spoofed.status).toBe(415);
    expect((await upload(Buffer.alloc(0), 'empty.txt', 'text/plain')).status).toBe(400);
    const wrongField = await t.http.post('/api/v1/storage/files').set(auth('agent')).attach('document', PNG, { filename: 'a.png', contentType: 'image/png' });
    expect(wrongField.status).toBe(400);
    const broken = await t.http.post('/api/v1/storage/files').set(auth('agent')).set('content-type', 'multipart/form-data; boundary=xyz').send('--xyz\r\nnot a part');
    expect(broken.status).toBeGreaterThanOrEqual(400);
    expect(broken.status).toBeLessThan(500);
    const badBase64 = await t.http.post('/api/v1/storage/files').set(auth('agent')).send({ file: 'not*base64!', encoding: 'base64', content_type: 'audio/ogg' });
    expect(badBase64.status).toBe(400);
    const noFile = await t.http.post('/api/v1/storage/files').set(auth('agent')).send({});
    expect(noFile.status).toBe(400);
    expect(await t.database.db.storedFile.count()).toBe(before);
  });
});
