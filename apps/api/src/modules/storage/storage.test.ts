import { mkdtempSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import S3rver from '@20minutes/s3rver';
import { signedFilePath } from '@atende/channels';
import { DeleteObjectCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Response, Test } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';
import { storageFromEnv } from '@atende/storage';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const OGG = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(32, 2)]);
const PDF = Buffer.from('%PDF-1.7\n% a small pdf\n');
const FILE_LINK_SECRET = 'storage-test-file-link-secret-0123456789';

/** One storage backend the same tests run against: its api settings and a way to lose an object behind the api's back. */
interface Backend {
  name: 'local' | 's3';
  start(): Promise<Record<string, string>>;
  /** Deletes the bytes of a stored object, leaving its row (a file lost from storage). */
  lose(key: string): Promise<void>;
  /** The bytes the backend holds for a key, read without the api. */
  read(key: string): Promise<Buffer>;
  stop(): Promise<void>;
}

function localBackend(): Backend {
  const dir = mkdtempSync(join(tmpdir(), 'atende-storage-'));
  return {
    name: 'local',
    start: async () => ({ STORAGE_DIR: dir }),
    lose: (key) => rm(join(dir, key)),
    read: (key) => readFile(join(dir, key)),
    stop: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A real S3-compatible server in this process (s3rver: filesystem-backed, checks SigV4 signatures). */
function s3Backend(): Backend {
  const dir = mkdtempSync(join(tmpdir(), 'atende-s3-'));
  const bucket = 'atende-test';
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: bucket }] });
  let client: S3Client;
  return {
    name: 's3',
    async start() {
      const { port } = await server.run();
      const endpoint = `http://127.0.0.1:${port}`;
      client = new S3Client({
        endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
      return {
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: endpoint,
        S3_BUCKET: bucket,
        S3_REGION: 'us-east-1',
        S3_FORCE_PATH_STYLE: 'true',
        // s3rver's fixed credentials; the SDK signs with them and s3rver checks the signature.
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        // Local disk stays readable for files kept before the switch to S3.
        STORAGE_DIR: join(dir, 'local'),
      };
    },
    lose: async (key) => void (await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }))),
    read: async (key) =>
      Buffer.from(await (await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body!.transformToByteArray()),
    async stop() {
      client?.destroy();
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const binary = (req: Test) =>
  req.buffer(true).parse((r, cb) => {
    const chunks: Buffer[] = [];
    r.on('data', (c: Buffer) => chunks.push(c));
    r.on('end', () => cb(null, Buffer.concat(chunks)));
  });
const expectError = (res: Response, status: number) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(typeof res.body.error_message).toBe('string');
};

// Multipart field "file", 5 MB, supported types; voice as JSON base64; same rules on every driver.
describe.each([
  { driver: 'local', makeBackend: localBackend },
  { driver: 's3', makeBackend: s3Backend },
])('storage on the $driver driver', ({ makeBackend }) => {
  const backend = makeBackend();
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });
  const upload = (bytes: Buffer, filename: string, contentType: string) =>
    t.http.post('/api/v1/storage/files').set(auth('agent')).attach('file', bytes, { filename, contentType });
  const uploaded = async (bytes = PNG, filename = 'foto.png', contentType = 'image/png') => {
    const res = await upload(bytes, filename, contentType);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.data as { uuid: string; uri: string; size: number };
  };
  const signed = (id: string, expires = Math.floor(Date.now() / 1000) + 3600) => signedFilePath(FILE_LINK_SECRET, id, expires);

  beforeAll(async () => {
    t = await startTestApp({ ...(await backend.start()), FILE_LINK_SECRET });
    await t.tenant('Acme', { users: { agent: ['agent'] } });
    await t.tenant('Other', { users: { agent: ['agent'] } });
    tokens.agent = await t.login('agent@acme.test');
    tokens.outsider = await t.login('agent@other.test');
  });
  afterAll(async () => {
    await t?.close();
    await backend.stop();
  });

  // A right-to-left override makes 'invoice\u202Egnp.exe' read as 'invoiceexe.png'.
  it('strips bidi control characters from uploaded file names', async () => {
    const res = await upload(PNG, 'fatura\u202Egnp.exe\u2066\u200f.png', 'image/png');
    expect(res.status).toBe(201);
    expect(res.body.data.data.original_filename).toBe('faturagnp.exe.png');
  });

  it(`keeps an upload in ${backend.name} storage and downloads it with its name and type, to the same tenant only`, async () => {
    const res = await upload(PNG, '../../etc/Foto do cliente.png', 'image/png');
    expect(res.status).toBe(201);
    const file = res.body.data.data;
    expect(file).toMatchObject({
      content_type: 'image/png',
      original_filename: 'Foto do cliente.png',
      size: PNG.length,
      uri: `/api/v1/storage/files/${file.uuid}`,
    });
    const row = await t.database.db.storedFile.findUniqueOrThrow({ where: { id: file.uuid } });
    expect(row.service).toBe(backend.name);
    expect(Buffer.compare(await backend.read(row.storageKey), PNG)).toBe(0);

    const down = await binary(t.http.get(file.uri).set(auth('agent')));
    expect(down.status).toBe(200);
    expect(down.headers['content-type']).toBe('image/png');
    expect(down.headers['content-length']).toBe(String(PNG.length));
    expect(down.headers['content-disposition']).toContain("filename*=UTF-8''Foto%20do%20cliente.png");
    expect(down.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(down.body as Buffer, PNG)).toBe(0);
    // Another tenant's file is not found.
    expectError(await t.http.get(file.uri).set(auth('outsider')), 404);
    expectError(await t.http.get(file.uri), 401);
    expectError(await t.http.get(`/api/v1/storage/files/${randomUUID()}`).set(auth('agent')), 404);
  });

  it('uploads a voice note as JSON base64', async () => {
    const res = await t.http
      .post('/api/v1/storage/files')
      .set(auth('agent'))
      .send({ file: OGG.toString('base64'), encoding: 'base64', content_type: 'audio/ogg' });
    expect(res.status).toBe(201);
    expect(res.body.data.data).toMatchObject({ content_type: 'audio/ogg', size: OGG.length, original_filename: 'voice.ogg' });
    const down = await binary(t.http.get(res.body.data.data.uri).set(auth('agent')));
    expect(Buffer.compare(down.body as Buffer, OGG)).toBe(0);
  });

  it('accepts a long voice note (4 MB, over the default 1 MB body limit once in base64) and refuses one over 5 MB', async () => {
    const long = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(4 * 1024 * 1024, 3)]);
    const res = await t.http
      .post('/api/v1/storage/files')
      .set(auth('agent'))
      .send({ file: long.toString('base64'), encoding: 'base64', content_type: 'audio/ogg' });
    expect(res.status).toBe(201);
    expect(res.body.data.data.size).toBe(long.length);
    const tooLong = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(5 * 1024 * 1024 + 16, 3)]);
    const refused = await t.http
      .post('/api/v1/storage/files')
      .set(auth('agent'))
      .send({ file: tooLong.toString('base64'), encoding: 'base64', content_type: 'audio/ogg' });
    expectError(refused, 413);
    expect(refused.body.error_message).toBe('Maximum file size exceeded (5 MB)');
  });

  it('refuses files over 5 MB, unsupported or spoofed types, empty files and broken bodies, and stores nothing', async () => {
    const before = await t.database.db.storedFile.count();
    const big = await upload(Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]), 'big.png', 'image/png');
    expectError(big, 413);
    expect(big.body.error_message).toBe('Maximum file size exceeded (5 MB)');
    const bigVoice = await t.http
      .post('/api/v1/storage/files')
      .set(auth('agent'))
      .send({ file: Buffer.alloc(5 * 1024 * 1024 + 3, 1).toString('base64'), encoding: 'base64', content_type: 'audio/ogg' });
    expect([400, 413]).toContain(bigVoice.status);
    expect(typeof bigVoice.body.error_message).toBe('string');
    const exe = await upload(Buffer.from('MZ\x90\x00rest-of-an-exe'), 'setup.exe', 'application/x-msdownload');
    expectError(exe, 415);
    expect(exe.body.error_message).toBe('application/x-msdownload is not supported.');
    // A code and the value, so the web words it in the user's language.
    expect(exe.body).toMatchObject({ code: 'file_type_not_allowed', params: { type: 'application/x-msdownload' } });
    const disguised = await upload(Buffer.from('MZ\x90\x00rest-of-an-exe'), 'cat.png', 'image/png');
    expectError(disguised, 415);
    expect(disguised.body).toMatchObject({ code: 'file_content_mismatch', params: { type: 'image/png' } });
    expectError(await upload(PNG, 'not-a.pdf', 'application/pdf'), 415);
    expectError(await upload(Buffer.alloc(0), 'empty.txt', 'text/plain'), 400);
    expectError(
      await t.http
        .post('/api/v1/storage/files')
        .set(auth('agent'))
        .attach('document', PNG, { filename: 'a.png', contentType: 'image/png' }),
      400,
    );
    const broken = await t.http
      .post('/api/v1/storage/files')
      .set(auth('agent'))
      .set('content-type', 'multipart/form-data; boundary=xyz')
      .send('--xyz\r\nnot a part');
    expect(broken.status).toBeGreaterThanOrEqual(400);
    expect(broken.status).toBeLessThan(500);
    expectError(
      await t.http
        .post('/api/v1/storage/files')
        .set(auth('agent'))
        .send({ file: 'not*base64!', encoding: 'base64', content_type: 'audio/ogg' }),
      400,
    );
    expectError(await t.http.post('/api/v1/storage/files').set(auth('agent')).send({}), 400);
    expect(await t.database.db.storedFile.count()).toBe(before);
  });

  it('answers 404, not 500, for a file whose bytes are gone from storage', async () => {
    const file = await uploaded();
    const row = await t.database.db.storedFile.findUniqueOrThrow({ where: { id: file.uuid } });
    await backend.lose(row.storageKey);
    const res = await t.http.get(file.uri).set(auth('agent'));
    expectError(res, 404);
    expect(res.body.code).toBe('file_not_found');
    expectError(await t.http.get(signed(file.uuid)), 404);
  });

  it('keeps a stream of known length, reads it back with its size, reads a missing key as null and removes idempotently', async () => {
    const storage = storageFromEnv(t.env);
    try {
      const key = `driver-test/${randomUUID()}`;
      await storage.writer.put(key, Readable.from([PDF.subarray(0, 5), PDF.subarray(5)]), {
        contentType: 'application/pdf',
        size: PDF.length,
      });
      const object = await storage.writer.get(key);
      expect(object?.size).toBe(PDF.length);
      const chunks: Buffer[] = [];
      for await (const chunk of object!.stream) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).toString()).toBe(PDF.toString());
      await storage.writer.remove(key);
      await storage.writer.remove(key);
      expect(await storage.writer.get(key)).toBeNull();
    } finally {
      storage.close();
    }
  });

  // Annex links for channel receivers: no session, the server's signature over file id and expiry.
  describe('signed links', () => {
    it('downloads the file without a session while the link is valid', async () => {
      const file = await uploaded(PDF, 'boleto.pdf', 'application/pdf');
      const res = await binary(t.http.get(signed(file.uuid)));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toContain("filename*=UTF-8''boleto.pdf");
      expect(Buffer.compare(res.body as Buffer, PDF)).toBe(0);
    });

    it('refuses an expired link with 403', async () => {
      const file = await uploaded();
      const res = await t.http.get(signed(file.uuid, Math.floor(Date.now() / 1000) - 1));
      expectError(res, 403);
      expect(res.body.error_message).toBe('This download link has expired');
    });

    it('refuses a tampered link with 403: altered signature, moved expiry, another secret', async () => {
      const file = await uploaded();
      const url = new URL(signed(file.uuid), t.url);
      const signature = url.searchParams.get('signature')!;
      const expires = Number(url.searchParams.get('expires'));
      const path = `/api/v1/storage/files/${file.uuid}/signed`;
      const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
      for (const query of [
        { expires, signature: flipped },
        { expires: expires + 86_400, signature },
        { expires, signature: signature.slice(0, -2) },
        {
          expires,
          signature: new URL(signedFilePath('another-secret-0123456789-0123456789', file.uuid, expires), t.url).searchParams.get(
            'signature',
          )!,
        },
      ]) {
        const res = await t.http.get(path).query(query);
        expectError(res, 403);
        expect(res.body.error_message).toBe('This download link is not valid');
      }
    });

    it("refuses one file's link used for another file with 403, and a genuine link to an unknown file with 404", async () => {
      const mine = await uploaded();
      const other = await uploaded(PDF, 'other.pdf', 'application/pdf');
      const link = new URL(signed(mine.uuid), t.url);
      expectError(await t.http.get(`/api/v1/storage/files/${other.uuid}/signed${link.search}`), 403);
      expectError(await t.http.get(signed(randomUUID())), 404);
    });

    it('answers 400 for a link without or with unreadable expires and signature', async () => {
      const file = await uploaded();
      const path = `/api/v1/storage/files/${file.uuid}/signed`;
      for (const query of [
        {},
        { expires: 'soon', signature: 'x' },
        { expires: '1e12', signature: 'x' },
        { expires: '1', signature: '' },
        { expires: '1', signature: 'x'.repeat(500) },
      ]) {
        expectError(await t.http.get(path).query(query), 400);
      }
      expectError(await t.http.get('/api/v1/storage/files/not-a-uuid/signed').query({ expires: '1', signature: 'x' }), 400);
    });
  });

  if (backend.name === 's3') {
    it('still serves files kept on local disk before the switch to S3', async () => {
      const id = randomUUID();
      const tenantId = (await t.database.db.tenant.findFirstOrThrow({ where: { name: 'Acme' } })).id;
      const key = `${tenantId}/${id}`;
      await mkdir(join(t.env.STORAGE_DIR!, tenantId), { recursive: true });
      await writeFile(join(t.env.STORAGE_DIR!, key), PDF);
      // The agent's own upload: downloads go only to those who may read the file (download-access.test.ts).
      const uploadedById = (await t.database.db.user.findFirstOrThrow({ where: { email: 'agent@acme.test' } })).id;
      await t.database.db.storedFile.create({
        data: {
          id,
          tenantId,
          originalFilename: 'antigo.pdf',
          contentType: 'application/pdf',
          size: PDF.length,
          service: 'local',
          storageKey: key,
          uploadedById,
        },
      });
      const res = await binary(t.http.get(`/api/v1/storage/files/${id}`).set(auth('agent')));
      expect(res.status).toBe(200);
      expect(Buffer.compare(res.body as Buffer, PDF)).toBe(0);
    });
  }
});
