import { decryptCredentials, RFC822_BASE64, startInboundSmtp, type InboundSmtpListener } from '@atende/channels';
import { queues, type ChannelInboundJob } from '@atende/contract';
import { enqueue, liveEmailChannel, type Db } from '@atende/db';
import type { Logger } from 'pino';

export interface EmailInboundDeps {
  db: Db;
  secretsKey: Buffer;
  log: Logger;
}

/**
 * E-mail channels' inbound SMTP listener in the worker: mail forwarded to a
 * channel's forwarding address is written to the outbox as a channel-inbound job (the raw message,
 * base64) before the sending server gets its 250, exactly as the api's webhook route does, so the
 * same processor parses it and nothing accepted is lost.
 */
export function startEmailInbound(
  deps: EmailInboundDeps,
  options: { port: number; host: string; maxBytes?: number },
): Promise<InboundSmtpListener> {
  return startInboundSmtp({
    port: options.port,
    host: options.host,
    maxBytes: options.maxBytes,
    log: deps.log,
    async channelOf(channelId) {
      const channel = await liveEmailChannel(deps.db, channelId);
      if (!channel) return null;
      let secret: string | null = null;
      try {
        const credentials = channel.credentialsEncrypted ? decryptCredentials(channel.credentialsEncrypted, deps.secretsKey) : null;
        secret = typeof credentials?.webhook_secret === 'string' ? credentials.webhook_secret : null;
      } catch {
        // Unreadable credentials prove nothing: the recipient is refused.
      }
      return { tenantId: channel.tenantId, enabled: channel.enabled, secret };
    },
    async deliver(mail) {
      await enqueue(deps.db, queues.channelInbound.name, rawMailJob(mail));
    },
  });
}

/**
 * The channel-inbound job of one raw message for an e-mail channel, however it came (the SMTP
 * listener, the IMAP reader): the bytes base64-encoded, parsed, deduplicated by Message-ID and
 * stored by the inbound processor like any provider webhook.
 */
export function rawMailJob(mail: { tenantId: string; channelId: string; raw: Buffer; receivedAt: Date }): ChannelInboundJob {
  return {
    tenant_uuid: mail.tenantId,
    channel_uuid: mail.channelId,
    content_type: RFC822_BASE64,
    raw_body: mail.raw.toString('base64'),
    received_at: mail.receivedAt.toISOString(),
  };
}
