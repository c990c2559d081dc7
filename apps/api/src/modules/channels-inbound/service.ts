import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '@atende/contract';
import { InboundReceiver, type InboundChannel, type InboundInput } from '@atende/conversations';
import type { AppContext } from '../../context';

export const CUSTOM_CHANNEL_TYPES = new Set(['custom', 'droz', 'API']);
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

interface ChannelRow extends InboundChannel {
  type: string;
  enabled: boolean;
  inboundTokenHash: string | null;
}

/**
 * How long an authenticated channel's row answers its next inbound calls without a query (issue 13
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

const bearer = (authorization: string | undefined) => (authorization?.toLowerCase().startsWith('bearer ') ? authorization.slice(7).trim() : '');

/**
 * Whether the token opens this channel: a known custom channel with this token's hash. The hash is
 * compared even for an unknown channel or an empty token, so every refusal takes the same time.
 */
function admits(channel: ChannelRow | undefined, token: string): channel is ChannelRow {
  const expected = Buffer.from(channel?.inboundTokenHash ?? '0'.repeat(64), 'hex');
  const given = Buffer.from(hashToken(token || 'no-token'), 'hex');
  const same = expected.length === given.length && timingSafeEqual(expected, given);
  return same && channel !== undefined && token.length > 0 && CUSTOM_CHANNEL_TYPES.has(channel.type);
}

export class InboundService {
  private readonly receiver: InboundReceiver;

  constructor(private readonly ctx: AppContext) {
    this.receiver = new InboundReceiver(ctx);
  }

  /** Authenticates the caller by the channel's token; unknown channel and bad token look the same. */
  private async channel(channelId: string, token: string): Promise<ChannelRow> {
    const [channel] = await this.ctx.db.$queryRaw<ChannelRow[]>`
      SELECT c.id, c."tenantId", c."workspaceId", c.type, c.enabled, c."entrySectorId", c."entryMenuId", c."entryBotId", c."inboundTokenHash", t.config AS "tenantConfig"
      FROM "Channel" c JOIN "Tenant" t ON t.id = c."tenantId" WHERE c.id = ${channelId}::uuid AND c."deletedAt" IS NULL`;
    if (!admits(channel, token)) {
      forgetInboundChannel(channelId);
      throw new AppError('unauthorized', 'Invalid channel or token');
    }
    if (!channel.enabled) {
      forgetInboundChannel(channelId);
      throw new AppError('forbidden', 'This channel is disabled');
    }
    remember(channel, Date.now());
    return channel;
  }

  /** A contact's message on a custom API channel (issue 3), authenticated by the channel's token. */
  async receive(channelId: string, authorization: string | undefined, input: InboundInput) {
    const token = bearer(authorization);
    const known = remembered.get(channelId);
    if (known && known.until > Date.now() && admits(known.row, token)) {
      return this.receiver.receive(known.row, input, () => this.channel(channelId, token));
    }
    return this.receiver.receive(await this.channel(channelId, token), input);
  }
}
