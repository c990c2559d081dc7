import { channelKind } from '@atende/core';
import {
  channelAdapters,
  decryptCredentials,
  hubChallenge,
  metaEntryIdentity,
  outboundClient,
  isProviderAdapter,
  parseSecretsKey,
  verifyHubSignature,
  type ChannelTarget,
  type ProviderChannelAdapter,
} from '@atende/channels';
import { AppError, META_SETUP_KINDS, queues, UuidParam, type ChannelInboundJob, type MetaSetupKind } from '@atende/contract';
import { enqueue, enqueueMany, liveChannelById, liveChannelsByIdentity } from '@atende/db';
import { z } from 'zod';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { publicUrlOf } from './routes';

/**
 * Provider webhooks (every provider channel type): GET answers the Cloud API's verify-token handshake; POST checks the
 * provider's signature on the exact bytes received, stores the delivery for the worker's
 * channel-inbound queue (outbox row, committed before answering) and answers 200 at once.
 * A signature that cannot be verified gets 401 and nothing is stored.
 */
export function channelWebhookRoutes(
  ctx: AppContext,
  adapters = channelAdapters({ outbound: outboundClient({ allowHosts: ctx.env.OUTBOUND_ALLOW_HOSTS }) }),
): FastifyPluginAsync {
  const key = parseSecretsKey(ctx.env.CHANNEL_SECRETS_KEY);

  /**
   * The channel a webhook names, or null. An unknown channel is refused exactly like a bad signature
   * (or verify token) by the callers, so the endpoint tells nobody which channel ids exist.
   */
  async function target(
    request: FastifyRequest,
  ): Promise<{ channel: ChannelTarget & { tenantId: string }; adapter: ProviderChannelAdapter } | null> {
    const parsed = UuidParam.safeParse(request.params);
    if (!parsed.success) return null;
    const row = await liveChannelById(ctx.db, parsed.data.id);
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
      if (challenge === null) throw new AppError('webhook_verify_token_invalid', 'Invalid verify token');
      return reply.type('text/plain').send(challenge);
    });

    app.post('/api/v1/channels/:id/webhook', async (request, reply) => {
      const found = await target(request);
      const rawBody = typeof request.body === 'string' ? request.body : '';
      const url = `${publicUrlOf(ctx)}${request.url}`;
      if (!found || !found.channel.credentials || !found.adapter.verifyWebhook({ rawBody, headers: request.headers, url }, found.channel)) {
        throw new AppError('webhook_signature_invalid', 'Invalid signature');
      }
      const { channel } = found;
      const payload: ChannelInboundJob = {
        tenant_uuid: channel.tenantId,
        channel_uuid: channel.uuid,
        content_type: String(request.headers['content-type'] ?? 'application/json').slice(0, 200),
        raw_body: rawBody,
        received_at: new Date().toISOString(),
      };
      await enqueue(ctx.db, queues.channelInbound.name, payload);
      return reply.code(200).send({ ok: true });
    });

    /**
     * The Meta app's own callback: a Meta app has one webhook address per product,
     * so the pages connected through /messenger-setup and /instagram-setup (all under this server's
     * META_APP_ID) report here. The verify token is META_VERIFY_TOKEN, the signature the app secret's;
     * each entry goes to the one live channel whose provider identity it names (entry.id: the page, or
     * for Instagram the professional account, else its page), as if posted to that channel's own
     * address; entries no channel holds are dropped. The identity's unique index
     * makes that channel one of one tenant: a delivery never fans out.
     */
    const metaKind = (request: FastifyRequest): MetaSetupKind | null => {
      const kind = z.enum(META_SETUP_KINDS).safeParse((request.params as { kind?: unknown }).kind);
      return kind.success ? kind.data : null;
    };
    app.get('/api/v1/channels/meta/:kind/webhook', async (request, reply) => {
      const challenge = metaKind(request)
        ? hubChallenge(request.query as Record<string, string | undefined>, ctx.env.META_VERIFY_TOKEN)
        : null;
      if (challenge === null) throw new AppError('webhook_verify_token_invalid', 'Invalid verify token');
      return reply.type('text/plain').send(challenge);
    });
    app.post('/api/v1/channels/meta/:kind/webhook', async (request, reply) => {
      const kind = metaKind(request);
      const rawBody = typeof request.body === 'string' ? request.body : '';
      if (!kind || !ctx.env.META_APP_SECRET || !verifyHubSignature(rawBody, request.headers, ctx.env.META_APP_SECRET))
        throw new AppError('webhook_signature_invalid', 'Invalid signature');
      let body: { object?: unknown; entry?: unknown };
      try {
        body = JSON.parse(rawBody) as { object?: unknown; entry?: unknown };
      } catch {
        throw new AppError('webhook_body_not_json', 'The body is not JSON');
      }
      const entries = (Array.isArray(body.entry) ? body.entry : []).filter(
        (e): e is { id: string } => typeof (e as { id?: unknown })?.id === 'string',
      );
      const identities = [...new Set(entries.map((e) => metaEntryIdentity(kind, e.id)))];
      const channels = await liveChannelsByIdentity(ctx.db, identities);
      const jobs = channels.map((channel): ChannelInboundJob => ({
        tenant_uuid: channel.tenantId,
        channel_uuid: channel.id,
        content_type: 'application/json',
        raw_body: JSON.stringify({
          object: body.object,
          entry: entries.filter((e) => metaEntryIdentity(kind, e.id) === channel.providerIdentity),
        }),
        received_at: new Date().toISOString(),
      }));
      await enqueueMany(ctx.db, queues.channelInbound.name, jobs);
      return reply.code(200).send({ ok: true });
    });
  };
}
