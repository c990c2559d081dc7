import type { ConversationState } from '../generated/prisma/enums';
import { Prisma } from '../generated/prisma/client';
import type { Db } from './client';
import { keptConversationCount, tallyCovers, type TallyFilter } from './conversation-tally';
import { ACTIVE_STATES, conversationInclude, stateSql, type ConversationRow } from './conversations';

/** The filters of one conversation list request, already resolved against the caller's role. */
export interface ListFilter extends TallyFilter {
  sectorId?: string | undefined;
  contactId?: string | undefined;
  channelId?: string | undefined;
  start?: Date | undefined;
  end?: Date | undefined;
}

/** The position of the last row of a page in the list's order (createdAt desc, id desc). */
export interface ListPosition {
  createdAt: Date;
  id: string;
}

/** One row of a list page as the statement returns it: the conversation and, as JSON, what it shows. */
export interface ConversationListRow {
  id: string;
  state: ConversationState;
  archived: boolean;
  type: string;
  priority: number;
  ticketNumber: number;
  unreadContactMessages: number;
  contactInteracted: boolean;
  timeJoin: Date;
  timeAnswer: Date | null;
  closedAt: Date | null;
  endedBy: string | null;
  endReasonId: string | null;
  createdAt: Date;
  userId: number | null;
  sectorId: string | null;
  contact: Pick<ConversationRow['contact'], 'id' | 'name' | 'phoneNumber' | 'email' | 'organization' | 'profileImage'>;
  channel: Pick<ConversationRow['channel'], 'id' | 'type' | 'name' | 'templateRequiredOnOutboundStart' | 'config'>;
  events: { id: string; at: string; type: string; detail: Prisma.JsonValue }[];
  last: {
    createdAt: string;
    tags: string[];
    content: string;
    internal: boolean;
    author: ConversationRow['messages'][number]['author'];
    voice: boolean;
    annexId: string | null;
  } | null;
  user: { id: number; uuid: string; username: string; email: string } | null;
  sector: { id: string; name: string; survey: string | null } | null;
}

function filterSql(f: ListFilter): Prisma.Sql {
  const parts: Prisma.Sql[] = [Prisma.sql`c."tenantId" = ${f.tenantId}::uuid`, Prisma.sql`c."workspaceId" = ${f.workspaceId}::uuid`];
  if (f.userId !== undefined) parts.push(Prisma.sql`c."userId" = ${f.userId}`);
  if (f.states?.length) parts.push(Prisma.sql`c.state IN (${stateSql(...f.states)})`);
  if (f.sectorId) parts.push(Prisma.sql`c."sectorId" = ${f.sectorId}::uuid`);
  if (f.contactId) parts.push(Prisma.sql`c."contactId" = ${f.contactId}::uuid`);
  if (f.channelId) parts.push(Prisma.sql`c."channelId" = ${f.channelId}::uuid`);
  if (f.archived !== undefined) parts.push(Prisma.sql`c.archived = ${f.archived}`);
  if (f.start) parts.push(Prisma.sql`c."createdAt" >= ${f.start}`);
  if (f.end) parts.push(Prisma.sql`c."createdAt" <= ${f.end}`);
  return Prisma.join(parts, ' AND ');
}

/**
 * pagination.total. The list's own filters (workspace, agent, states, archived) sum the kept count
 * of migration 20261130010000, a few rows per agent and state; the others (sector, contact,
 * channel, dates) count as index-only scans on the indexes of migration 20261122040000.
 */
