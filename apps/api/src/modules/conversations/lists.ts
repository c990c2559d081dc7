import { AppError, type ConversationState } from '@atende/contract';
import { roleCovers } from '@atende/core';
import { conversationInclude } from '@atende/conversations';
import { scoped, type Prisma } from '@atende/db';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import type { ConversationService } from './service';

const STATE_IN: Record<ConversationState, Prisma.ConversationWhereInput['state']> = {
  waiting: 'waiting', bot: 'bot', answered: 'answered', 'outbound-started': 'outbound_started', closing: 'closing', closed: 'closed',
};

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
}

export class ConversationLists {
  constructor(
    private readonly ctx: AppContext,
    private readonly conversations: ConversationService,
  ) {}

  /** /api/v2/conversations: agents see their own; supervisors the workspace (indexes: tenantId+createdAt, tenantId+userId+state). */
  async list(session: Session, q: ListQuery) {
    const supervisor = roleCovers(session.roles, 'supervisor');
    if (!supervisor && q.user_id !== undefined && q.user_id !== session.userId) throw new AppError('forbidden', 'You can only list your own conversations');
    const where: Prisma.ConversationWhereInput = {
      workspaceId: session.workspaceId,
      ...(supervisor ? (q.user_id !== undefined ? { userId: q.user_id } : {}) : { userId: session.userId }),
      ...(q.state?.length ? { state: { in: q.state.map((s) => STATE_IN[s]) as never } } : {}),
      ...(q.sector_uuid ? { sectorId: q.sector_uuid } : {}),
      ...(q.contact_uuid ? { contactId: q.contact_uuid } : {}),
      ...(q.channel_uuid ? { channelId: q.channel_uuid } : {}),
      ...(q.archived !== undefined ? { archived: q.archived } : {}),
      ...(q.start || q.end ? { createdAt: { ...(q.start ? { gte: new Date(q.start) } : {}), ...(q.end ? { lte: new Date(q.end) } : {}) } } : {}),
    };
    const db = scoped(this.ctx.db, session);
    const [total, rows] = await Promise.all([
      db.conversation.count({ where }),
      q._limit === 0 ? [] : db.conversation.findMany({ where, include: conversationInclude, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: q._limit, skip: q._offset }),
    ]);
    return { data: await this.conversations.present(rows), pagination: { total, limit: q._limit, offset: q._offset } };
  }

  async offeredToMe(session: Session) {
    const rows = await scoped(this.ctx.db, session).conversation.findMany({
      where: { userId: session.userId, state: { in: ['answered', 'outbound_started', 'closing'] } },
      include: conversationInclude,
      orderBy: { timeJoin: 'asc' },
      take: 200,
    });
    return this.conversations.present(rows);
  }

  /** Conversations waiting that the caller could take: in their sectors, or all when they have none. */
  async waitingCount(session: Session): Promise<number> {
    const sectors = await this.ctx.db.userSector.findMany({ where: { userId: session.userId }, select: { sectorId: true } });
    const sectorFilter = sectors.length && !roleCovers(session.roles, 'supervisor') ? { OR: [{ sectorId: null }, { sectorId: { in: sectors.map((s) => s.sectorId) } }] } : {};
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
      db.conversation.findMany({ where, include: { contact: true, channel: true }, orderBy: { closedAt: 'desc' }, take: q._limit || undefined, skip: q._offset }),
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
