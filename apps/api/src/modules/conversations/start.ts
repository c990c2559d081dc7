import { AppError, queues } from '@atende/contract';
import { enqueue } from '@atende/db';
import { inTransaction, nextTicketNumber, presentMessage, presentTemplate, templateInclude, type Tx } from '@atende/conversations';
import { canStartConversationOn, isTemplateRequiredOnStart, needsSubjectOnStart, renderTemplateText, templateTypeOf } from '@atende/core';
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { isDeliverable } from '../messages/service';


/**
 * The approved standard template an agent starts with (spec 000 §5: media or interactive templates
 * are listed but cannot be chosen), rendered with its parameters; kept on the message for the
 * provider's template send.
 */
async function templateMessage(tx: Tx, tenantId: string, channelId: string, templateId: string, parameters: string[]) {
  const row = await tx.outboundTemplate.findFirst({ where: { id: templateId, tenantId, channelId, deletedAt: null }, include: templateInclude });
  if (!row) throw new AppError('not_found', 'Template not found');
  const template = presentTemplate(row);
  if (template.config.status !== 'APPROVED') throw new AppError('validation_failed', 'Only approved templates can be used', [{ path: 'template_uuid', message: 'Only approved templates can be used' }]);
  if (templateTypeOf(template.config.components) !== 'standard') {
    throw new AppError('validation_failed', 'Media or interactive templates cannot start a conversation', [{ path: 'template_uuid', message: 'Media or interactive templates cannot start a conversation' }]);
  }
  const body = template.config.components.find((c) => c.type === 'BODY');
  const text = renderTemplateText(body?.text ?? '', parameters);
  if (/\{\{\d+\}\}/.test(text)) {
    throw new AppError('validation_failed', 'Fill in every template parameter', [{ path: 'template_parameters', message: 'Fill in every template parameter' }]);
  }
  return { text, stored: { uuid: template.uuid, name: template.name, language: template.config.language, body: parameters, header: null, url_buttons: [] } };
}

/**
 * A new outbound e-mail (issue 15 item 3): its subject is required and the contact needs an e-mail
 * address, which becomes the contact's identity on the channel (where replies come from) unless it
 * is another contact's there.
 */
async function emailRecipient(tx: Tx, tenantId: string, channelId: string, contact: { id: string; email: string | null }, subject: string | undefined) {
  if (!subject?.trim()) throw new AppError('validation_failed', 'Subject is required', [{ path: 'subject', message: 'Subject is required' }]);
  const address = contact.email?.trim().toLowerCase();
  if (!address) throw new AppError('validation_failed', 'This contact has no e-mail address', [{ path: 'channel_uuid', message: 'This contact has no e-mail address' }]);
  const identity = await tx.contactIdentity.findFirst({ where: { tenantId, channelId, identifier: address } });
  if (identity && identity.contactId !== contact.id) throw new AppError('conflict', 'Another contact uses this e-mail address on this channel');
  const mine = await tx.contactIdentity.findFirst({ where: { tenantId, channelId, contactId: contact.id } });
  if (mine && mine.identifier !== address) await tx.contactIdentity.update({ where: { id: mine.id }, data: { identifier: address } });
  else if (!mine) await tx.contactIdentity.create({ data: { tenantId, channelId, contactId: contact.id, identifier: address } });
  return { subject: subject.trim() };
}

/** Starts an outbound conversation (spec 000 §5 Start conversation rules). */
export async function startOutbound(
  ctx: AppContext,
  session: Session,
  contactId: string,
  body: { channel_uuid: string; template_uuid?: string; template_parameters?: string[]; initial_message?: string; subject?: string },
): Promise<string> {
  const { result } = await inTransaction(ctx, async (tx, effects) => {
    const contact = await tx.contact.findFirst({ where: { id: contactId, tenantId: session.tenantId, deletedAt: null } });
    if (!contact) throw new AppError('not_found', 'Contact not found');
    const channel = await tx.channel.findFirst({ where: { id: body.channel_uuid, tenantId: session.tenantId, deletedAt: null } });
    if (!channel) throw new AppError('not_found', 'Channel not found');
    if (!channel.enabled) throw new AppError('conflict', 'This channel is disabled');
    if (!canStartConversationOn(channel.type)) throw new AppError('validation_failed', 'Conversations cannot be started on this channel');
    const templateRequired = isTemplateRequiredOnStart({ type: channel.type, template_required_on_outbound_start: channel.templateRequiredOnOutboundStart });
    if (templateRequired && !body.template_uuid) throw new AppError('validation_failed', 'Template is required', [{ path: 'template_uuid', message: 'Template is required' }]);
    const template = body.template_uuid ? await templateMessage(tx, session.tenantId, channel.id, body.template_uuid, body.template_parameters ?? []) : null;
    const text = template?.text ?? body.initial_message?.trim() ?? '';
    if (!text) throw new AppError('validation_failed', 'Initial message is required', [{ path: 'initial_message', message: 'Initial message is required' }]);
    const email = needsSubjectOnStart(channel) ? await emailRecipient(tx, session.tenantId, channel.id, contact, body.subject) : null;
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
    const deliver = isDeliverable(channel.type);
    const first = await tx.message.create({
      data: { id: messageId, tenantId: session.tenantId, conversationId: conv.id, author: 'USER', userId: me.id, content: text, tags: [], state: 'pending', status: deliver ? 'sending' : null, createdAt: now,
        ...(template ? { templateMessage: template.stored } : {}),
        // The worker threads the e-mail under this subject (and later replies under "Re: subject").
        ...(email ? { interactiveContent: { type: 'email', subject: email.subject } } : {}),
      },
    });
    if (deliver) await enqueue(tx, queues.channelDelivery.name, { tenant_uuid: session.tenantId, message_uuid: messageId });
    effects.conversation(conv.id, true);
    effects.messages.push({ tenantId: session.tenantId, conversationId: conv.id, holderUuid: me.uuid, message: presentMessage(first, { user: { uuid: me.uuid, username: me.username } }) });
    return conv.id;
  });
  return result;
}