export async function countConversations(db: Db, f: ListFilter): Promise<number> {
  if (tallyCovers(f)) return keptConversationCount(db, f);
  const [row] = await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM "Conversation" c WHERE ${filterSql(f)}`;
  return row?.n ?? 0;
}

/**
 * One page of the list with everything it shows, in one SQL statement: the page's rows (by offset,
 * or after a keyset position) and, per row, its contact, channel, latest 200 events, last message,
 * agent and sector with its survey. The ORM needed eight queries and their per-query CPU for this.
 * `take` may be one more than the page, to learn whether another page follows.
 */
export async function conversationListPage(
  db: Db,
  f: ListFilter,
  page: { take: number; offset: number; after?: ListPosition },
): Promise<ConversationListRow[]> {
  const after = page.after ? Prisma.sql`AND (c."createdAt", c.id) < (${page.after.createdAt}, ${page.after.id}::uuid)` : Prisma.empty;
  return db.$queryRaw<ConversationListRow[]>`
    WITH page AS (
      SELECT c.* FROM "Conversation" c WHERE ${filterSql(f)} ${after}
      ORDER BY c."createdAt" DESC, c.id DESC LIMIT ${page.take} OFFSET ${page.offset}
    )
    SELECT p.id, p.state::text AS state, p.archived, p.type, p.priority, p."ticketNumber", p."unreadContactMessages", p."contactInteracted",
      p."timeJoin", p."timeAnswer", p."closedAt", p."endedBy", p."endReasonId", p."createdAt", p."userId", p."sectorId",
      json_build_object('id', ct.id, 'name', ct.name, 'phoneNumber', ct."phoneNumber", 'email', ct.email,
        'organization', ct.organization, 'profileImage', ct."profileImage") AS contact,
      json_build_object('id', ch.id, 'type', ch.type, 'name', ch.name, 'templateRequiredOnOutboundStart', ch."templateRequiredOnOutboundStart",
        'config', json_build_object('mms_enabled', ch.config->'mms_enabled')) AS channel,
      (SELECT COALESCE(json_agg(json_build_object('id', e.id, 'at', e.at, 'type', e.type, 'detail', e.detail) ORDER BY e.at DESC), '[]'::json)
         FROM (SELECT * FROM "ConversationEvent" ev WHERE ev."conversationId" = p.id ORDER BY ev.at DESC LIMIT 200) e) AS events,
      (SELECT json_build_object('createdAt', m."createdAt", 'tags', COALESCE(m.tags, '{}'), 'content', m.content, 'internal', m.internal, 'author', m.author, 'voice', m.voice, 'annexId', m."annexId")
         FROM "Message" m WHERE m."conversationId" = p.id ORDER BY m."createdAt" DESC LIMIT 1) AS last,
      (SELECT json_build_object('id', u.id, 'uuid', u.uuid, 'username', u.username, 'email', u.email)
         FROM "User" u WHERE u.id = p."userId" AND u."tenantId" = p."tenantId") AS "user",
      (SELECT json_build_object('id', s.id, 'name', s.name, 'survey',
          (SELECT sv.id FROM "Survey" sv WHERE sv."tenantId" = s."tenantId" AND sv."sectorIds" @> ARRAY[s.id] AND sv.enabled AND sv."deletedAt" IS NULL ORDER BY sv.id LIMIT 1))
         FROM "Sector" s WHERE s.id = p."sectorId" AND s."tenantId" = p."tenantId") AS sector
    FROM page p
    JOIN "Contact" ct ON ct.id = p."contactId"
    JOIN "Channel" ch ON ch.id = p."channelId"
    ORDER BY p."createdAt" DESC, p.id DESC`;
}

/** The conversations an agent holds now (active states), oldest in the queue first, at most 200, with what presenting them needs. */
export function agentActiveConversations(db: Db, tenantId: string, userId: number): Promise<ConversationRow[]> {
  return db.conversation.findMany({
    where: { tenantId, userId, state: { in: [...ACTIVE_STATES] } },
    include: conversationInclude,
    orderBy: { timeJoin: 'asc' },
    take: 200,
  });
}

/** How many conversations wait in the workspace's queue with no sector or one of these sectors. */
export function countWaitingInSectors(db: Db, tenantId: string, workspaceId: string, sectorIds: readonly string[]): Promise<number> {
  return db.conversation.count({
    where: { tenantId, workspaceId, state: 'waiting', OR: [{ sectorId: null }, { sectorId: { in: [...sectorIds] } }] },
  });
}

/** Where a conversation may be transferred to: the workspace's logged-in agents, with their sectors, and its live sectors, by name. */
export async function transferTargets(db: Db, tenantId: string, workspaceId: string) {
  const [agents, sectors] = await Promise.all([
    db.user.findMany({
      where: { tenantId, workspaceId, deletedAt: null, isLogged: true, roles: { has: 'agent' } },
      select: { id: true, uuid: true, username: true, email: true, state: true },
      orderBy: { username: 'asc' },
    }),
    db.sector.findMany({ where: { tenantId, workspaceId, deletedAt: null }, select: { id: true, name: true }, orderBy: { name: 'asc' } }),
  ]);
  const memberships = await db.userSector.findMany({ where: { tenantId, userId: { in: agents.map((a) => a.id) } } });
  return { agents: agents.map((a) => ({ ...a, sectorIds: memberships.filter((m) => m.userId === a.id).map((m) => m.sectorId) })), sectors };
}

export type MessageCountsByAuthor = { conversationId: string; author: ConversationRow['messages'][number]['author']; count: number }[];

/**
 * A page of an agent's conversations closed between `start` and `end`, newest closed first, with
 * contact and channel; how many there are in all; the messages of each page row by author; the
 * names of their finish reasons and the agent's name.
 */
export async function agentClosedConversationsPage(
  db: Db,
  tenantId: string,
  userId: number,
  range: { start: Date; end: Date },
  page: { skip: number; take: number },
) {
  const where: Prisma.ConversationWhereInput = { tenantId, userId, state: 'closed', closedAt: { gte: range.start, lte: range.end } };
  const [total, rows] = await Promise.all([
    db.conversation.count({ where }),
    db.conversation.findMany({ where, include: { contact: true, channel: true }, orderBy: { closedAt: 'desc' }, ...page }),
  ]);
  const ids = rows.map((r) => r.id);
  const grouped = ids.length
    ? await db.message.groupBy({ by: ['conversationId', 'author'], where: { conversationId: { in: ids } }, _count: { _all: true } })
    : [];
  const messageCounts: MessageCountsByAuthor = grouped.map((g) => ({
    conversationId: g.conversationId,
    author: g.author,
    count: g._count._all,
  }));
  const reasons = await db.conversationReason.findMany({
    where: { tenantId, id: { in: rows.map((r) => r.endReasonId).filter((v): v is string => v !== null) } },
    select: { id: true, name: true },
  });
  const agent = await db.user.findFirst({ where: { tenantId, id: userId }, select: { username: true } });
  return { total, rows, messageCounts, reasons, agentName: agent?.username ?? null };
}

/** The tenant's live conversation reasons by name, optionally those whose name contains a text (case aside). */
export function listLiveConversationReasons(db: Db, tenantId: string, nameContains?: string): Promise<{ id: string; name: string }[]> {
  return db.conversationReason.findMany({
    where: { tenantId, deletedAt: null, ...(nameContains ? { name: { contains: nameContains, mode: 'insensitive' } } : {}) },
    orderBy: { name: 'asc' },
    select: { id: true, name: true },
  });
}

/** The workspace's live pauses by description. */
export function listLivePauses(db: Db, tenantId: string, workspaceId: string): Promise<{ id: string; description: string }[]> {
  return db.pause.findMany({
    where: { tenantId, workspaceId, deletedAt: null },
    orderBy: { description: 'asc' },
    select: { id: true, description: true },
  });
}
