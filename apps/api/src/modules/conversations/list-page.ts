import type { Lookups, PresentableConversation } from '@atende/conversations';
import { keptConversationCount, Prisma, tallyCovers, type Db, type TallyFilter } from '@atende/db';
import type { ListPosition } from './cursor';

/** The filters of one list request, already resolved against the caller's role. */
export interface ListFilter extends TallyFilter {
  sectorId?: string;
  contactId?: string;
  channelId?: string;
  start?: Date;
  end?: Date;
}

interface PageRow {
  id: string; state: PresentableConversation['state']; archived: boolean; type: string; priority: number; ticketNumber: number;
  unreadContactMessages: number; contactInteracted: boolean; timeJoin: Date; timeAnswer: Date | null; closedAt: Date | null;
  endedBy: string | null; endReasonId: string | null; createdAt: Date; userId: number | null; sectorId: string | null;
  contact: PresentableConversation['contact']; channel: PresentableConversation['channel'];
  events: { id: string; at: string; type: string; detail: Prisma.JsonValue }[];
  last: { createdAt: string; tags: string[]; content: string; internal: boolean; author: PresentableConversation['messages'][number]['author']; voice: boolean; annexId: string | null } | null;
  user: { id: number; uuid: string; username: string; email: string } | null;
  sector: { id: string; name: string; survey: string | null } | null;
}

export function filterSql(f: ListFilter): Prisma.Sql {
  const parts: Prisma.Sql[] = [Prisma.sql`c."tenantId" = ${f.tenantId}::uuid`, Prisma.sql`c."workspaceId" = ${f.workspaceId}::uuid`];
  if (f.userId !== undefined) parts.push(Prisma.sql`c."userId" = ${f.userId}`);
  if (f.states?.length) parts.push(Prisma.sql`c.state IN (${Prisma.join(f.states.map((s) => Prisma.sql`${s}::"ConversationState"`))})`);
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
 * agent and sector with its survey. The ORM needed eight queries and their per-query CPU for this
 * (issue 13 item 6). `take` may be one more than the page, to learn whether another page follows.
 */
export async function loadPage(db: Db, f: ListFilter, page: { take: number; offset: number; after?: ListPosition }): Promise<{ rows: PresentableConversation[]; lookups: Lookups }> {
  const after = page.after ? Prisma.sql`AND (c."createdAt", c.id) < (${page.after.createdAt}, ${page.after.id}::uuid)` : Prisma.empty;
  const rows = await db.$queryRaw<PageRow[]>`
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
  const lookups: Lookups = { users: new Map(), sectors: new Map(), surveys: new Map() };
  const out = rows.map((r): PresentableConversation => {
    if (r.user) lookups.users.set(r.user.id, r.user);
    if (r.sector) {
      lookups.sectors.set(r.sector.id, { id: r.sector.id, name: r.sector.name });
      if (r.sector.survey) lookups.surveys.set(r.sector.id, r.sector.survey);
    }
    return {
      id: r.id, state: r.state, archived: r.archived, type: r.type, priority: r.priority, ticketNumber: r.ticketNumber,
      unreadContactMessages: r.unreadContactMessages, contactInteracted: r.contactInteracted, timeJoin: r.timeJoin,
      timeAnswer: r.timeAnswer, closedAt: r.closedAt, endedBy: r.endedBy, endReasonId: r.endReasonId, createdAt: r.createdAt,
      userId: r.userId, sectorId: r.sectorId, contact: r.contact, channel: r.channel,
      events: r.events.map((e) => ({ id: e.id, at: new Date(e.at), type: e.type, detail: e.detail })),
      messages: r.last ? [{ ...r.last, createdAt: new Date(r.last.createdAt) }] : [],
    };
  });
  return { rows: out, lookups };
}
