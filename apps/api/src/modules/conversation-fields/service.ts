import { AppError } from '@atende/contract';
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
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { presentCannedResponses } from '../settings/canned';

/** Conversation fields and the composer's canned responses. */
export class ConversationFieldService {
  constructor(private readonly ctx: AppContext) {}

  /** The conversation, if the caller may edit its fields: its agent, or a supervisor-level user. */
  private async editable(session: Session, id: string) {
    const conv = await conversationForFields(this.ctx.db, session.tenantId, id);
    if (!conv) throw new AppError('conversation_not_found', 'Conversation not found');
    if (conv.userId !== session.userId && !roleCovers(session.roles, 'supervisor'))
      throw new AppError('conversation_not_yours', 'This conversation is not assigned to you');
    return conv;
  }

  private async values(session: Session, conversationId: string) {
    const rows = await conversationFieldValues(this.ctx.db, session.tenantId, conversationId);
    return rows.map((r) => ({ field_uuid: r.fieldId, name: r.field.name, field_value: r.value }));
  }

  async listDefinitions(session: Session) {
    const rows = await listConversationFieldDefinitionRows(this.ctx.db, session.tenantId);
    return rows.map((r) => ({ uuid: r.id, name: r.name }));
  }

  async createDefinition(session: Session, name: string) {
    const taken = await conversationFieldNameTaken(this.ctx.db, session.tenantId, name);
    if (taken) throw new AppError('conversation_field_name_taken', 'A field with this name already exists');
    const row = await insertConversationFieldDefinition(this.ctx.db, session.tenantId, name);
    return { uuid: row.id, name: row.name };
  }

  async get(session: Session, conversationId: string) {
    // Reading goes with reading the conversation (a journey, a campaign's reply); changing stays its holder's.
    const conv = await conversationForFields(this.ctx.db, session.tenantId, conversationId);
    if (!conv || !(await mayRead(this.ctx.db, session, conv))) throw new AppError('conversation_not_found', 'Conversation not found');
    return this.values(session, conversationId);
  }

  async set(session: Session, conversationId: string, fieldId: string, value: string) {
    await this.editable(session, conversationId);
    const field = await findConversationFieldDefinition(this.ctx.db, session.tenantId, fieldId);
    if (!field) throw new AppError('conversation_field_not_found', 'Field not found');
    await setConversationFieldValue(this.ctx.db, session.tenantId, conversationId, field.id, value);
    return this.values(session, conversationId);
  }

  async cannedResponses(session: Session, channelId: string, sectorId: string | undefined) {
    const rows = await cannedResponsesOfChannel(this.ctx.db, session.tenantId, channelId, sectorId);
    if (!rows) throw new AppError('channel_not_found', 'Channel not found');
    return presentCannedResponses(this.ctx.db, session.tenantId, rows);
  }
}
