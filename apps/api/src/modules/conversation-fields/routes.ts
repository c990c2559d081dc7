import {
  AppError,
  createConversationFieldDefinition,
  getConversationFields,
  listChannelCannedResponses,
  listConversationFieldDefinitions,
  setConversationField,
} from '@atende/contract';
import { roleCovers } from '@atende/core';
import {
  cannedResponsesOfChannel,
  conversationFieldNameTaken,
  conversationFieldValues,
  conversationForFields,
  findConversationFieldDefinition,
  insertConversationFieldDefinition,
  listConversationFieldDefinitionRows,
  setConversationFieldValue,
} from '@atende/db';
import { mayRead } from '../conversations/access';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { presentCannedResponses } from '../settings/canned';

/** Conversation fields and the composer's canned responses. */
export function conversationFieldRoutes(app: FastifyInstance, ctx: AppContext): void {
  /** The conversation, if the caller may edit its fields: its agent, or a supervisor-level user. */
  async function editable(session: Session, id: string) {
    const conv = await conversationForFields(ctx.db, session.tenantId, id);
    if (!conv) throw new AppError('conversation_not_found', 'Conversation not found');
    if (conv.userId !== session.userId && !roleCovers(session.roles, 'supervisor'))
      throw new AppError('conversation_not_yours', 'This conversation is not assigned to you');
    return conv;
  }
  async function values(session: Session, conversationId: string) {
    const rows = await conversationFieldValues(ctx.db, session.tenantId, conversationId);
    return rows.map((r) => ({ field_uuid: r.fieldId, name: r.field.name, field_value: r.value }));
  }

  bind(app, listConversationFieldDefinitions, 'conversation_fields.use', async ({ session }) => {
    const rows = await listConversationFieldDefinitionRows(ctx.db, session.tenantId);
    return { data: rows.map((r) => ({ uuid: r.id, name: r.name })) };
  });
  bind(app, createConversationFieldDefinition, 'conversation_fields.define', async ({ session, body }) => {
    const taken = await conversationFieldNameTaken(ctx.db, session.tenantId, body.name);
    if (taken) throw new AppError('conversation_field_name_taken', 'A field with this name already exists');
    const row = await insertConversationFieldDefinition(ctx.db, session.tenantId, body.name);
    return { data: { uuid: row.id, name: row.name } };
  });
  bind(app, getConversationFields, 'conversation_fields.use', async ({ session, params }) => {
    // Reading goes with reading the conversation (a journey, a campaign's reply); changing stays its holder's.
    const conv = await conversationForFields(ctx.db, session.tenantId, params.id);
    if (!conv || !(await mayRead(ctx.db, session, conv))) throw new AppError('conversation_not_found', 'Conversation not found');
    return { data: await values(session, params.id) };
  });
  bind(app, setConversationField, 'conversation_fields.use', async ({ session, params, body }) => {
    await editable(session, params.id);
    const field = await findConversationFieldDefinition(ctx.db, session.tenantId, body.field_uuid);
    if (!field) throw new AppError('conversation_field_not_found', 'Field not found');
    await setConversationFieldValue(ctx.db, session.tenantId, params.id, field.id, body.field_value);
    return { data: await values(session, params.id) };
  });

  bind(app, listChannelCannedResponses, 'canned_responses.use', async ({ session, params, query }) => {
    const rows = await cannedResponsesOfChannel(ctx.db, session.tenantId, params.id, query.sector_uuid);
    if (!rows) throw new AppError('channel_not_found', 'Channel not found');
    return { data: await presentCannedResponses(ctx.db, session.tenantId, rows) };
  });
}
