import { AppError, createConversationReason, deleteConversationReason, updateConversationReason } from '@atende/contract';
import {
  conversationReasonNameTaken,
  findConversationReason,
  insertConversationReason,
  renameConversationReason,
  softDeleteConversationReason,
} from '@atende/db';
import type { FastifyInstance } from 'fastify';
import { bind, type Access } from '../../bind';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { alreadyUsed } from './unique';

/** Conversation (finish) reasons: admin only. The list is in the conversations module. */
export function conversationReasonRoutes(app: FastifyInstance, ctx: AppContext): void {
  const access: Access = 'settings.conversation_reasons';
  async function find(session: Session, id: string) {
    const row = await findConversationReason(ctx.db, session.tenantId, id);
    if (!row) throw new AppError('conversation_reason_not_found', 'Conversation reason not found');
    return row;
  }
  async function nameFree(session: Session, name: string, except?: string) {
    const taken = await conversationReasonNameTaken(ctx.db, session.tenantId, name, except);
    if (taken) throw alreadyUsed('conversation_reason_name_taken', 'name', 'A conversation reason with this name already exists');
  }

  bind(app, createConversationReason, access, async ({ session, body }) => {
    await nameFree(session, body.name);
    const row = await insertConversationReason(ctx.db, session.tenantId, body.name);
    return { data: { uuid: row.id, name: row.name } };
  });
  bind(app, updateConversationReason, access, async ({ session, params, body }) => {
    const reason = await find(session, params.id);
    await nameFree(session, body.name, reason.id);
    const row = await renameConversationReason(ctx.db, session.tenantId, reason.id, body.name);
    return { data: { uuid: row.id, name: row.name } };
  });
  bind(app, deleteConversationReason, access, async ({ session, params }) => {
    const reason = await find(session, params.id);
    await softDeleteConversationReason(ctx.db, session.tenantId, reason.id);
    return { data: { ok: true as const } };
  });
}
