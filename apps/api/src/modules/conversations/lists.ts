import { AppError, type ConversationState } from '@atende/contract';
import { roleCovers } from '@atende/core';
import { presentConversation, stateIn } from '@atende/conversations';
import {
  agentActiveConversations,
  agentClosedConversationsPage,
  agentSectorIds,
  contactExists,
  countConversations,
  countWaitingInSectors,
  keptConversationCount,
  listLiveConversationReasons,
  listLivePauses,
  transferTargets,
  type ListFilter,
} from '@atende/db';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { CursorCodec } from './cursor';
import { loadPage } from './list-page';
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
   * `_offset` (spec) or by keyset `cursor`: the page is one SQL statement and the
   * exact total an index-only count, run side by side.
   */
  async list(session: Session, q: ListQuery) {
    const supervisor = roleCovers(session.roles, 'supervisor');
    if (!supervisor && q.user_id !== undefined && q.user_id !== session.userId)
      throw new AppError('conversations_own_only', 'You can only list your own conversations');
    if (q.cursor !== undefined && q._offset > 0) throw new AppError('cursor_or_offset', 'Use either cursor or _offset, not both');
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
    const rows = await agentActiveConversations(this.ctx.db, session.tenantId, session.userId);
    return this.conversations.present(rows);
  }

  /** Conversations waiting that the caller could take: in their sectors, or all when they have none. */
  async waitingCount(session: Session): Promise<number> {
    const everyWaiting = () =>
      keptConversationCount(this.ctx.db, { tenantId: session.tenantId, workspaceId: session.workspaceId, states: ['waiting'] });
    if (roleCovers(session.roles, 'supervisor')) return everyWaiting();
    const sectors = await agentSectorIds(this.ctx.db, session.userId);
    if (!sectors.length) return everyWaiting();
    return countWaitingInSectors(this.ctx.db, session.tenantId, session.workspaceId, sectors);
  }

  async transferDestinations(session: Session) {
    const { agents, sectors } = await transferTargets(this.ctx.db, session.tenantId, session.workspaceId);
    return {
      agents: agents.map(({ sectorIds, ...a }) => ({ ...a, sector_uuids: sectorIds })),
      sectors: sectors.map((s) => ({ uuid: s.id, name: s.name })),
    };
  }

  /** A contact's conversations, as the list shows them; the contact may be removed, not another tenant's. */
  async ofContact(session: Session, contactId: string, q: Omit<ListQuery, 'contact_uuid'>) {
    if (!(await contactExists(this.ctx.db, session.tenantId, contactId))) throw new AppError('contact_not_found', 'Contact not found');
    return this.list(session, { ...q, contact_uuid: contactId });
  }

  /** The finish reasons an agent may pick, by name. */
  async reasons(session: Session, nameContains?: string) {
    const rows = await listLiveConversationReasons(this.ctx.db, session.tenantId, nameContains);
    return rows.map((r) => ({ uuid: r.id, name: r.name }));
  }

  /** The pauses an agent may take, by description. */
  async pauses(session: Session) {
    const rows = await listLivePauses(this.ctx.db, session.tenantId, session.workspaceId);
    return rows.map((p) => ({ uuid: p.id, description: p.description }));
  }

  /** Day chat history: finished conversations of one agent between start and end. */
  async dayHistory(session: Session, q: { start: string; end: string; user_id?: number; _limit: number; _offset: number }) {
    const userId = q.user_id ?? session.userId;
    if (userId !== session.userId && !roleCovers(session.roles, 'supervisor'))
      throw new AppError('history_own_only', 'You can only see your own history');
    const start = new Date(q.start);
    const end = new Date(q.end);
    if (end < start) throw new AppError('range_end_before_start', 'end must be after start');
    const { total, rows, messageCounts, reasons, agentName } = await agentClosedConversationsPage(
      this.ctx.db,
      session.tenantId,
      userId,
      { start, end },
      pageWindow(q),
    );
    const count = (id: string, author: 'USER' | 'CONTACT' | 'SYSTEM') =>
      messageCounts.find((c) => c.conversationId === id && c.author === author)?.count ?? 0;
    return {
      data: rows.map((r) => ({
        conversation_uuid: r.id,
        start: r.createdAt.toISOString(),
        end: r.closedAt?.toISOString() ?? null,
        duration: r.closedAt ? Math.round((r.closedAt.getTime() - r.createdAt.getTime()) / 1000) : 0,
        ended_by: r.endedBy,
        ticket_number: r.ticketNumber,
        end_reason: reasons.find((x) => x.id === r.endReasonId)?.name ?? null,
        agent: agentName,
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
