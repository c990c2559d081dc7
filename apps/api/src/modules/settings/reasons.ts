import { AppError, createConversationReason, deleteConversationReason, updateConversationReason } from '@atende/contract';
import { scoped } from '@atende/db';
import type { FastifyInstance } from 'fastify';
import { bind, type Access } from '../../bind';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { alreadyUsed, softDeleted } from './unique';

/** Conversation (finish) reasons: admin only (spec 002 §6). The list is in the conversations module. */
export function conversationReasonRoutes(app: FastifyInstance, ctx: AppContext): void {
  const access: Access = 'settings.conversation_reasons';
  const db = (session: Session) => scoped(ctx.db, session);
  async function find(session: Session, id: string) {
    const row = await db(session).conversationReason.findFirst({ where: { id, deletedAt: null } });
    if (!row) throw new AppError('not_found', 'Conversation reason not found');
    return row;
  }
  async function nameFree(session: Session, name: string, except?: string) {
    const taken = await db(session).conversationReason.findFirst({
      where: { deletedAt: null, name: { equals: name, mode: 'insensitive' }, ...(except ? { NOT: { id: except } } : {}) },
    });
    if (taken) throw alreadyUsed('name', 'A conversation reason with this name already exists');
  }

  bind(app, createConversationReason, access, async ({ session, body }) => {
    await nameFree(session, body.name);
    const row = await db(session).conversationReason.create({ data: { tenantId: session.tenantId, name: body.name } });
    return { data: { uuid: row.id, name: row.name } };
  });
  bind(app, updateConversationReason, access, async ({ session, params, body }) => {
    const reason = await find(session, params.id);
    await nameFree(session, body.name, reason.id);
    const row = await db(session).conversationReason.update({ where: { id: reason.id }, data: { name: body.name } });
    return { data: { uuid: row.id, name: row.name } };
  });
  bind(app, deleteConversationReason, access, async ({ session, params }) => {
    const reason = await find(session, params.id);
    await db(session).conversationReason.update({ where: { id: reason.id }, data: softDeleted() });
    return { data: { ok: true as const } };
  });
}
