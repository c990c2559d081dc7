import { channelKind } from '@atende/core';
import { ChannelDeliveryError, type ChannelAdapter } from '@atende/channels';
import { INTERNAL_MESSAGE_TAG, queues } from '@atende/contract';
import { closeFailedTemplateStart, conversationAudience } from '@atende/conversations';
import {
  assignedAgentUuid,
  claimMessageForPosting,
  failPostingWithUnknownOutcome,
  markMessageFailed,
  markMessageSent,
  messageForDelivery,
  releaseMessagePosting,
  scoped,
  type Db,
  type ScopedDb,
} from '@atende/db';
import type { RealtimeOutbox } from '@atende/queue';
import type { StorageDriver } from '@atende/storage';
import type { Logger } from 'pino';
import { channelTargetOf, outboundMessageOf } from './outbound';

export interface ChannelDeliveryDeps {
  db: Db;
  realtime: Pick<RealtimeOutbox, 'emit'>;
  /** Adapters by channel type (packages/channels channelAdapters()). */
  adapters: Map<string, ChannelAdapter>;
  /** CHANNEL_SECRETS_KEY, decoded. */
  secretsKey: Buffer;
  /** Where the api is reached from outside, for annex links. */
  publicUrl: string;
  /** FILE_LINK_SECRET and FILE_LINK_TTL_SECONDS: annex links are signed so receivers need no session. */
  fileLinkSecret: string;
  fileLinkTtlSeconds?: number;
  /** Reads stored files, for providers that take attachments as uploads (Telegram); links only without it. */
  storage?: (service: string) => StorageDriver | null;
  log: Logger;
}

export interface DeliveryAttempt {
  /** No retry follows this attempt: a transient failure now marks the message failed. */
  finalAttempt: boolean;
}

export type DeliveryResult =
  | { outcome: 'sent'; externalId: string | null }
  | { outcome: 'failed'; reason: string }
  | {
      outcome: 'skipped';
      reason: 'not_found' | 'internal_note' | 'not_an_agent_message' | 'already_sent' | 'already_failed' | 'already_handled';
    };

const ERROR_MESSAGE_MAX = 500;
/**
 * Why a message is failed when it may have been delivered. The providers drop no
 * repeated request, so it is not posted again by itself; the agent sees it failed with this reason
 * and resends it only if the contact did not get it.
 */
export const OUTCOME_UNKNOWN =
  'The provider may have received this message, but its answer was lost: resend it only if the contact did not get it';

/**
 * Delivers one agent message to its channel (queue channel-delivery). Idempotent: a message that
 * is no longer pending is never posted again, so a re-run of a completed job (or a job dispatched
 * twice) changes nothing. Transient failures throw so BullMQ retries with backoff; permanent ones,
 * and transient ones on the last attempt, mark the message failed (failed, with retry
 * by the agent). Each state change reaches the conversation's audience as messages-ack.
 *
 * At most once against providers that drop no repeat: `postedAt` is written
 * before the request. A failure that may have delivered it (time-out, lost connection, gateway
 * 502/504: ChannelDeliveryError.outcomeUnknown) is not retried, and an attempt that finds `postedAt`
 * set (the worker died mid-post) does not post: both mark it failed with OUTCOME_UNKNOWN. Only a
 * failure proving the provider took nothing clears `postedAt` for the retry.
 */
