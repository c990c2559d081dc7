import { AppError } from '@atende/contract';
import {
  agentRefById,
  claimContactIdentity,
  findLiveContact,
  hasOpenConversationOnChannel,
  insertOutboundConversation,
  liveTenantChannel,
  liveTenantChannelTemplate,
  lockContactRow,
} from '@atende/db';
import { inTransaction, nextTicketNumber, presentMessage, presentTemplate, type Tx } from '@atende/conversations';
import { canStartConversationOn, isTemplateRequiredOnStart, needsSubjectOnStart, renderTemplateText, templateTypeOf } from '@atende/core';
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { isDeliverable } from '../messages/service';

/**
 * The approved standard template an agent starts with (media or interactive templates
 * are listed but cannot be chosen), rendered with its parameters; kept on the message for the
 * provider's template send.
 */
async function templateMessage(tx: Tx, tenantId: string, channelId: string, templateId: string, parameters: string[]) {
  const row = await liveTenantChannelTemplate(tx, tenantId, channelId, templateId);
  if (!row) throw new AppError('template_not_found', 'Template not found');
  const template = presentTemplate(row);
  if (template.config.status !== 'APPROVED')
    throw new AppError('template_not_approved', 'Only approved templates can be used', [
      { path: 'template_uuid', message: 'Only approved templates can be used' },
    ]);
  if (templateTypeOf(template.config.components) !== 'standard') {
    throw new AppError('template_cannot_start', 'Media or interactive templates cannot start a conversation', [
      { path: 'template_uuid', message: 'Media or interactive templates cannot start a conversation' },
    ]);
  }
  const body = template.config.components.find((c) => c.type === 'BODY');
  const text = renderTemplateText(body?.text ?? '', parameters);
  if (/\{\{\d+\}\}/.test(text)) {
    throw new AppError('template_parameters_missing', 'Fill in every template parameter', [
      { path: 'template_parameters', message: 'Fill in every template parameter' },
    ]);
  }
  return {
    text,
    stored: {
      uuid: template.uuid,
      name: template.name,
      language: template.config.language,
      body: parameters,
      header: null,
      url_buttons: [],
    },
  };
}

/**
 * A new outbound e-mail: its subject is required and the contact needs an e-mail
 * address, which becomes the contact's identity on the channel (where replies come from) unless it
 * is another contact's there.
 */
async function emailRecipient(
  tx: Tx,
  tenantId: string,
  channelId: string,
  contact: { id: string; email: string | null },
  subject: string | undefined,
) {
  if (!subject?.trim())
    throw new AppError('subject_required', 'Subject is required', [{ path: 'subject', message: 'Subject is required' }]);
  const address = contact.email?.trim().toLowerCase();
  if (!address)
    throw new AppError('contact_no_email', 'This contact has no e-mail address', [
      { path: 'channel_uuid', message: 'This contact has no e-mail address' },
    ]);
  if (!(await claimContactIdentity(tx, tenantId, channelId, contact.id, address)))
    throw new AppError('contact_email_taken', 'Another contact uses this e-mail address on this channel');
  return { subject: subject.trim() };
}

/** Starts an outbound conversation (Start conversation rules). */
export async function startOutbound(
  ctx: AppContext,
  session: Session,
  contactId: string,
  body: { channel_uuid: string; template_uuid?: string; template_parameters?: string[]; initial_message?: string; subject?: string },
): Promise<string> {
  const { result } = await inTransaction(ctx, async (tx, effects) => {
    const contact = await findLiveContact(tx, session.tenantId, contactId);
    if (!contact) throw new AppError('contact_not_found', 'Contact not found');
    const channel = await liveTenantChannel(tx, session.tenantId, body.channel_uuid);
    if (!channel) throw new AppError('channel_not_found', 'Channel not found');
    if (!channel.enabled) throw new AppError('channel_disabled', 'This channel is disabled');
    if (!canStartConversationOn(channel.type))
      throw new AppError('channel_cannot_start', 'Conversations cannot be started on this channel');
    const templateRequired = isTemplateRequiredOnStart({
      type: channel.type,
      template_required_on_outbound_start: channel.templateRequiredOnOutboundStart,
    });
    if (templateRequired && !body.template_uuid)
      throw new AppError('template_required', 'Template is required', [{ path: 'template_uuid', message: 'Template is required' }]);
    const template = body.template_uuid
      ? await templateMessage(tx, session.tenantId, channel.id, body.template_uuid, body.template_parameters ?? [])
      : null;
    const text = template?.text ?? body.initial_message?.trim() ?? '';
    if (!text)
      throw new AppError('initial_message_required', 'Initial message is required', [
        { path: 'initial_message', message: 'Initial message is required' },
      ]);
    const email = needsSubjectOnStart(channel) ? await emailRecipient(tx, session.tenantId, channel.id, contact, body.subject) : null;
    await lockContactRow(tx, contact.id);
    if (await hasOpenConversationOnChannel(tx, session.tenantId, contact.id, channel.id))
      throw new AppError('contact_conversation_open_on_channel', 'This contact already has an open conversation on this channel');
    const me = await agentRefById(tx, session.userId);
    const now = new Date();
    const messageId = randomUUID();
    const { conversation: conv, first } = await insertOutboundConversation(tx, {
      tenantId: session.tenantId,
      workspaceId: session.workspaceId,
      contactId: contact.id,
      channelId: channel.id,
      sectorId: channel.entrySectorId,
      agent: me,
      ticketNumber: await nextTicketNumber(tx, session.tenantId),
      at: now,
      message: {
        id: messageId,
        content: text,
        deliver: isDeliverable(channel.type),
        ...(template ? { templateMessage: template.stored } : {}),
        // The worker threads the e-mail under this subject (and later replies under "Re: subject").
        ...(email ? { interactiveContent: { type: 'email', subject: email.subject } } : {}),
      },
    });
    effects.conversation(conv.id, true);
    effects.messages.push({
      tenantId: session.tenantId,
      conversationId: conv.id,
      holderUuid: me.uuid,
      message: presentMessage(first, { user: { uuid: me.uuid, username: me.username } }),
    });
    return conv.id;
  });
  return result;
}
