import { AppError, type Conversation as ConversationDto } from '@atende/contract';
import {
  ACTIVE_STATES, activeCount, announceTicket, assignTo, capacityOf, conversationInclude, inTransaction, loadLookups, presentConversation,
  redistribute, refOf, returnToQueue, type Effects, type Tx, type UserRef,
  sendSurveyOnFinish,
} from '@atende/conversations';
import { roleCovers } from '@atende/core';
import { scoped, type Prisma } from '@atende/db';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { mayRead } from './access';

export interface ConversationAction {
  state?: 'waiting' | 'closed';
  conversation_reason_uuid?: string | null;
  reason_uuid?: string | null;
  current_role?: 'agent' | 'supervisor';
  archived?: boolean;
  priority?: 'top';
  sector_uuid?: string;
  user_uuid?: string | null;
}

export class ConversationService {
  constructor(private readonly ctx: AppContext) {}

  async present(rows: Prisma.ConversationGetPayload<{ include: typeof conversationInclude }>[]): Promise<ConversationDto[]> {
    const lookups = await loadLookups(this.ctx.db, rows);
    return rows.map((r) => presentConversation(r, lookups));
  }

  async get(session: Session, id: string): Promise<ConversationDto> {
    const row = await scoped(this.ctx.db, session).conversation.findFirst({ where: { id }, include: conversationInclude });
    if (!row) throw new AppError('not_found', 'Conversation not found');
    if (!(await mayRead(this.ctx.db, session, row))) throw new AppError('not_found', 'Conversation not found');
    return (await this.present([row]))[0]!;
  }

  /** Runs distribution for every workspace whose queue changed. */
  redistribute(effects: Effects): Promise<void> {
    return redistribute(this.ctx, effects);
  }

  private async me(tx: Tx, session: Session): Promise<UserRef> {
    return tx.user.findUniqueOrThrow({ where: { id: session.userId }, select: { id: true, uuid: true, email: true, username: true } });
  }

  /** Locks the conversation and checks that the caller may act on it. */
  private async lockForAction(tx: Tx, session: Session, id: string) {
    const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Conversation" WHERE id = ${id}::uuid AND "tenantId" = ${session.tenantId}::uuid FOR UPDATE`;
    if (!locked.length) throw new AppError('not_found', 'Conversation not found');
    const conv = await tx.conversation.findUniqueOrThrow({ where: { id } });
    const supervisor = roleCovers(session.roles, 'supervisor');
    if (!supervisor && conv.userId !== session.userId) throw new AppError('forbidden', 'This conversation is not assigned to you');
    return { conv, supervisor };
  }

  async act(session: Session, id: string, body: ConversationAction): Promise<ConversationDto> {
    const { effects } = await inTransaction(this.ctx, async (tx, effects) => {
      const { conv, supervisor } = await this.lockForAction(tx, session, id);
      const me = await this.me(tx, session);
      const now = new Date();
      const event = (type: string, detail: Record<string, unknown>) =>
        tx.conversationEvent.create({ data: { tenantId: conv.tenantId, conversationId: conv.id, type, detail: detail as Prisma.InputJsonValue, at: now } });
      effects.conversation(conv.id);

      if (body.archived !== undefined) {
        if (session.tenantConfig.features.archived_conversations !== true) throw new AppError('feature_disabled', 'Feature not enabled for this tenant');
        if (conv.archived !== body.archived) {
          await tx.conversation.update({ where: { id }, data: { archived: body.archived } });
          await event(body.archived ? 'archived' : 'unarchived', { email: me.email, user_uuid: me.uuid });
        }
      }
      if (body.priority === 'top') {
        // An agent prioritises a conversation they hold by returning it to the top of the queue (state waiting + priority top).
        if (conv.state !== 'waiting' && body.state !== 'waiting') throw new AppError('conflict', 'Only waiting conversations can be prioritised');
        const top = await tx.conversation.aggregate({ where: { tenantId: conv.tenantId, workspaceId: conv.workspaceId, state: 'waiting' }, _max: { priority: true } });
        const next = (top._max.priority ?? 0) + 1;
        await tx.conversation.update({ where: { id }, data: { priority: next } });
        await event('new-priority', { old: conv.priority, new: next, done_by_user: refOf(me) });
        effects.queueChanged(conv.tenantId, conv.workspaceId);
      }
      if (body.sector_uuid !== undefined) {
        await this.transfer(tx, effects, session, conv, me, body.sector_uuid, body.user_uuid ?? null);
      } else if (body.state === 'waiting') {
        if (conv.type !== 'inbound') throw new AppError('conflict', 'Outbound conversations cannot return to the queue');
        if (!ACTIVE_STATES.includes(conv.state as (typeof ACTIVE_STATES)[number])) throw new AppError('conflict', 'Only active conversations can return to the queue');
        await returnToQueue(tx, effects, conv, 'update-conversation', me);
      } else if (body.state === 'closed') {
        if (conv.state === 'closed') throw new AppError('conflict', 'This conversation is already finished');
        const reasonId = body.conversation_reason_uuid ?? body.reason_uuid ?? null;
        let reason: { id: string; name: string } | null = null;
        if (reasonId) {
          reason = await tx.conversationReason.findFirst({ where: { id: reasonId, tenantId: conv.tenantId, deletedAt: null }, select: { id: true, name: true } });
          if (!reason) throw new AppError('not_found', 'Finish reason not found');
        }
        const endedBy = body.current_role === 'supervisor' && supervisor ? 'supervisor' : conv.userId === session.userId ? 'agent' : supervisor ? 'supervisor' : 'agent';
        await tx.conversation.update({ where: { id }, data: { state: 'closed', closedAt: now, endedBy, endReasonId: reason?.id ?? null } });
        await event('closed', { ended_by: endedBy, end_reason: reason ? { uuid: reason.id, name: reason.name } : null, done_by_user: refOf(me), done_by_role: endedBy });
        await sendSurveyOnFinish(tx, effects, conv, conv.contactInteracted, now);
        if (conv.state === 'waiting') effects.queueChanged(conv.tenantId, conv.workspaceId);
        else if (conv.userId !== null) effects.distribute.set(conv.workspaceId, conv.tenantId);
      }
    });
    await this.redistribute(effects);
    // The caller just acted on it: answer with its new state even if it is no longer theirs.
    const row = await scoped(this.ctx.db, session).conversation.findFirstOrThrow({ where: { id }, include: conversationInclude });
    return (await this.present([row]))[0]!;
  }

