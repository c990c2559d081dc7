import { AppError, queues } from '@atende/contract';
import { inTransaction, presentMessage } from '@atende/conversations';
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { nextTicketNumber } from '../channels-inbound/service';
import { DELIVERABLE_CHANNEL_TYPES } from '../messages/service';

/** Channel types an agent may start a conversation on (spec 000 §5). */
export const OUTBOUND_CHANNEL_TYPES = new Set(['whatsapp_360dialog', 'whatsapp_web', 'custom', 'droz', 'API']);

/** Starts an outbound conversation (spec 000 §5 Start conversation rules). */
export async function startOutbound(
  ctx: AppContext,
  session: Session,
  contactId: string,
  body: { channel_uuid: string; template_uuid?: string; template_parameters?: string[]; initial_message?: string },
): Promise<string> {
  const { result } = await inTransaction(ctx, async (tx, effects) => {
    const contact = await tx.contact.findFirst({ where: { id: contactId, tenantId: session.tenantId, deletedAt: null } });
    if (!contact) throw new AppError('not_found', 'Contact not found');
    const channel = await tx.channel.findFirst({ where: { id: body.channel_uuid, tenantId: session.tenantId, deletedAt: null } });
    if (!channel) throw new AppError('not_found', 'Channel not found');
    if (!channel.enabled) throw new AppError('conflict', 'This channel is disabled');
    if (!OUTBOUND_CHANNEL_TYPES.has(channel.type)) throw new AppError('validation_failed', 'Conversations cannot be started on this channel');
    const templateRequired = channel.type === 'whatsapp_360dialog' || channel.templateRequiredOnOutboundStart;
    if (templateRequired && !body.template_uuid) throw new AppError('validation_failed', 'Template is required', [{ path: 'template_uuid', message: 'Template is required' }]);
    // Templates arrive with the WhatsApp template manager (issue 5).
    if (body.template_uuid) throw new AppError('not_found', 'Template not found');
    const text = body.initial_message?.trim() ?? '';
    if (!text) throw new AppError('validation_failed', 'Initial message is required', [{ path: 'initial_message', message: 'Initial message is required' }]);
    await tx.$queryRaw`SELECT id FROM "Contact" WHERE id = ${contact.id}::uuid FOR UPDATE`;
    const open = await tx.conversation.findFirst({ where: { tenantId: session.tenantId, contactId: contact.id, channelId: channel.id, state: { not: 'closed' } } });
    if (open) throw new AppError('conflict', 'This contact already has an open conversation on this channel');
    const me = await tx.user.findUniqueOrThrow({ where: { id: session.userId } });
    const now = new Date();
    const conv = await tx.conversation.create({
      data: {
        tenantId: session.tenantId, workspaceId: session.workspaceId, contactId: contact.id, channelId: channel.id, sectorId: channel.entrySectorId,
        userId: me.id, state: 'outbound_started', type: 'outbound', ticketNumber: await nextTicketNumber(tx, session.tenantId), timeAnswer: now, lastMessageAt: now,
      },
    });
    await tx.conversationEvent.create({ data: { tenantId: session.tenantId, conversationId: conv.id, type: 'associate-user', detail: { user_uuid: me.uuid, user_email: me.email, done_by: 'outbound' } } });
    const messageId = randomUUID();
    const deliver = DELIVERABLE_CHANNEL_TYPES.has(channel.type);
    const first = await tx.message.create({
      data: { id: messageId, tenantId: session.tenantId, conversationId: conv.id, author: 'USER', userId: me.id, content: text, tags: [], state: 'pending', status: deliver ? 'sending' : null, createdAt: now },
    });
    if (deliver) await tx.outboxJob.create({ data: { tenantId: session.tenantId, queue: queues.channelDelivery.name, payload: { tenant_uuid: session.tenantId, message_uuid: messageId } } });
    effects.conversation(conv.id, true);
    effects.messages.push({ tenantId: session.tenantId, conversationId: conv.id, holderUuid: me.uuid, message: presentMessage(first, { user: { uuid: me.uuid, username: me.username } }) });
    return conv.id;
  });
  return result;
}
