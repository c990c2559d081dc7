import {
  createConversationFieldDefinition,
  getConversationFields,
  listChannelCannedResponses,
  listConversationFieldDefinitions,
  setConversationField,
} from '@atende/contract';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import { ConversationFieldService } from './service';

/** Conversation fields and the composer's canned responses. */
export function conversationFieldRoutes(app: FastifyInstance, ctx: AppContext): void {
  const fields = new ConversationFieldService(ctx);
  bind(app, listConversationFieldDefinitions, 'conversation_fields.use', async ({ session }) => ({
    data: await fields.listDefinitions(session),
  }));
  bind(app, createConversationFieldDefinition, 'conversation_fields.define', async ({ session, body }) => ({
    data: await fields.createDefinition(session, body.name),
  }));
  bind(app, getConversationFields, 'conversation_fields.use', async ({ session, params }) => ({
    data: await fields.get(session, params.id),
  }));
  bind(app, setConversationField, 'conversation_fields.use', async ({ session, params, body }) => ({
    data: await fields.set(session, params.id, body.field_uuid, body.field_value),
  }));

  bind(app, listChannelCannedResponses, 'canned_responses.use', async ({ session, params, query }) => ({
    data: await fields.cannedResponses(session, params.id, query.sector_uuid),
  }));
}
