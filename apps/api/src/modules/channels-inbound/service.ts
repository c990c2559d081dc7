import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '@atende/contract';
import { InboundReceiver, type InboundInput } from '@atende/conversations';
import type { AppContext } from '../../context';

export const CUSTOM_CHANNEL_TYPES = new Set(['custom', 'droz', 'API']);
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export class InboundService {
  private readonly receiver: InboundReceiver;

  constructor(private readonly ctx: AppContext) {
    this.receiver = new InboundReceiver(ctx);
  }

  /** Authenticates the caller by the channel's token; unknown channel and bad token look the same. */
  private async channel(channelId: string, authorization: string | undefined) {
    const token = authorization?.toLowerCase().startsWith('bearer ') ? authorization.slice(7).trim() : '';
    const [channel] = await this.ctx.db.$queryRaw<
      { id: string; tenantId: string; workspaceId: string; type: string; enabled: boolean; entrySectorId: string | null; entryMenuId: string | null; entryBotId: string | null; inboundTokenHash: string | null; tenantConfig: unknown }[]
    >`SELECT c.id, c."tenantId", c."workspaceId", c.type, c.enabled, c."entrySectorId", c."entryMenuId", c."entryBotId", c."inboundTokenHash", t.config AS "tenantConfig"
      FROM "Channel" c JOIN "Tenant" t ON t.id = c."tenantId" WHERE c.id = ${channelId}::uuid AND c."deletedAt" IS NULL`;
    const expected = Buffer.from(channel?.inboundTokenHash ?? '0'.repeat(64), 'hex');
    const given = Buffer.from(hashToken(token || 'no-token'), 'hex');
    const ok = channel !== undefined && CUSTOM_CHANNEL_TYPES.has(channel.type) && token.length > 0 && expected.length === given.length && timingSafeEqual(expected, given);
    if (!ok || !channel) throw new AppError('unauthorized', 'Invalid channel or token');
    if (!channel.enabled) throw new AppError('forbidden', 'This channel is disabled');
    return channel;
  }

  /** A contact's message on a custom API channel (issue 3), authenticated by the channel's token. */
  async receive(channelId: string, authorization: string | undefined, input: InboundInput) {
    return this.receiver.receive(await this.channel(channelId, authorization), input);
  }
}
