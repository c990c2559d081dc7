import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { channelAdapters, encryptCredentials, outboundClient, type ChannelAdapterOptions } from '@atende/channels';
import { ensureTenant, type Db, type Prisma } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { RealtimeOutbox, realtimeOutboxStream } from '@atende/queue';
import { LocalDiskDriver, type StorageDriver } from '@atende/storage';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { deliverMessage, type ChannelDeliveryDeps } from './processor';

export interface DeliveryHarness {
  db: Db;
  deps: ChannelDeliveryDeps;
  /** The local disk annexes are read from (the deps' storage for its service). */
  storage: StorageDriver;
  secretsKey: Buffer;
  tenantId: string;
  workspaceId: string;
  agentId: number;
  /** A channel, a contact known on it by `identifier`, and their conversation answered by the agent. */
  openConversation(input: {
    channel: { name: string; type: string; config: Prisma.InputJsonObject; credentials: Record<string, string> };
    contact: { name: string; phoneNumber?: string; email?: string };
    identifier: string;
  }): Promise<{ channelId: string; contactId: string; conversationId: string }>;
  /** An agent's message waiting for delivery, as the api stores it. */
  agentMessage(conversationId: string, content: string, annexId?: string | null, voice?: boolean): Promise<string>;
  /** The channel-delivery job for a message. */
  deliver(id: string, finalAttempt?: boolean): ReturnType<typeof deliverMessage>;
}

/**
 * What the provider delivery tests share (channels): a database, Redis, local storage, the
 * worker's delivery deps with the guarded client allowing the simulators on 127.0.0.1, and a tenant
 * with an agent. Registered as the file's hooks: call it at the top level.
 */
export function useDeliveryHarness(options: { name: string; adapters?: Omit<ChannelAdapterOptions, 'outbound'> }): DeliveryHarness {
  const prefix = `atende-test:${randomBytes(4).toString('hex')}:`;
  const secretsKey = randomBytes(32);
  let t: TestDatabase;
  let redis: Redis;
  let storageDir = '';
  const harness = {
    secretsKey,
    async openConversation({ channel, contact, identifier }) {
      const { tenantId, workspaceId, agentId } = harness;
      const channelId = (
        await harness.db.channel.create({
          data: {
            tenantId,
            workspaceId,
            name: channel.name,
            type: channel.type,
            config: channel.config,
            credentialsEncrypted: encryptCredentials(channel.credentials, secretsKey),
          },
        })
      ).id;
      const contactId = (await harness.db.contact.create({ data: { tenantId, ...contact } })).id;
      await harness.db.contactIdentity.create({ data: { tenantId, channelId, contactId, identifier } });
      const conversationId = (
        await harness.db.conversation.create({
          data: { tenantId, workspaceId, contactId, channelId, userId: agentId, state: 'answered', ticketNumber: 1 },
        })
      ).id;
      return { channelId, contactId, conversationId };
    },
    async agentMessage(conversationId, content, annexId = null, voice = false) {
      const m = await harness.db.message.create({
        data: {
          id: randomUUID(),
          tenantId: harness.tenantId,
          conversationId,
          author: 'USER',
          userId: harness.agentId,
          content,
          annexId,
          voice,
          state: 'pending',
          status: 'sending',
        },
      });
      return m.id;
    },
    deliver: (id, finalAttempt = false) =>
      deliverMessage(harness.deps, { tenant_uuid: harness.tenantId, message_uuid: id }, { finalAttempt }),
  } as DeliveryHarness;

  beforeAll(async () => {
    t = await createTestDatabase();
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
    storageDir = await mkdtemp(join(tmpdir(), `atende-${options.name.toLowerCase().replace(/\W+/g, '-')}-`));
    const storage = new LocalDiskDriver(storageDir);
    harness.db = t.db;
    harness.storage = storage;
    harness.deps = {
      db: t.db,
      realtime: new RealtimeOutbox(redis, prefix),
      adapters: channelAdapters({ outbound: outboundClient({ allowHosts: '127.0.0.1' }), ...options.adapters }),
      secretsKey,
      publicUrl: 'https://atende.example',
      fileLinkSecret: 'test-file-link-secret-0123456789-0123456789',
      storage: (service) => (service === storage.service ? storage : null),
      log: pino({ level: 'silent' }),
    };
    const domain = options.name.toLowerCase().replace(/\W+/g, '');
    const tenant = await ensureTenant(t.db, {
      name: options.name,
      users: { agent: ['agent'] },
      emailDomain: `${domain}.test`,
      password: 'x1234567',
    });
    harness.tenantId = tenant.tenantId;
    harness.workspaceId = tenant.workspaceId;
    harness.agentId = tenant.users.agent!.id;
  });
  afterAll(async () => {
    await redis?.del(realtimeOutboxStream(prefix));
    redis?.disconnect();
    await t?.drop();
    if (storageDir) await rm(storageDir, { recursive: true, force: true });
  });
  return harness;
}
