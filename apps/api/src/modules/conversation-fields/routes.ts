import {
  AppError, createConversationFieldDefinition, getConversationFields, listChannelCannedResponses, listConversationFieldDefinitions, setConversationField,
} from '@atende/contract';
import { roleCovers } from '@atende/core';
import { scoped } from '@atende/db';
import { mayRead } from '../conversations/access';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { presentCannedResponses } from '../settings/canned';

/** Conversation fields (spec 000 §3, §5) and the composer's canned responses (spec 000 §7). */
export function conversationFieldRoutes(app: FastifyInstance, ctx: AppContext): void {
  const db = (session: Session) => scoped(ctx.db, session);

  /** The conversation, if the caller may edit its fields: its agent, or a supervisor-level user. */
  async function editable(session: Session, id: string) {
    const conv = await db(session).conversation.findFirst({ where: { id }, select: { id: true, userId: true } });
    if (!conv) throw new AppError('not_found', 'Conversation not found');
    if (conv.userId !== session.userId && !roleCovers(session.roles, 'supervisor')) throw new AppError('forbidden', 'This conversation is not assigned to you');
    return conv;
  }
  async function values(session: Session, conversationId: string) {
    const rows = await db(session).conversationFieldValue.findMany({ where: { conversationId }, include: { field: true }, orderBy: { field: { name: 'asc' } } });
    return rows.map((r) => ({ field_uuid: r.fieldId, name: r.field.name, field_value: r.value }));
  }

  bind(app, listConversationFieldDefinitions, 'conversation_fields.use', async ({ session }) => {
    const rows = await db(session).conversationFieldDefinition.findMany({ where: { deletedAt: null }, orderBy: { name: 'asc' } });
    return { data: rows.map((r) => ({ uuid: r.id, name: r.name })) };
  });
  bind(app, createConversationFieldDefinition, 'conversation_fields.define', async ({ session, body }) => {
    const taken = await db(session).conversationFieldDefinition.findFirst({ where: { name: { equals: body.name, mode: 'insensitive' }, deletedAt: null } });
    if (taken) throw new AppError('conflict', 'A field with this name already exists');
    const row = await db(session).conversationFieldDefinition.create({ data: { name: body.name, tenantId: session.tenantId } });
    return { data: { uuid: row.id, name: row.name } };
  });
  bind(app, getConversationFields, 'conversation_fields.use', async ({ session, params }) => {
    // Reading goes with reading the conversation (a journey, a campaign's reply); changing stays its holder's.
    const conv = await db(session).conversation.findFirst({ where: { id: params.id }, select: { id: true, userId: true, contactId: true, state: true } });
    if (!conv || !(await mayRead(ctx.db, session, conv))) throw new AppError('not_found', 'Conversation not found');
    return { data: await values(session, params.id) };
  });
  bind(app, setConversationField, 'conversation_fields.use', async ({ session, params, body }) => {
    await editable(session, params.id);
    const field = await db(session).conversationFieldDefinition.findFirst({ where: { id: body.field_uuid, deletedAt: null } });
    if (!field) throw new AppError('not_found', 'Field not found');
    await ctx.db.conversationFieldValue.upsert({
      where: { conversationId_fieldId: { conversationId: params.id, fieldId: field.id } },
      create: { conversationId: params.id, fieldId: field.id, tenantId: session.tenantId, value: body.field_value },
      update: { value: body.field_value },
    });
    return { data: await values(session, params.id) };
  });

  bind(app, listChannelCannedResponses, 'canned_responses.use', async ({ session, params, query }) => {
    const channel = await db(session).channel.findFirst({ where: { id: params.id, deletedAt: null }, select: { workspaceId: true } });
    if (!channel) throw new AppError('not_found', 'Channel not found');
    const rows = await db(session).cannedResponse.findMany({
      where: { workspaceId: channel.workspaceId, deletedAt: null, ...(query.sector_uuid ? { OR: [{ sectorIds: { isEmpty: true } }, { sectorIds: { has: query.sector_uuid } }] } : {}) },
      orderBy: { keyword: 'asc' },
    });
    return { data: await presentCannedResponses(db(session), rows) };
  });
}
