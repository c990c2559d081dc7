import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError, channelTypeFacts } from '@atende/contract';
import { InboundReceiver, type InboundChannel, type InboundInput } from '@atende/conversations';
import { inboundChannelRow } from '@atende/db';
import type { AppContext } from '../../context';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

interface ChannelRow extends InboundChannel {
  type: string;
  enabled: boolean;
  inboundTokenHash: string | null;
}

/**
 * How long an authenticated channel's row answers its next inbound calls without a query
 * item 3: one query less per contact message, in the api and in Postgres). A change made in this
 * process applies at once (forgetInboundChannel); another api process sees it within this time.
 * Only appending to an open conversation uses a remembered row (InboundReceiver.receive `fresh`).
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

export class InboundService {
  private readonly receiver: InboundReceiver;

  constructor(private readonly ctx: AppContext) {
    this.receiver = new InboundReceiver(ctx);
  }

  /** Authenticates the caller by the channel's token; unknown channel and bad token look the same. */
  private async channel(channelId: string, token: string): Promise<ChannelRow> {
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

  /** A contact's message on a custom API channel, authenticated by the channel's token. */
  async receive(channelId: string, authorization: string | undefined, input: InboundInput) {
    const token = bearer(authorization);
    const known = remembered.get(channelId);
    if (known && known.until > Date.now() && admits(known.row, token)) {
      return this.receiver.receive(known.row, input, () => this.channel(channelId, token));
    }
    return this.receiver.receive(await this.channel(channelId, token), input);
  }
}
