import { randomBytes, randomUUID } from 'node:crypto';
import { encryptCredentials } from '@atende/channels';
import { ensureTenant, type Db } from '@atende/db';

/** Test fixtures for delivery: a tenant with an agent, a custom channel, a contact and a conversation. */
export interface DeliveryFixture {
  tenantId: string;
  workspaceId: string;
  agent: { id: number; uuid: string };
  channelId: string;
  contactId: string;
  conversationId: string;
}

export async function createDeliveryFixture(
  db: Db,
  options: { webhookUrl: string; webhookSecret: string; secretsKey: Buffer; channelType?: string },
): Promise<DeliveryFixture> {
  const suffix = randomBytes(4).toString('hex');
  const tenant = await ensureTenant(db, {
    name: `Delivery ${suffix}`,
    users: { agent: ['agent'] },
    emailDomain: `${suffix}.test`,
    password: 'x1234567',
  });
  const agent = tenant.users.agent!;
  const channel = await db.channel.create({
    data: {
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      name: 'Integration',
      type: options.channelType ?? 'custom',
      config: { webhook_url: options.webhookUrl },
      credentialsEncrypted: encryptCredentials({ webhook_secret: options.webhookSecret }, options.secretsKey),
    },
  });
  const contact = await db.contact.create({ data: { tenantId: tenant.tenantId, name: 'Maria', phoneNumber: '+5511987654321' } });
  await db.contactIdentity.create({
    data: { tenantId: tenant.tenantId, channelId: channel.id, contactId: contact.id, identifier: `ext-${suffix}` },
  });
  const conversation = await db.conversation.create({
    data: {
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      contactId: contact.id,
      channelId: channel.id,
      userId: agent.id,
      state: 'answered',
      ticketNumber: 1,
    },
  });
  return {
    tenantId: tenant.tenantId,
    workspaceId: tenant.workspaceId,
    agent,
    channelId: channel.id,
    contactId: contact.id,
    conversationId: conversation.id,
  };
}

/** An agent's message as the api stores it before delivery: pending, status sending. */
export async function createAgentMessage(
  db: Db,
  f: DeliveryFixture,
  overrides: { content?: string; internal?: boolean; tags?: string[]; annexId?: string } = {},
): Promise<string> {
  const message = await db.message.create({
    data: {
      id: randomUUID(),
      tenantId: f.tenantId,
      conversationId: f.conversationId,
      author: 'USER',
      userId: f.agent.id,
      content: overrides.content ?? 'Olá, Maria!',
      internal: overrides.internal ?? false,
      tags: overrides.tags ?? [],
      annexId: overrides.annexId ?? null,
      state: 'pending',
      status: 'sending',
    },
  });
  return message.id;
}