export async function deliverMessage(deps: ChannelDeliveryDeps, raw: unknown, attempt: DeliveryAttempt): Promise<DeliveryResult> {
  const job = queues.channelDelivery.payload.parse(raw);
  const db = scoped(deps.db, { tenantId: job.tenant_uuid });
  const log = deps.log.child({ tenantId: job.tenant_uuid, messageId: job.message_uuid });

  const message = await messageForDelivery(db, job.message_uuid);
  if (!message) return { outcome: 'skipped', reason: 'not_found' };
  // Notes are for colleagues only: they never leave the platform.
  if (message.internal || message.tags.includes(INTERNAL_MESSAGE_TAG)) return { outcome: 'skipped', reason: 'internal_note' };
  if (message.author !== 'USER') return { outcome: 'skipped', reason: 'not_an_agent_message' };
  if (message.state !== 'pending') return { outcome: 'skipped', reason: 'already_sent' };
  // The agent's retry sets status back to 'sending' and writes a new outbox row.
  if (message.status === 'failed') return { outcome: 'skipped', reason: 'already_failed' };

  const ack = { tenantId: job.tenant_uuid, conversationId: message.conversationId, messageId: message.id };
  let posting = false;
  try {
    const channel = message.conversation.channel;
    const adapter = deps.adapters.get(channelKind(channel.type));
    if (!adapter) throw new ChannelDeliveryError('permanent', `Channel type ${channel.type} cannot deliver messages`);
    // The webhook address, for providers that are told per message where to report its status (Twilio SMS StatusCallback).
    const target = { ...channelTargetOf(channel, deps.secretsKey), webhookUrl: `${deps.publicUrl}/api/v1/channels/${channel.id}/webhook` };
    const outbound = await outboundMessageOf(db, message, {
      publicUrl: deps.publicUrl,
      secret: deps.fileLinkSecret,
      ttlSeconds: deps.fileLinkTtlSeconds,
      storage: deps.storage,
    });

    // Recorded before posting: only a still-pending, not-failed message no attempt began posting goes out.
    if (!(await claimMessageForPosting(db, message.id)))
      return (await markOutcomeUnknown(deps, db, ack, OUTCOME_UNKNOWN)) ?? { outcome: 'skipped', reason: 'already_handled' };

    posting = true;
    const { externalId } = await adapter.send(outbound, target);
    posting = false;
    await markMessageSent(db, message.id, externalId);
    await emitMessagesAck(deps, db, ack, 'sent', null);
    log.debug({ externalId }, 'message delivered');
    return { outcome: 'sent', externalId };
  } catch (error) {
    if (posting) {
      // An unexpected error may come after the request was written: its outcome is unknown too.
      const unknown = !(error instanceof ChannelDeliveryError) || error.outcomeUnknown;
      if (unknown) {
        const reason = `${OUTCOME_UNKNOWN} (${errorMessageOf(error)})`.slice(0, ERROR_MESSAGE_MAX);
        log.warn({ reason }, 'message delivery outcome unknown');
        return (await markOutcomeUnknown(deps, db, ack, reason)) ?? { outcome: 'skipped', reason: 'already_handled' };
      }
      // The provider took nothing: a later attempt may post it.
      await releaseMessagePosting(db, message.id);
    }
    const permanent = error instanceof ChannelDeliveryError && error.kind === 'permanent';
    if (!permanent && !attempt.finalAttempt) throw error;
    const reason = errorMessageOf(error).slice(0, ERROR_MESSAGE_MAX);
    if (message.templateMessage !== null && message.conversation.state === 'outbound_started') {
      // The template that opened an outbound conversation failed: nothing can follow it
      // item 3). Marked failed and the conversation closed in one transaction.
      await closeFailedTemplateStart({ db: deps.db, realtime: deps.realtime, log }, job.tenant_uuid, message.id, { reason });
    } else {
      await markMessageFailed(db, job.tenant_uuid, message.id, reason, { permanent });
    }
    // The bubble says why at once, and offers no retry for a refusal that would only repeat.
    await emitMessagesAck(deps, db, ack, 'pending', 'failed', { error_message: reason, retryable: !permanent });
    log.warn({ reason, permanent }, 'message delivery failed');
    // A permanent failure is the job's answer; after the last transient one BullMQ records the failure.
    if (permanent) return { outcome: 'failed', reason };
    throw error;
  }
}

/** A message an attempt began posting without learning the outcome: failed with `reason`, never posted again by itself. */
async function markOutcomeUnknown(
  deps: ChannelDeliveryDeps,
  db: ScopedDb,
  ack: { tenantId: string; conversationId: string; messageId: string },
  reason: string,
): Promise<DeliveryResult | null> {
  if (!(await failPostingWithUnknownOutcome(db, ack.messageId, reason))) return null;
  // The agent decides: it may have reached the contact, so sending it again is theirs to choose.
  await emitMessagesAck(deps, db, ack, 'pending', 'failed', { error_message: reason, retryable: true });
  return { outcome: 'failed', reason };
}

function errorMessageOf(error: unknown): string {
  if (error instanceof ChannelDeliveryError) return error.message;
  return 'Delivery failed: internal error';
}

/** messages-ack to the conversation's live room and to the agent it is assigned to now. */
export async function emitMessagesAck(
  deps: Pick<ChannelDeliveryDeps, 'realtime'>,
  db: ScopedDb,
  ack: { tenantId: string; conversationId: string; messageId: string },
  state: 'pending' | 'sent' | 'read',
  status: 'failed' | null,
  news: { error_message?: string | null; retryable?: boolean; delivered?: boolean } = {},
): Promise<void> {
  const payload = {
    tenant_uuid: ack.tenantId,
    conversation_uuid: ack.conversationId,
    messages: [{ uuid: ack.messageId, state, status, ...news }],
  };
  const agentUuid = await assignedAgentUuid(db, ack.conversationId);
  // The same audience as the api's own messages-ack (no dashboards: an ack changes no figure).
  await deps.realtime.emit(
    conversationAudience(ack.tenantId, ack.conversationId, agentUuid, { includeMetrics: false }),
    'messages-ack',
    payload,
  );
}
