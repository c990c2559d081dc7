import { AppError, type ConversationState } from '@atende/contract';
import { roleCovers } from '@atende/core';
import { ACTIVE_STATES, conversationInclude, presentConversation, stateIn } from '@atende/conversations';
import { keptConversationCount, scoped, type Prisma } from '@atende/db';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { CursorCodec } from './cursor';
import { countConversations, loadPage, type ListFilter } from './list-page';
import type { ConversationService } from './service';
import { pageWindow } from '../../paging';


export interface ListQuery {
  _limit: number;
  _offset: number;
  state?: ConversationState[];
  user_id?: number;
  sector_uuid?: string;
  contact_uuid?: string;
  channel_uuid?: string;
  archived?: boolean;
  start?: string;
  end?: string;
  cursor?: string;
}

export class ConversationLists {
  private readonly cursors: CursorCodec;

  constructor(
    private readonly ctx: AppContext,
    private readonly conversations: ConversationService,
  ) {
    this.cursors = new CursorCodec(ctx.env.JWT_SECRET);
  }

  /**
   * /api/v2/conversations: agents see their own; supervisors the workspace. Newest first, by
   * `_offset` (spec) or by keyset `cursor` (issue 13 item 6): the page is one SQL statement and the
   * exact total an index-only count, run side by side.
   */
  async list(session: Session, q: ListQuery) {
    const supervisor = roleCovers(session.roles, 'supervisor');
    if (!supervisor && q.user_id !== undefined && q.user_id !== session.userId) throw new AppError('forbidden', 'You can only list your own conversations');
    if (q.cursor !== undefined && q._offset > 0) throw new AppError('validation_failed', 'Use either cursor or _offset, not both');
    const after = q.cursor !== undefined ? this.cursors.decode(session.workspaceId, q.cursor) : undefined;
    const filter: ListFilter = {
      tenantId: session.tenantId,
      workspaceId: session.workspaceId,
      userId: supervisor ? q.user_id : session.userId,
      states: q.state?.map(stateIn),
      sectorId: q.sector_uuid,
      contactId: q.contact_uuid,
      channelId: q.channel_uuid,
      archived: q.archived,
      start: q.start ? new Date(q.start) : undefined,
      end: q.end ? new Date(q.end) : undefined,
    };
    const [total, page] = await Promise.all([
      countConversations(this.ctx.db, filter),
      q._limit === 0 ? { rows: [], lookups: undefined } : loadPage(this.ctx.db, filter, { take: q._limit + 1, offset: q._offset, after }),
    ]);
    const rows = page.rows.slice(0, q._limit);
    const last = rows[rows.length - 1];
    const nextCursor = page.rows.length > q._limit && last ? this.cursors.encode(session.workspaceId, last) : null;
    return {
      data: page.lookups ? rows.map((r) => presentConversation(r, page.lookups)) : [],
      pagination: { total, limit: q._limit, offset: q._offset, next_cursor: nextCursor },
    };
  }

  async offeredToMe(session: Session) {
    const rows = await scoped(this.ctx.db, session).conversation.findMany({
      where: { userId: session.userId, state: { in: [...ACTIVE_STATES] } },
      include: conversationInclude,
      orderBy: { timeJoin: 'asc' },
      take: 200,
    });
    return this.conversations.present(rows);
  }

  /** Conversations waiting that the caller could take: in their sectors, or all when they have none. */
  async waitingCount(session: Session): Promise<number> {
    const everyWaiting = () => keptConversationCount(this.ctx.db, { tenantId: session.tenantId, workspaceId: session.workspaceId, states: ['waiting'] });
    if (roleCovers(session.roles, 'supervisor')) return everyWaiting();
    const sectors = await this.ctx.db.userSector.findMany({ where: { userId: session.userId }, select: { sectorId: true } });
    if (!sectors.length) return everyWaiting();
    const sectorFilter = { OR: [{ sectorId: null }, { sectorId: { in: sectors.map((s) => s.sectorId) } }] };
    return scoped(this.ctx.db, session).conversation.count({ where: { workspaceId: session.workspaceId, state: 'waiting', ...sectorFilter } });
  }

  async transferDestinations(session: Session) {
    const db = scoped(this.ctx.db, session);
    const [agents, sectors] = await Promise.all([
      db.user.findMany({
        where: { workspaceId: session.workspaceId, deletedAt: null, isLogged: true, roles: { has: 'agent' } },
        select: { id: true, uuid: true, username: true, email: true, state: true },
        orderBy: { username: 'asc' },
      }),
      db.sector.findMany({ where: { workspaceId: session.workspaceId, deletedAt: null }, select: { id: true, name: true }, orderBy: { name: 'asc' } }),
    ]);
    const memberships = await db.userSector.findMany({ where: { userId: { in: agents.map((a) => a.id) } } });
    return {
      agents: agents.map((a) => ({ ...a, sector_uuids: memberships.filter((m) => m.userId === a.id).map((m) => m.sectorId) })),
      sectors: sectors.map((s) => ({ uuid: s.id, name: s.name })),
    };
  }

  /** Day chat history (spec 000 §2): finished conversations of one agent between start and end. */
  async dayHistory(session: Session, q: { start: string; end: string; user_id?: number; _limit: number; _offset: number }) {
    const userId = q.user_id ?? session.userId;
    if (userId !== session.userId && !roleCovers(session.roles, 'supervisor')) throw new AppError('forbidden', "You can only see your own history");
    const start = new Date(q.start);
    const end = new Date(q.end);
    if (end < start) throw new AppError('validation_failed', 'end must be after start');
    const db = scoped(this.ctx.db, session);
    const where: Prisma.ConversationWhereInput = { userId, state: 'closed', closedAt: { gte: start, lte: end } };
    const [total, rows] = await Promise.all([
      db.conversation.count({ where }),
      db.conversation.findMany({ where, include: { contact: true, channel: true }, orderBy: { closedAt: 'desc' }, ...pageWindow(q) }),
    ]);
    const ids = rows.map((r) => r.id);
    const counts = ids.length
      ? await this.ctx.db.message.groupBy({ by: ['conversationId', 'author'], where: { conversationId: { in: ids } }, _count: { _all: true } })
      : [];
    const count = (id: string, author: 'USER' | 'CONTACT' | 'SYSTEM') => counts.find((c) => c.conversationId === id && c.author === author)?._count._all ?? 0;
    const reasons = await db.conversationReason.findMany({ where: { id: { in: rows.map((r) => r.endReasonId).filter((v): v is string => v !== null) } } });
    const agent = await db.user.findFirst({ where: { id: userId }, select: { username: true } });
    return {
      data: rows.map((r) => ({
        conversation_uuid: r.id,
        start: r.createdAt.toISOString(),
        end: r.closedAt?.toISOString() ?? null,
        duration: r.closedAt ? Math.round((r.closedAt.getTime() - r.createdAt.getTime()) / 1000) : 0,
        ended_by: r.endedBy,
        ticket_number: r.ticketNumber,
        end_reason: reasons.find((x) => x.id === r.endReasonId)?.name ?? null,
        agent: agent?.username ?? null,
        contact_name: r.contact.name,
        contact_organization: r.contact.organization,
        contact_number: r.contact.phoneNumber,
        channel_type: r.channel.type,
        agent_message: count(r.id, 'USER'),
        system_message: count(r.id, 'SYSTEM'),
        contact_message: count(r.id, 'CONTACT'),
      })),
      pagination: { total, limit: q._limit, offset: q._offset },
    };
  }
}
