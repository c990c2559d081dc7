import type { Channel, Prisma } from '../generated/prisma/client';
import type { Db } from './client';

type Tx = Prisma.TransactionClient;

/** An enabled, live livechat channel of any tenant (the widget names it by its public uuid), or null. */
export function enabledLivechatChannel(db: Pick<Tx, 'channel'>, id: string): Promise<Channel | null> {
  return db.channel.findFirst({ where: { id, type: 'livechat', enabled: true, deletedAt: null } });
}

/** The tenant's live livechat channel, enabled or not, or null. */
export function livechatChannelOfTenant(db: Pick<Tx, 'channel'>, tenantId: string, id: string): Promise<Channel | null> {
  return db.channel.findFirst({ where: { id, tenantId, type: 'livechat', deletedAt: null } });
}

/** A new visitor from the pre-chat form: their contact and its identity on the channel, together. */
export async function createLivechatVisitor(
  db: Db,
  v: {
    tenantId: string;
    channelId: string;
    identifier: string;
    name: string;
    email: string | null;
    livechatCustomFields: Prisma.InputJsonValue;
  },
): Promise<void> {
  await db.$transaction(async (tx) => {
    const contact = await tx.contact.create({
      data: { tenantId: v.tenantId, name: v.name, email: v.email, livechatCustomFields: v.livechatCustomFields },
    });
    await tx.contactIdentity.create({
      data: { tenantId: v.tenantId, channelId: v.channelId, identifier: v.identifier, contactId: contact.id },
    });
  });
}

/** The contact a channel knows by this identifier, with their name, or null. */
export function contactOfIdentity(
  db: Pick<Tx, 'contactIdentity'>,
  channelId: string,
  identifier: string,
): Promise<{ contactId: string; contact: { name: string } } | null> {
  return db.contactIdentity.findUnique({
    where: { channelId_identifier: { channelId, identifier } },
    select: { contactId: true, contact: { select: { name: true } } },
  });
}

/** The tenant's config (JSON); throws when the tenant does not exist. */
export async function tenantConfigById(db: Pick<Tx, 'tenant'>, tenantId: string): Promise<Prisma.JsonValue> {
  return (await db.tenant.findUniqueOrThrow({ where: { id: tenantId }, select: { config: true } })).config;
}

/** A message by its id, with its conversation, or null. */
export function messageConversation(db: Pick<Tx, 'message'>, id: string): Promise<{ id: string; conversationId: string } | null> {
  return db.message.findUnique({ where: { id }, select: { id: true, conversationId: true } });
}

/**
 * The messages a contact sees in a channel's conversations, oldest first, at most `take`: never
 * notes nor messages tagged internal; from `after` on (inclusive) when given.
 */
export function visitorMessages(
  db: Pick<Tx, 'message'>,
  m: { tenantId: string; channelId: string; contactId: string; after: Date | null; internalTag: string; take: number },
): Promise<
  Prisma.MessageGetPayload<{ select: { id: true; author: true; content: true; createdAt: true; userId: true; annexId: true } }>[]
> {
  return db.message.findMany({
    where: {
      tenantId: m.tenantId,
      conversation: { channelId: m.channelId, contactId: m.contactId },
      internal: false,
      NOT: { tags: { has: m.internalTag } },
      ...(m.after ? { createdAt: { gte: m.after } } : {}),
    },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take: m.take,
    select: { id: true, author: true, content: true, createdAt: true, userId: true, annexId: true },
  });
}
