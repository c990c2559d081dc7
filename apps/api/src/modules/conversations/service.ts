import { AppError, type Conversation as ConversationDto } from '@atende/contract';
import {
  ACTIVE_STATES,
  activeCount,
  announceTicket,
  assignTo,
  capacityOf,
  inTransaction,
  loadLookups,
  presentConversation,
  redistribute,
  refOf,
  returnToQueue,
  type Effects,
  type Tx,
  type UserRef,
  sendSurveyOnFinish,
} from '@atende/conversations';
import { roleCovers } from '@atende/core';
import {
  addConversationEvent,
  agentRefById,
  closeConversation,
  conversationRowOrThrow,
  findAgentRef,
  findConversationReason,
  findConversationRow,
  liveSectorRef,
  lockTenantConversation,
  moveToQueueTop,
  putBackInQueue,
  sectorRefById,
  setConversationArchived,
  setConversationSector,
  transferCandidate,
  type ConversationRecord,
  type ConversationRow,
  type Prisma,
} from '@atende/db';
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

  async present(rows: ConversationRow[]): Promise<ConversationDto[]> {
    const lookups = await loadLookups(this.ctx.db, rows);
    return rows.map((r) => presentConversation(r, lookups));
  }

  async get(session: Session, id: string): Promise<ConversationDto> {
    const row = await findConversationRow(this.ctx.db, session.tenantId, id);
    if (!row) throw new AppError('conversation_not_found', 'Conversation not found');
    if (!(await mayRead(this.ctx.db, session, row))) throw new AppError('conversation_not_found', 'Conversation not found');
    return (await this.present([row]))[0]!;
  }

  /** Runs distribution for every workspace whose queue changed. */
  redistribute(effects: Effects): Promise<void> {
    return redistribute(this.ctx, effects);
  }

  private async me(tx: Tx, session: Session): Promise<UserRef> {
    return agentRefById(tx, session.userId);
  }

  /** Locks the conversation and checks that the caller may act on it. */
  private async lockForAction(tx: Tx, session: Session, id: string) {
    const conv = await lockTenantConversation(tx, session.tenantId, id);
    if (!conv) throw new AppError('conversation_not_found', 'Conversation not found');
    const supervisor = roleCovers(session.roles, 'supervisor');
    if (!supervisor && conv.userId !== session.userId)
      throw new AppError('conversation_not_yours', 'This conversation is not assigned to you');
    return { conv, supervisor };
  }

  async act(session: Session, id: string, body: ConversationAction): Promise<ConversationDto> {
    const { effects } = await inTransaction(this.ctx, async (tx, effects) => {
      const { conv, supervisor } = await this.lockForAction(tx, session, id);
      const me = await this.me(tx, session);
      const now = new Date();
      const event = (type: string, detail: Prisma.InputJsonObject) => addConversationEvent(tx, conv, type, detail, now);
      effects.conversation(conv.id);

      if (body.archived !== undefined) {
        if (session.tenantConfig.features.archived_conversations !== true)
          throw new AppError('feature_disabled', 'Feature not enabled for this tenant');
        if (conv.archived !== body.archived) {
          await setConversationArchived(tx, id, body.archived);
          await event(body.archived ? 'archived' : 'unarchived', { email: me.email, user_uuid: me.uuid });
        }
      }
      if (body.priority === 'top') {
        // An agent prioritises a conversation they hold by returning it to the top of the queue (state waiting + priority top).
        if (conv.state !== 'waiting' && body.state !== 'waiting')
          throw new AppError('conversation_not_waiting', 'Only waiting conversations can be prioritised');
        const next = await moveToQueueTop(tx, conv);
        await event('new-priority', { old: conv.priority, new: next, done_by_user: refOf(me) });
        effects.queueChanged(conv.tenantId, conv.workspaceId);
      }
      if (body.sector_uuid !== undefined) {
        await this.transfer(tx, effects, session, conv, me, body.sector_uuid, body.user_uuid ?? null);
      } else if (body.state === 'waiting') {
        if (conv.type !== 'inbound')
          throw new AppError('conversation_outbound_requeue', 'Outbound conversations cannot return to the queue');
        if (!ACTIVE_STATES.includes(conv.state as (typeof ACTIVE_STATES)[number]))
          throw new AppError('conversation_not_active_requeue', 'Only active conversations can return to the queue');
        await returnToQueue(tx, effects, conv, 'update-conversation', me);
      } else if (body.state === 'closed') {
        if (conv.state === 'closed') throw new AppError('conversation_already_finished', 'This conversation is already finished');
        const reasonId = body.conversation_reason_uuid ?? body.reason_uuid ?? null;
        let reason: { id: string; name: string } | null = null;
        if (reasonId) {
          reason = await findConversationReason(tx, conv.tenantId, reasonId);
          if (!reason) throw new AppError('finish_reason_not_found', 'Finish reason not found');
        }
        const endedBy =
          body.current_role === 'supervisor' && supervisor
            ? 'supervisor'
            : conv.userId === session.userId
              ? 'agent'
              : supervisor
                ? 'supervisor'
                : 'agent';
        await closeConversation(tx, id, { closedAt: now, endedBy, endReasonId: reason?.id ?? null });
        await event('closed', {
          ended_by: endedBy,
          end_reason: reason ? { uuid: reason.id, name: reason.name } : null,
          done_by_user: refOf(me),
          done_by_role: endedBy,
        });
        await sendSurveyOnFinish(tx, effects, conv, conv.contactInteracted, now);
        if (conv.state === 'waiting') effects.queueChanged(conv.tenantId, conv.workspaceId);
        else if (conv.userId !== null) effects.distribute.set(conv.workspaceId, conv.tenantId);
      }
    });
    await this.redistribute(effects);
    // The caller just acted on it: answer with its new state even if it is no longer theirs.
    const row = await conversationRowOrThrow(this.ctx.db, session.tenantId, id);
    return (await this.present([row]))[0]!;
  }

  /** To an agent (assigned to them) or to a sector (waiting there); only after the contact interacted. */
  private async transfer(
    tx: Tx,
    effects: Effects,
    session: Session,
    conv: ConversationRecord,
    me: UserRef,
    sectorId: string,
    userUuid: string | null,
  ) {
    if (conv.state === 'closed' || conv.state === 'closing')
      throw new AppError('conversation_finished_no_transfer', 'Finished conversations cannot be transferred');
    if (!conv.contactInteracted || conv.state === 'outbound_started')
      throw new AppError('conversation_awaiting_client_transfer', 'You can only transfer after the client has interacted');
    const sector = await liveSectorRef(tx, conv.tenantId, sectorId);
    if (!sector) throw new AppError('sector_not_found', 'Sector not found');
    const oldSector = conv.sectorId ? await sectorRefById(tx, conv.sectorId) : null;
    const oldUser = conv.userId !== null ? await findAgentRef(tx, conv.userId) : null;
    let target: UserRef | null = null;
    if (userUuid) {
      const found = await transferCandidate(tx, conv.tenantId, userUuid);
      if (!found) throw new AppError('agent_not_found', 'Agent not found');
      if (!found.isLogged || found.state === 'offline') throw new AppError('agent_not_online', 'This agent is not online');
      const { capacity } = await capacityOf(tx, conv.tenantId, conv.workspaceId);
      if (found.id !== conv.userId && (await activeCount(tx, conv.tenantId, found.id)) >= capacity) {
        throw new AppError(
          'agent_at_capacity',
          `This agent already has the maximum of simultaneous conversations (${capacity})`,
          undefined,
          { capacity },
        );
      }
      target = found;
    }
    await setConversationSector(tx, conv.id, sector.id);
    const detail = {
      old_user: oldUser ? refOf(oldUser) : null,
      new_user: target ? refOf(target) : null,
      old_sector: oldSector ? { uuid: oldSector.id, name: oldSector.name } : null,
      new_sector: { uuid: sector.id, name: sector.name },
      done_by_user: refOf(me),
    };
    await addConversationEvent(tx, conv, 'transfer', detail);
    effects.former(conv.id, conv.userId);
    if (target) {
      await assignTo(tx, effects, conv.id, target, 'transfer', me);
    } else {
      await putBackInQueue(tx, conv, { event: 'transferring-conversation', done_by_user: refOf(me) });
      // Entering another sector's queue announces that sector's ticket, as configured.
      if (sector.id !== conv.sectorId)
        await announceTicket(
          tx,
          effects,
          { id: conv.id, tenantId: conv.tenantId, sectorId: sector.id, ticketNumber: conv.ticketNumber },
          new Date(),
        );
      effects.queueChanged(conv.tenantId, conv.workspaceId);
    }
    if (conv.userId !== null) effects.distribute.set(conv.workspaceId, conv.tenantId);
    void session;
  }
}
