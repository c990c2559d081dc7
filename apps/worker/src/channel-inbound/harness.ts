import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { channelAdapters, encryptCredentials, outboundClient, parseSecretsKey } from '@atende/channels';
import type { ChannelInboundJob } from '@atende/contract';
import { ensureTenant, type Db, type Prisma } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { RealtimeOutbox, realtimeOutboxStream } from '@atende/queue';
import { LocalDiskDriver } from '@atende/storage';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, expect, vi } from 'vitest';
import type { ChannelInboundDeps } from './processor';

/** The tests' provider simulators listen on 127.0.0.1, listed as OUTBOUND_ALLOW_HOSTS would list them. */
export const LOCAL_OUTBOUND = outboundClient({ allowHosts: '127.0.0.1,localhost' });

export interface InboundHarness {
  db: Db;
  deps: ChannelInboundDeps;
  tenantId: string;
  workspaceId: string;
  /** The entry sector of the channels this harness creates. */
  sectorId: string;
  /** The local disk the contacts' media is kept on. */
  storageDir: string;
  /** Where the provider's simulator posts its webhooks: a capture server standing in for the api. */
  webhookUrl: string;
  /** A channel of this tenant entering the harness's sector, its credentials encrypted as the api stores them. */
  createChannel(channel: {
    name: string;
    type: string;
    config: Prisma.InputJsonObject;
    credentials: Record<string, string>;
  }): Promise<string>;
  /** The next webhook body the simulator posted (waits up to 5 s). */
  delivered(): Promise<string>;
  /** The channel-inbound job the api queues for a webhook body. */
  job(channelId: string, body: string): ChannelInboundJob;
}

/**
 * What the provider inbound tests share (channels): a database, Redis, storage, the worker's
 * deps, a tenant with a sector, and the capture server the simulator's webhooks reach. Registered as
 * the file's hooks: call it at the top level, before the test's own beforeAll that starts a simulator.
 */
export function useInboundHarness(options: { name: string; contentType: string }): InboundHarness {
  const prefix = `atende-test:${randomBytes(4).toString('hex')}:`;
  const secretsKey = parseSecretsKey(Buffer.alloc(32, 7).toString('base64'));
  let t: TestDatabase;
  let redis: Redis;
  let capture: Server;
  let storageDir = '';
  let captured: string[] = [];
  const harness = {
    createChannel: async ({ name, type, config, credentials }) =>
      (
        await harness.db.channel.create({
          data: {
            tenantId: harness.tenantId,
            workspaceId: harness.workspaceId,
            name,
            type,
            entrySectorId: harness.sectorId,
            config,
            credentialsEncrypted: encryptCredentials(credentials, secretsKey),
          },
        })
      ).id,
    async delivered() {
      await vi.waitFor(() => expect(captured.length, 'webhooks captured').toBeGreaterThan(0), { timeout: 5000, interval: 20 });
      return captured.shift()!;
    },
    job: (channelId, body) => ({
      tenant_uuid: harness.tenantId,
      channel_uuid: channelId,
      content_type: options.contentType,
      raw_body: body,
      received_at: new Date().toISOString(),
    }),
  } as InboundHarness;

  beforeAll(async () => {
    t = await createTestDatabase();
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
    storageDir = await mkdtemp(join(tmpdir(), `atende-${options.name.toLowerCase()}-`));
    harness.storageDir = storageDir;
    capture = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        captured.push(body);
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => capture.listen(0, '127.0.0.1', resolve));
    const address = capture.address();
    harness.webhookUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/webhook`;
    harness.db = t.db;
    harness.deps = {
      db: t.db,
      realtime: new RealtimeOutbox(redis, prefix),
      adapters: channelAdapters({ outbound: LOCAL_OUTBOUND }),
      secretsKey,
      storage: new LocalDiskDriver(storageDir),
      log: pino({ level: 'silent' }),
    };
    const tenant = await ensureTenant(t.db, {
      name: options.name,
      users: { agent: ['agent'] },
      emailDomain: `${options.name.toLowerCase()}.test`,
      password: 'x1234567',
    });
    harness.tenantId = tenant.tenantId;
    harness.workspaceId = tenant.workspaceId;
    harness.sectorId = (
      await t.db.sector.create({ data: { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, name: 'Vendas' } })
    ).id;
  });
  afterAll(async () => {
    capture?.close();
    await redis?.del(realtimeOutboxStream(prefix));
    redis?.disconnect();
    await t?.drop();
    if (storageDir) await rm(storageDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    captured = [];
  });
  return harness;
}
