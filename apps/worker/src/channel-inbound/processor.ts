import { channelKind, storableStrings } from '@atende/core';
import {
  ChannelDeliveryError,
  channelDefinition,
  decryptCredentials,
  isProviderAdapter,
  type ChannelAdapter,
  type ChannelTarget,
  type InboundEvent,
  type InboundMedia,
  type ProviderChannelAdapter,
} from '@atende/channels';
import { channelTypeFacts, queues, UPLOAD_ALLOWED_TYPES, type LeftOut } from '@atende/contract';
import {
  announceCampaign,
  announceTemplate,
  applyTemplateStatus,
  InboundReceiver,
  type InboundInput,
  messageIdFor,
  receiveQueuedChannelMessage,
  stopCampaigns,
  type AnnexRow,
  type ConversationDeps,
} from '@atende/conversations';
import { fileTypeRefusal, safeFilename, type StorageDriver } from '@atende/storage';
import { randomUUID } from 'node:crypto';
import {
  contactIdOfIdentity,
  insertStoredFile,
  providerChannelRow,
  markFailedByProvider,
  messageExists,
  openConversationOfThread,
  outboundMessageByExternalId,
  scoped,
  sentMessagesToContactUpTo,
  storeDeliveryStatus,
  withTransaction,
  type Db,
} from '@atende/db';
import type { RealtimeOutbox } from '@atende/queue';
import type { Logger } from 'pino';
import { emitMessagesAck } from '../channel-delivery/processor';
import { applyCampaignReceipt } from '../campaigns/receipts';

export interface ChannelInboundDeps {
  db: Db;
  realtime: Pick<RealtimeOutbox, 'emit'>;
  adapters: Map<string, ChannelAdapter>;
  secretsKey: Buffer;
  /** Where contacts' media is kept (the storage writer the api also reads from). */
  storage: StorageDriver;
  log: Logger;
}

/** WhatsApp's own ceiling for media a contact can send (Telegram lets bots download up to 20 MB; bigger is refused as lost media). */
export const INBOUND_MEDIA_MAX_BYTES = 16 * 1024 * 1024;

export interface InboundOutcome {
  messages: number;
  statuses: number;
  templates: number;
  ignored: number;
}

const ERROR_MESSAGE_MAX = 500;

/**
 * The note a contact's message keeps of media that was not kept (`left_out`, beside the message's
 * details): the refused type, or null when it could not be downloaded. The web words it.
 */
const leftOutOf = (kept: AnnexRow | { refusedType: string } | null): LeftOut => ({
  refused_type: kept && 'refusedType' in kept ? kept.refusedType : null,
});

/**
 * Downloads a contact's media from the provider's own hosts (the adapter refuses any other) and
 * keeps it as a StoredFile. A permanent failure (refused host, too big) answers null: the message
 * is still taken, saying its media was lost; a transient one throws so the job is retried. A file
 * the upload route would refuse (fileTypeRefusal: HTML, SVG, a type that lies about its bytes) is
 * not kept either: its type is answered so the message says what was left out.
 */
async function keepMedia(
  deps: ChannelInboundDeps,
  adapter: ProviderChannelAdapter,
  target: ChannelTarget,
  tenantId: string,
  media: InboundMedia,
): Promise<AnnexRow | { refusedType: string } | null> {
  let file: { bytes: Buffer; contentType: string; filename: string | null };
  try {
    file = await adapter.fetchMedia(media, target, INBOUND_MEDIA_MAX_BYTES);
  } catch (error) {
    if (error instanceof ChannelDeliveryError && error.kind === 'permanent') {
      deps.log.warn({ channelId: target.uuid, reason: error.message }, 'inbound media not downloaded');
      return null;
    }
    throw error;
  }
  const id = randomUUID();
  const key = `${tenantId}/${id}`;
  const contentType = (file.contentType.split(';')[0] ?? 'application/octet-stream').trim().slice(0, 120) || 'application/octet-stream';
  const refusal = fileTypeRefusal({ contentType, bytes: file.bytes }, UPLOAD_ALLOWED_TYPES);
  if (refusal) {
    deps.log.warn({ channelId: target.uuid, type: refusal.type, reason: refusal.code }, 'inbound attachment of a refused type left out');
    return { refusedType: refusal.type };
  }
  const originalFilename = safeFilename(file.filename ?? media.filename ?? undefined, `media-${id.slice(0, 8)}`);
  await deps.storage.put(key, file.bytes, { contentType, size: file.bytes.length });
  try {
    const row = await insertStoredFile(deps.db, {
      id,
      tenantId,
      originalFilename,
      contentType,
      size: file.bytes.length,
      service: deps.storage.service,
      storageKey: key,
      uploadedById: null,
    });
    return { id: row.id, contentType: row.contentType, originalFilename: row.originalFilename, size: row.size, service: row.service };
  } catch (error) {
    await deps.storage.remove(key).catch(() => undefined);
    throw error;
  }
}

