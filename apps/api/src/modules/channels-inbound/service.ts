import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { AppError, channelTypeFacts, queues, type ChannelMessageInput } from '@atende/contract';
import { contactPhone, messageIdFor, type InboundChannel } from '@atende/conversations';
import { conversationOfChannelMessage, enqueue, inboundChannelRow } from '@atende/db';
import type { AppContext } from '../../context';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

interface ChannelRow extends InboundChannel {
  type: string;
  enabled: boolean;
  inboundTokenHash: string | null;
}

/**
 * How long an authenticated channel's row answers its next inbound calls without a query (one
 * query less per contact message). A change made in this process applies at once
 * (forgetInboundChannel); another api process sees it within this time. The worker that stores the
 * message reads the channel again, so a remembered row only ever lets a message be queued.
 */
export const CHANNEL_ROW_TTL_MS = 1000;
const remembered = new Map<string, { row: ChannelRow; until: number }>();

/** A channel was changed or removed: its next inbound call reads it again. */
export function forgetInboundChannel(channelId: string): void {
  remembered.delete(channelId);
}

function remember(row: ChannelRow, now: number): void {
  if (remembered.size >= 10_000) {
    for (const [id, entry] of remembered) if (entry.until <= now) remembered.delete(id);
    if (remembered.size >= 10_000) remembered.clear();
  }
  remembered.set(row.id, { row, until: now + CHANNEL_ROW_TTL_MS });
}

const bearer = (authorization: string | undefined) =>
  authorization?.toLowerCase().startsWith('bearer ') ? authorization.slice(7).trim() : '';

/**
 * Whether the token opens this channel: a known channel taking token-authenticated posts (the
 * custom API channel: contract CHANNEL_TYPE_FACTS inbound 'token') with this token's hash. The hash is
 * compared even for an unknown channel or an empty token, so every refusal takes the same time.
 */
function admits(channel: ChannelRow | undefined, token: string): channel is ChannelRow {
  const expected = Buffer.from(channel?.inboundTokenHash ?? '0'.repeat(64), 'hex');
  const given = Buffer.from(hashToken(token || 'no-token'), 'hex');
  const same = expected.length === given.length && timingSafeEqual(expected, given);
  return same && channel !== undefined && token.length > 0 && channelTypeFacts(channel.type)?.inbound === 'token';
}

/**
 * The custom API channel's entrance: authenticates the caller by the channel's token and queues the
 * message for the worker, exactly as a provider's webhook is queued (queue channel-inbound); the
 * worker stores it through the same receiver. The answer names the uuid the message will have.
 */
export class InboundService {
  constructor(private readonly ctx: AppContext) {}

  /** Authenticates the caller by the channel's token; unknown channel and bad token look the same. */
  private async channel(channelId: string, authorization: string | undefined): Promise<ChannelRow> {
    const token = bearer(authorization);
    const known = remembered.get(channelId);
    if (known && known.until > Date.now() && admits(known.row, token)) return known.row;
    const channel: ChannelRow | undefined = await inboundChannelRow(this.ctx.db, channelId);
    if (!admits(channel, token)) {
      forgetInboundChannel(channelId);
      throw new AppError('channel_token_invalid', 'Invalid channel or token');
    }
    if (!channel.enabled) {
      forgetInboundChannel(channelId);
      throw new AppError('channel_disabled_inbound', 'This channel is disabled');
    }
    remember(channel, Date.now());
    return channel;
  }

  /** A contact's message on a custom API channel: checked, queued, and answered with its uuid. */
  async receive(channelId: string, authorization: string | undefined, input: ChannelMessageInput): Promise<{ message_uuid: string }> {
    const channel = await this.channel(channelId, authorization);
    // Refused now, while the caller waits, rather than dropped by the worker.
    contactPhone(channel, input.contact);
    const messageUuid = input.message.id ? messageIdFor(channel.id, input.message.id) : randomUUID();
    await enqueue(this.ctx.db, queues.channelInbound.name, {
      tenant_uuid: channel.tenantId,
      channel_uuid: channel.id,
      content_type: 'application/json',
      raw_body: JSON.stringify({ ...input, message_uuid: messageUuid }),
      received_at: new Date().toISOString(),
    });
    return { message_uuid: messageUuid };
  }

  /** The conversation a message accepted on this channel was stored in (404 until it is). */
  async stored(channelId: string, authorization: string | undefined, messageId: string) {
    const channel = await this.channel(channelId, authorization);
    const conversationId = await conversationOfChannelMessage(this.ctx.db, channel.id, messageId);
    if (!conversationId) throw new AppError('message_not_found', 'Message not found (a message just accepted is stored within moments)');
    return { message_uuid: messageId, conversation_uuid: conversationId };
  }
}
