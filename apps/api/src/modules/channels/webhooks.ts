import { channelKind } from '@atende/core';
import { channelAdapters, decryptCredentials, outboundClient, isProviderAdapter, parseSecretsKey, type ChannelTarget, type ProviderChannelAdapter } from '@atende/channels';
import { AppError, queues, UuidParam, type ChannelInboundJob } from '@atende/contract';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { publicUrlOf } from './routes';

/**
 * Provider webhooks (issue 5; every provider channel type, issue 15): GET answers the Cloud API's verify-token handshake; POST checks the
 * provider's signature on the exact bytes received, stores the delivery for the worker's
 * channel-inbound queue (outbox row, committed before answering) and answers 200 at once.
 * A signature that cannot be verified gets 401 and nothing is stored.
 */
export function channelWebhookRoutes(ctx: AppContext, adapters = channelAdapters({ outbound: outboundClient({ allowHosts: ctx.env.OUTBOUND_ALLOW_HOSTS }) })): FastifyPluginAsync {
  const key = parseSecretsKey(ctx.env.CHANNEL_SECRETS_KEY);

  /**
   * The channel a webhook names, or null. An unknown channel is refused exactly like a bad signature
   * (or verify token) by the callers, so the endpoint tells nobody which channel ids exist (issue 12, Low).
   */
  async function target(request: FastifyRequest): Promise<{ channel: ChannelTarget & { tenantId: string }; adapter: ProviderChannelAdapter } | null> {
    const parsed = UuidParam.safeParse(request.params);
    if (!parsed.success) return null;
    const row = await ctx.db.channel.findFirst({ where: { id: parsed.data.id, deletedAt: null } });
    const adapter = row ? adapters.get(channelKind(row.type)) : undefined;
    if (!row || !adapter || !isProviderAdapter(adapter)) return null;
    let credentials: Record<string, unknown> | null = null;
    try {
      credentials = row.credentialsEncrypted ? decryptCredentials(row.credentialsEncrypted, key) : null;
    } catch {
      // Unreadable credentials verify nothing: the request is refused below like a bad signature.
      credentials = null;
    }
    return { channel: { uuid: row.id, type: row.type, config: row.config, credentials, tenantId: row.tenantId }, adapter };
  }

  return async (app: FastifyInstance) => {
    // Signatures cover the exact bytes sent: every body stays a string here, JSON or form-encoded.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_request, body, done) => done(null, body));

    app.get('/api/v1/channels/:id/webhook', async (request, reply) => {
      const found = await target(request);
      const challenge = found ? found.adapter.verifyHandshake(request.query as Record<string, string | undefined>, found.channel) : null;
      if (challenge === null) throw new AppError('forbidden', 'Invalid verify token');
      return reply.type('text/plain').send(challenge);
    });

    app.post('/api/v1/channels/:id/webhook', async (request, reply) => {
      const found = await target(request);
      const rawBody = typeof request.body === 'string' ? request.body : '';
      const url = `${publicUrlOf(ctx, request)}${request.url}`;
      if (!found || !found.channel.credentials || !found.adapter.verifyWebhook({ rawBody, headers: request.headers, url }, found.channel)) {
        throw new AppError('unauthorized', 'Invalid signature');
      }
      const { channel } = found;
      const payload: ChannelInboundJob = {
        tenant_uuid: channel.tenantId,
        channel_uuid: channel.uuid,
        content_type: String(request.headers['content-type'] ?? 'application/json').slice(0, 200),
        raw_body: rawBody,
        received_at: new Date().toISOString(),
      };
      await ctx.db.outboxJob.create({ data: { tenantId: channel.tenantId, queue: queues.channelInbound.name, payload } });
      return reply.code(200).send({ ok: true });
    });
  };
}
