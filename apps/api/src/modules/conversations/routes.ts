import {
  acceptConversation,
  getConversation,
  getConversationHistory,
  getOfferedToMe,
  getTransferDestinations,
  getWaitingQueue,
  listContactConversations,
  listConversationReasons,
  listConversations,
  listPauses,
  replaceConversation,
  startConversation,
  updateConversation,
} from '@atende/contract';
import { AppError } from '@atende/contract';
import { acceptNext } from '@atende/conversations';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import { ConversationLists } from './lists';
import type { ConversationService } from './service';
import { startOutbound } from './start';

export function conversationRoutes(app: FastifyInstance, ctx: AppContext, conversations: ConversationService): void {
  const lists = new ConversationLists(ctx, conversations);
  bind(app, listConversations, 'signed_in', async ({ session, query }) => lists.list(session, query));
  bind(app, getWaitingQueue, 'signed_in', async ({ session }) => ({ data: { quantity_waiting_queue: await lists.waitingCount(session) } }));
  bind(app, getOfferedToMe, 'workstation', async ({ session }) => ({ data: await lists.offeredToMe(session) }));
  bind(app, getTransferDestinations, 'signed_in', async ({ session }) => ({ data: await lists.transferDestinations(session) }));
  bind(app, getConversationHistory, 'signed_in', async ({ session, query }) => lists.dayHistory(session, query));
  bind(app, getConversation, 'signed_in', async ({ session, params }) => ({ data: await conversations.get(session, params.id) }));
  bind(app, acceptConversation, 'workstation', async ({ session, body }) => {
    if (body.user_id !== session.userId) throw new AppError('accept_own_only', 'You can only accept sessions for yourself');
    const id = await acceptNext(ctx, session.tenantId, session.workspaceId, session.userId);
    return { data: await conversations.get(session, id) };
  });
  for (const def of [updateConversation, replaceConversation]) {
    bind(app, def, 'signed_in', async ({ session, params, body }) => ({ data: await conversations.act(session, params.id, body) }));
  }
  bind(app, startConversation, 'conversations.start', async ({ session, params, body }) => {
    const id = await startOutbound(ctx, session, params.id, body);
    return { data: await conversations.get(session, id) };
  });
  bind(app, listContactConversations, 'signed_in', async ({ session, params, query }) => {
    return lists.ofContact(session, params.id, query);
  });
  bind(app, listConversationReasons, 'signed_in', async ({ session, query }) => {
    return { data: await lists.reasons(session, query.name__contains) };
  });
  bind(app, listPauses, 'signed_in', async ({ session }) => {
    return { data: await lists.pauses(session) };
  });
}
