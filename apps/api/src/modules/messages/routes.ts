import { getChannelMessage, getMessage, listMessages, markMessages, receiveChannelMessage, sendMessage } from '@atende/contract';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { InboundService } from '../channels-inbound/service';
import type { MessageService } from './service';

export function messageRoutes(app: FastifyInstance, messages: MessageService, inbound: InboundService): void {
  bind(app, listMessages, 'signed_in', async ({ session, params, query }) => messages.list(session, params.id, query));
  bind(app, sendMessage, 'signed_in', async ({ session, params, body }) => ({
    data: { data: [await messages.send(session, params.id, body)] },
  }));
  bind(app, markMessages, 'signed_in', async ({ session, params, body }) => ({
    data: await messages.markRead(session, params.id, body.messages_uuids),
  }));
  bind(app, getMessage, 'signed_in', async ({ session, params }) => ({ data: await messages.get(session, params.id) }));
  bind(app, receiveChannelMessage, 'public', async ({ params, body, request }) => ({
    data: await inbound.receive(params.id, request.headers.authorization, body),
  }));
  bind(app, getChannelMessage, 'public', async ({ params, request }) => ({
    data: await inbound.stored(params.id, request.headers.authorization, params.message_id),
  }));
}
