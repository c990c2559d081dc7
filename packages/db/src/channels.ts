import type { Prisma } from '../generated/prisma/client';

type Reader = Pick<Prisma.TransactionClient, 'channel'>;

/**
 * The live channel, of any tenant, that holds a provider identity (the page, account, number or
 * bot a provider routes its webhooks by), other than `exceptChannelId`; null when it is free. The
 * unique index on Channel.providerIdentity is the guarantee; this read only answers early.
 */
export async function channelHoldingIdentity(db: Reader, identity: string, exceptChannelId: string | null): Promise<string | null> {
  const holder = await db.channel.findFirst({
    where: { providerIdentity: identity, deletedAt: null, ...(exceptChannelId ? { id: { not: exceptChannelId } } : {}) },
    select: { id: true },
  });
  return holder?.id ?? null;
}

/** The live channels holding these identities: at most one each, whatever the tenant. */
export function liveChannelsByIdentity(
  db: Reader,
  identities: readonly string[],
): Promise<{ id: string; tenantId: string; providerIdentity: string | null }[]> {
  if (identities.length === 0) return Promise.resolve([]);
  return db.channel.findMany({
    where: { providerIdentity: { in: [...identities] }, deletedAt: null },
    select: { id: true, tenantId: true, providerIdentity: true },
  });
}

/** A live channel by id, whatever its tenant (a provider webhook names only the channel). */
export function liveChannelById(db: Pick<Prisma.TransactionClient, 'channel'>, channelId: string) {
  return db.channel.findFirst({ where: { id: channelId, deletedAt: null } });
}

/** A channel of the tenant as the inbound processor reads it, with the tenant's config. */
export async function providerChannelRow(db: Pick<Prisma.TransactionClient, '$queryRaw'>, tenantId: string, channelId: string) {
  const [channel] = await db.$queryRaw<
    {
      id: string;
      tenantId: string;
      workspaceId: string;
      type: string;
      enabled: boolean;
      entrySectorId: string | null;
      entryMenuId: string | null;
      entryBotId: string | null;
      config: unknown;
      credentialsEncrypted: string | null;
      tenantConfig: unknown;
    }[]
  >`SELECT c.id, c."tenantId", c."workspaceId", c.type, c.enabled, c."entrySectorId", c."entryMenuId", c."entryBotId", c.config, c."credentialsEncrypted", t.config AS "tenantConfig"
    FROM "Channel" c JOIN "Tenant" t ON t.id = c."tenantId" WHERE c.id = ${channelId}::uuid AND c."tenantId" = ${tenantId}::uuid`;
  return channel ?? null;
}

/** A live e-mail channel with what its forwarding address needs (tenant, on/off, credentials). */
export function liveEmailChannel(db: Pick<Prisma.TransactionClient, 'channel'>, channelId: string) {
  return db.channel.findFirst({
    where: { id: channelId, type: 'email', deletedAt: null },
    select: { tenantId: true, enabled: true, credentialsEncrypted: true },
  });
}

type ChannelAdmin = Pick<Prisma.TransactionClient, 'channel' | 'sector' | 'automatedMenu' | 'bot'>;
type WorkspaceScope = { tenantId: string; workspaceId: string };
export type ChannelRecord = Prisma.ChannelGetPayload<object>;

/** A live channel of the workspace, or null. */
export function workspaceChannel(
  db: Pick<Prisma.TransactionClient, 'channel'>,
  ws: WorkspaceScope,
  id: string,
): Promise<ChannelRecord | null> {
  return db.channel.findFirst({ where: { id, tenantId: ws.tenantId, workspaceId: ws.workspaceId, deletedAt: null } });
}

/** A page of the workspace's live channels (by name), with the total, optionally of some types or on/off. */
export async function listWorkspaceChannels(
  db: Pick<Prisma.TransactionClient, 'channel'>,
  ws: WorkspaceScope,
  filter: { types?: string[]; enabled?: boolean },
  window: { take: number; skip: number },
): Promise<{ rows: ChannelRecord[]; total: number }> {
  const where: Prisma.ChannelWhereInput = {
    tenantId: ws.tenantId,
    workspaceId: ws.workspaceId,
    deletedAt: null,
    ...(filter.types?.length ? { type: { in: filter.types } } : {}),
    ...(filter.enabled !== undefined ? { enabled: filter.enabled } : {}),
  };
  const [rows, total] = await Promise.all([
    db.channel.findMany({ where, orderBy: [{ name: 'asc' }, { id: 'asc' }], ...window }),
    db.channel.count({ where }),
  ]);
  return { rows, total };
}

/** The names of the channels' entry points: sectors, menus and (live) bots of the tenant. */
export function entryPointNames(db: ChannelAdmin, tenantId: string, ids: { sectorIds: string[]; menuIds: string[]; botIds: string[] }) {
  return Promise.all([
    ids.sectorIds.length ? db.sector.findMany({ where: { id: { in: ids.sectorIds }, tenantId }, select: { id: true, name: true } }) : [],
    ids.menuIds.length ? db.automatedMenu.findMany({ where: { id: { in: ids.menuIds }, tenantId }, select: { id: true, name: true } }) : [],
    ids.botIds.length
      ? db.bot.findMany({ where: { id: { in: ids.botIds }, tenantId, deletedAt: null }, select: { id: true, name: true } })
      : [],
  ] as const);
}

/** An entry point a channel may be given: an enabled live menu or a live bot of the workspace, or a live sector of the tenant. */
export async function entryPointExists(
  db: ChannelAdmin,
  ws: WorkspaceScope,
  type: 'sector' | 'menu' | 'bot',
  id: string,
): Promise<boolean> {
  const live = { id, tenantId: ws.tenantId, deletedAt: null };
  if (type === 'menu') return (await db.automatedMenu.count({ where: { ...live, workspaceId: ws.workspaceId, enabled: true } })) > 0;
  if (type === 'bot') return (await db.bot.count({ where: { ...live, workspaceId: ws.workspaceId } })) > 0;
  return (await db.sector.count({ where: live })) > 0;
}

/** Stores a new channel. */
export function insertChannel(
  db: Pick<Prisma.TransactionClient, 'channel'>,
  data: Prisma.ChannelUncheckedCreateInput,
): Promise<ChannelRecord> {
  return db.channel.create({ data });
}

/** Changes a channel of the tenant. */
export function updateChannelRow(
  db: Pick<Prisma.TransactionClient, 'channel'>,
  tenantId: string,
  id: string,
  data: Prisma.ChannelUncheckedUpdateInput,
): Promise<ChannelRecord> {
  return db.channel.update({ where: { id, tenantId }, data });
}

/** Soft delete: the channel is off and gone from lists; its conversations and messages stay readable. */
export async function softDeleteChannel(db: Pick<Prisma.TransactionClient, 'channel'>, tenantId: string, id: string): Promise<void> {
  await db.channel.update({ where: { id, tenantId }, data: { deletedAt: new Date(), enabled: false } });
}

/** The workspace's live channels of a Meta type connected to these pages, oldest first. */
export function workspaceChannelsOfPages(
  db: Pick<Prisma.TransactionClient, 'channel'>,
  ws: WorkspaceScope,
  type: string,
  pageIds: string[],
) {
  return db.channel.findMany({
    where: {
      tenantId: ws.tenantId,
      workspaceId: ws.workspaceId,
      type,
      deletedAt: null,
      OR: pageIds.map((id) => ({ config: { path: ['page_id'], equals: id } })),
    },
    orderBy: { createdAt: 'asc' },
    select: { id: true, name: true, config: true },
  });
}