/** One provider status update of an outbound message: state, failure and messages-ack. */
async function applyStatus(
  deps: ChannelInboundDeps,
  tenantId: string,
  channelId: string,
  event: Extract<InboundEvent, { kind: 'status' }>,
): Promise<boolean> {
  const db = scoped(deps.db, { tenantId });
  const message = await outboundMessageByExternalId(db, channelId, event.externalId);
  if (!message) return false;
  const ack = { tenantId, conversationId: message.conversationId, messageId: message.id };
  if (event.status === 'failed') {
    if (message.status === 'failed') return false;
    const reason = event.error ? `${event.error.code}: ${event.error.title}` : 'The provider could not deliver this message';
    await markFailedByProvider(db, message.id, reason.slice(0, ERROR_MESSAGE_MAX));
    await emitMessagesAck(deps, db, ack, message.state === 'pending' ? 'pending' : 'sent', 'failed', {
      error_message: reason.slice(0, ERROR_MESSAGE_MAX),
      retryable: true,
    });
    return true;
  }
  // Only news that moves the message forward is kept: a late 'delivered' never undoes 'read'.
  if (!(await storeDeliveryStatus(deps.db, tenantId, message.id, event.status))) return false;
  const state = event.status === 'read' ? 'read' : 'sent';
  await emitMessagesAck(deps, db, ack, state, null, { delivered: event.status === 'delivered' });
  return true;
}

/** How many of a contact's latest messages a read watermark is applied to (older ones were read by earlier receipts). */
const WATERMARK_BATCH = 50;

/** A read watermark (Messenger): our messages to that contact on the channel, sent up to then, become read. */
async function applyReadWatermark(
  deps: ChannelInboundDeps,
  tenantId: string,
  channelId: string,
  event: Extract<InboundEvent, { kind: 'read-up-to' }>,
): Promise<number> {
  const db = scoped(deps.db, { tenantId });
  const contactId = await contactIdOfIdentity(db, channelId, event.sender);
  if (!contactId) return 0;
  const unread = await sentMessagesToContactUpTo(db, channelId, contactId, event.at, WATERMARK_BATCH);
  let applied = 0;
  for (const m of unread) {
    if (
      await applyStatus(deps, tenantId, channelId, { kind: 'status', externalId: m.externalId!, status: 'read', error: null, at: event.at })
    )
      applied++;
  }
  return applied;
}

/**
 * Who wrote: a phone number (WhatsApp), or a provider identity (Telegram user id) whose username is
 * kept on the contact as `<type>_username`.
 */
function contactOf(event: Extract<InboundEvent, { kind: 'message' }>, channelType: string): InboundInput['contact'] {
  if (!event.sender) return { phone: event.from, ...(event.profileName ? { name: event.profileName } : {}) };
  const { identifier, name, username } = event.sender;
  const kind = channelKind(channelType);
  // An e-mail channel's contact is known by their address, also kept as the contact's e-mail.
  const email = channelDefinition(channelType)?.senderIsEmail ? { email: identifier } : {};
  return { identifier, ...email, ...(name ? { name } : {}), ...(username ? { fields: { [`${kind}_username`]: username } } : {}) };
}

/**
 * A sender without a name in the webhook (Messenger, Instagram): asked of the provider once, when the
 * identity is new to the channel; a refused or failed lookup leaves the channel's generic name.
 */