  /** Spec 000 §4: to an agent (assigned to them) or to a sector (waiting there); only after the contact interacted. */
  private async transfer(tx: Tx, effects: Effects, session: Session, conv: Prisma.ConversationGetPayload<object>, me: UserRef, sectorId: string, userUuid: string | null) {
    if (conv.state === 'closed' || conv.state === 'closing') throw new AppError('conflict', 'Finished conversations cannot be transferred');
    if (!conv.contactInteracted || conv.state === 'outbound_started') throw new AppError('conflict', 'You can only transfer after the client has interacted');
    const sector = await tx.sector.findFirst({ where: { id: sectorId, tenantId: conv.tenantId, deletedAt: null }, select: { id: true, name: true } });
    if (!sector) throw new AppError('not_found', 'Sector not found');
    const oldSector = conv.sectorId ? await tx.sector.findUnique({ where: { id: conv.sectorId }, select: { id: true, name: true } }) : null;
    const oldUser = conv.userId !== null ? await tx.user.findUnique({ where: { id: conv.userId }, select: { id: true, uuid: true, email: true, username: true } }) : null;
    let target: UserRef | null = null;
    if (userUuid) {
      const found = await tx.user.findFirst({
        where: { uuid: userUuid, tenantId: conv.tenantId, deletedAt: null, roles: { has: 'agent' } },
        select: { id: true, uuid: true, email: true, username: true, isLogged: true, state: true, workspaceId: true },
      });
      if (!found) throw new AppError('not_found', 'Agent not found');
      if (!found.isLogged || found.state === 'offline') throw new AppError('conflict', 'This agent is not online');
      const { capacity } = await capacityOf(tx, conv.tenantId, conv.workspaceId);
      if (found.id !== conv.userId && (await activeCount(tx, conv.tenantId, found.id)) >= capacity) {
        throw new AppError('agent_at_capacity', `This agent already has the maximum of simultaneous conversations (${capacity})`, undefined, { capacity });
      }
      target = found;
    }
    await tx.conversation.update({ where: { id: conv.id }, data: { sectorId: sector.id } });
    const detail = {
      old_user: oldUser ? refOf(oldUser) : null,
      new_user: target ? refOf(target) : null,
      old_sector: oldSector ? { uuid: oldSector.id, name: oldSector.name } : null,
      new_sector: { uuid: sector.id, name: sector.name },
      done_by_user: refOf(me),
    };
    await tx.conversationEvent.create({ data: { tenantId: conv.tenantId, conversationId: conv.id, type: 'transfer', detail } });
    effects.former(conv.id, conv.userId);
    if (target) {
      await assignTo(tx, effects, conv.id, target, 'transfer', me);
    } else {
      await tx.conversation.update({ where: { id: conv.id }, data: { state: 'waiting', userId: null, timeJoin: new Date() } });
      await tx.conversationEvent.create({ data: { tenantId: conv.tenantId, conversationId: conv.id, type: 'enter-queue', detail: { event: 'transferring-conversation', done_by_user: refOf(me) } } });
      // Issue 16 item 12: entering another sector's queue announces that sector's ticket, as configured.
      if (sector.id !== conv.sectorId) await announceTicket(tx, effects, { id: conv.id, tenantId: conv.tenantId, sectorId: sector.id, ticketNumber: conv.ticketNumber }, new Date());
      effects.queueChanged(conv.tenantId, conv.workspaceId);
    }
    if (conv.userId !== null) effects.distribute.set(conv.workspaceId, conv.tenantId);
    void session;
  }
}