async function withSenderName(
  deps: ChannelInboundDeps,
  adapter: ProviderChannelAdapter,
  target: ChannelTarget,
  event: Extract<InboundEvent, { kind: 'message' }>,
) {
  const sender = event.sender;
  if (!sender || sender.name || !adapter.senderName) return event;
  if (await contactIdOfIdentity(deps.db, target.uuid, sender.identifier)) return event;
  const name = await adapter.senderName(sender.identifier, target).catch((error: unknown) => {
    deps.log.warn({ channelId: target.uuid, reason: (error as Error).message }, 'sender name not available');
    return null;
  });
  // What the channel's definition calls a sender the provider gives no name for (Messenger user).
  return { ...event, sender: { ...sender, name: name ?? channelDefinition(target.type)?.unnamedSender ?? null } };
}

/**
 * The open conversation of the e-mail thread a mail answers (its In-Reply-To, then its References,
 * newest first), or null: a colleague in copy replying joins the conversation instead of opening one.
 */
async function threadOf(
  deps: ChannelInboundDeps,
  channel: { id: string; tenantId: string },
  details: Record<string, unknown> | null | undefined,
) {
  const ids = [details?.in_reply_to, ...(Array.isArray(details?.references) ? [...details.references].reverse() : [])].filter(
    (id): id is string => typeof id === 'string' && id.length > 0,
  );
  return openConversationOfThread(deps.db, channel.tenantId, channel.id, ids);
}

/**
 * One accepted inbound delivery (queue channel-inbound): a custom API channel's post, or a verified
 * provider webhook whose contact messages enter conversations (idempotent by the provider's message id),
 * status updates move our messages' state, template status changes reach open template lists.
 * A malformed body is dropped (logged); a failure of ours throws so BullMQ retries.
 */
export async function processInbound(deps: ChannelInboundDeps, raw: unknown): Promise<InboundOutcome> {
  const job = queues.channelInbound.payload.parse(raw);
  const outcome: InboundOutcome = { messages: 0, statuses: 0, templates: 0, ignored: 0 };
  const channel = await providerChannelRow(deps.db, job.tenant_uuid, job.channel_uuid);
  if (!channel) return { ...outcome, ignored: 1 };
  const acceptedAt = Date.parse(job.received_at);
  const conversationDeps: ConversationDeps = { db: deps.db, realtime: deps.realtime, log: deps.log };
  const receiver = new InboundReceiver(conversationDeps);
  if (channelTypeFacts(channel.type)?.inbound === 'token') {
    // The custom API channel's post, checked and queued by the api.
    if (!channel.enabled) {
      deps.log.warn({ channelId: channel.id }, 'message to a disabled channel not taken; enable the channel to receive its messages');
      return { ...outcome, ignored: 1 };
    }
    const stored = await receiveQueuedChannelMessage(receiver, channel, job.raw_body, new Date(acceptedAt));
    if (!stored) deps.log.warn({ channelId: channel.id }, 'queued custom channel message not understood; dropped');
    return { ...outcome, ...(stored ? { messages: 1 } : { ignored: 1 }) };
  }
  const adapter = deps.adapters.get(channelKind(channel.type));
  if (!adapter || !isProviderAdapter(adapter)) return { ...outcome, ignored: 1 };
  const target: ChannelTarget = {
    uuid: channel.id,
    type: channel.type,
    config: channel.config,
    credentials: channel.credentialsEncrypted ? decryptCredentials(channel.credentialsEncrypted, deps.secretsKey) : null,
  };
  let events: InboundEvent[];
  try {
    events = await adapter.parseWebhook({ rawBody: job.raw_body, contentType: job.content_type }, target);
  } catch (error) {
    if (error instanceof ChannelDeliveryError) {
      deps.log.warn({ channelId: channel.id, reason: error.message }, 'webhook body not understood; dropped');
      return { ...outcome, ignored: 1 };
    }
    throw error;
  }
  const handleEvent = async (event: InboundEvent, index: number): Promise<void> => {
    if (event.kind === 'message') {
      if (!channel.enabled) {
        // The admin turned the channel off: its contacts' messages are not taken, but never in silence.
        deps.log.warn(
          { channelId: channel.id, externalId: event.externalId },
          'message to a disabled channel not taken; enable the channel to receive its messages',
        );
        outcome.ignored++;
        return;
      }
      // A retried job must not download (and keep) the media of a message already stored.
      const known = await messageExists(deps.db, messageIdFor(channel.id, event.externalId));
      const kept = event.media && !known ? await keepMedia(deps, adapter, target, channel.tenantId, event.media) : null;
      const annex = kept && !('refusedType' in kept) ? kept : null;
      const text = event.button?.text ?? event.text ?? event.media?.caption ?? '';
      const leftOut = event.media && !known && !annex ? leftOutOf(kept) : null;
      const details = leftOut ? { ...event.details, left_out: leftOut } : event.details;
      // The receiver also answers a campaign the message replies to (conversation-entry.ts: one step per message).
      await receiver.receive(channel, {
        thread: channelDefinition(channel.type)?.emailThreads ? await threadOf(deps, channel, event.details) : null,
        contact: contactOf(await withSenderName(deps, adapter, target, event), channel.type),
        message: {
          id: event.externalId,
          // In the order accepted: the webhook's time, and the events of one webhook one millisecond apart.
          at: new Date(acceptedAt + index),
          content: text,
          ...(annex ? { annex, ...(event.media?.voice ? { voice: true } : {}) } : {}),
          context_id: event.contextExternalId,
          ...(event.button
            ? {
                interactive: {
                  type: 'button' as const,
                  text: event.button.text,
                  payload: event.button.payload,
                  context_id: event.contextExternalId,
                },
              }
            : {}),
          ...(details ? { details } : {}),
        },
      });
      outcome.messages++;
    } else if (event.kind === 'read-up-to') {
      const read = await applyReadWatermark(deps, channel.tenantId, channel.id, event);
      if (read) outcome.statuses += read;
      else outcome.ignored++;
    } else if (event.kind === 'status') {
      // A campaign's message is a subscriber's send (and, once replied to, also a conversation message).
      const toMessage = await applyStatus(deps, channel.tenantId, channel.id, event);
      const receipt = await applyCampaignReceipt(deps.db, channel.tenantId, channel.id, event);
      if (toMessage || receipt.outcome === 'applied') outcome.statuses++;
      else if (receipt.outcome === 'early') throw new Error('status of a campaign send whose outcome is not written yet; retried');
      else outcome.ignored++;
    } else if (event.kind === 'connection') {
      // The link to the provider (a WhatsApp Web phone): read live by the channel's settings screen; a lost one is logged for the operator.
      const entry = { channelId: channel.id, state: event.state, reason: event.reason };
      if (event.state === 'close') {
        // Nothing can be sent until the phone is linked again: its campaigns stop (pending subscribers
        // stay pending, so Start sends them later) instead of failing every send.
        const stopped = await withTransaction(deps.db, (tx) => stopCampaigns(tx, { tenantId: channel.tenantId, channelId: channel.id }));
        for (const id of stopped) await announceCampaign(deps, id);
        deps.log.warn(
          { ...entry, stoppedCampaigns: stopped.length },
          'channel disconnected from its provider: its campaigns stopped; link the phone again in the channel settings',
        );
      } else deps.log.info(entry, 'channel connection changed');
      outcome.ignored++;
    } else if (event.kind === 'ignored') {
      deps.log.info({ channelId: channel.id, reason: event.reason }, 'provider event not taken');
      outcome.ignored++;
    } else {
      const changed = await applyTemplateStatus(deps.db, channel.id, event);
      if (changed) {
        await announceTemplate(deps, changed);
        outcome.templates++;
      } else outcome.ignored++;
    }
  };
  // One message that cannot be stored must not lose the others of the same webhook:
  // each event is cleaned of what Postgres refuses and handled on its own; a failure is logged and
  // the job fails after the rest are stored, so a retry (idempotent by message id) tries it again.
  let failure: unknown = null;
  for (const [index, raw] of events.entries()) {
    const event = storableStrings(raw);
    if (event !== raw)
      deps.log.warn(
        { channelId: channel.id, externalId: event.kind === 'message' ? event.externalId : undefined },
        'inbound event had characters that cannot be stored; cleaned',
      );
    try {
      await handleEvent(event, index);
    } catch (error) {
      failure ??= error;
      deps.log.error({ err: error, channelId: channel.id, kind: event.kind }, 'inbound event failed; the others of the webhook go on');
    }
  }
  if (failure) throw failure;
  return outcome;
}
