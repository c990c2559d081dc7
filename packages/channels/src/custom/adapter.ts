import {
  ChannelDeliveryError,
  type ChannelAdapter,
  type ChannelTarget,
  type OutboundMessage,
  type SendResult,
  type SignatureInput,
} from '../adapter';
import { describeNetworkError, isAmbiguousStatus, isTransientStatus, networkFailure, readCapped } from '../http';
import { outboundClient, statusLine, type OutboundClient } from '../outbound';
import { refusalOf } from '../outbound-address';
import { SIGNATURE_HEADER, signWebhookBody, verifyWebhookBody } from '../signature';
import { CustomChannelConfigSchema, CustomChannelCredentialsSchema, type CustomWebhookBody } from './payload';

export const CUSTOM_CHANNEL_TYPES = ['custom', 'droz', 'API'] as const;
const DEFAULT_TIMEOUT_MS = 10_000;
/** Enough for an `{id}` answer; a receiver cannot make the worker buffer megabytes. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface CustomChannelAdapterOptions {
  timeoutMs?: number;
  /** The guarded client deliveries go through (OUTBOUND_ALLOW_HOSTS); strict by default. */
  outbound?: OutboundClient;
  /** Replaces the outbound client's fetch (tests that count calls). */
  fetch?: typeof fetch;
}

export function customWebhookBody(message: OutboundMessage): CustomWebhookBody {
  return {
    event: 'message',
    message: {
      uuid: message.uuid,
      conversation_uuid: message.conversationUuid,
      content: message.content,
      annex: message.annex && {
        url: message.annex.url,
        content_type: message.annex.contentType,
        original_filename: message.annex.originalFilename,
      },
      author: message.author,
      created_at: message.createdAt.toISOString(),
    },
    contact: { uuid: message.contact.uuid, phone_number: message.contact.phoneNumber, identifier: message.contact.identifier },
  };
}

/** Only the address the channel's owner configured, and only over http(s). */
export function webhookUrlOf(config: unknown): URL {
  const parsed = CustomChannelConfigSchema.safeParse(config);
  if (!parsed.success) throw new ChannelDeliveryError('permanent', 'Channel has no webhook_url configured');
  let url: URL;
  try {
    url = new URL(parsed.data.webhook_url);
  } catch {
    throw new ChannelDeliveryError('permanent', 'Channel webhook_url is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ChannelDeliveryError('permanent', 'Channel webhook_url must be http or https');
  }
  return url;
}

function webhookSecretOf(credentials: ChannelTarget['credentials']): string {
  const parsed = CustomChannelCredentialsSchema.safeParse(credentials);
  if (!parsed.success) throw new ChannelDeliveryError('permanent', 'Channel has no webhook secret configured');
  return parsed.data.webhook_secret;
}

function externalIdFrom(text: string): string | null {
  try {
    const body: unknown = JSON.parse(text);
    const id = body && typeof body === 'object' ? (body as { id?: unknown }).id : undefined;
    if (typeof id === 'string' && id.length > 0) return id.slice(0, 200);
    if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  } catch {
    // A 2xx without a JSON body is still a delivery.
  }
  return null;
}

/**
 * The custom API channel: each agent message is POSTed as JSON to the channel's webhook_url,
 * signed with the channel's webhook secret (X-Atende-Signature: sha256=<hex HMAC of the raw body>),
 * with the message uuid as Idempotency-Key so a receiver can drop the duplicate a retry may cause.
 */
export class CustomChannelAdapter implements ChannelAdapter {
  readonly types = CUSTOM_CHANNEL_TYPES;
  private readonly timeoutMs: number;
  private readonly fetch: typeof fetch;

  constructor(options: CustomChannelAdapterOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.fetch = options.fetch ?? (options.outbound ?? outboundClient()).fetch;
  }

  async send(message: OutboundMessage, channel: ChannelTarget): Promise<SendResult> {
    const url = webhookUrlOf(channel.config);
    const secret = webhookSecretOf(channel.credentials);
    const rawBody = JSON.stringify(customWebhookBody(message));
    let response: Response;
    try {
      response = await this.fetch(url, {
        method: 'POST',
        body: rawBody,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Atende-Webhook/1',
          'x-atende-signature': signWebhookBody(rawBody, secret),
          'x-atende-timestamp': String(Math.floor(Date.now() / 1000)),
          'idempotency-key': message.uuid,
        },
        // A redirect would send the message to an address the channel's owner did not configure.
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const refused = refusalOf(error);
      if (refused) throw new ChannelDeliveryError('permanent', `Webhook address refused: ${refused.message}`);
      throw networkFailure('Webhook', error, this.timeoutMs);
    }
    let text: string;
    try {
      text = (await readCapped(response, MAX_RESPONSE_BYTES)).subarray(0, MAX_RESPONSE_BYTES).toString('utf8');
    } catch (error) {
      const unknown = (response.status >= 200 && response.status < 300) || isAmbiguousStatus(response.status);
      throw new ChannelDeliveryError('transient', `Webhook answer interrupted: ${describeNetworkError(error)}`, response.status, {
        outcomeUnknown: unknown,
      });
    }
    const status = response.status;
    if (status >= 200 && status < 300) return { externalId: externalIdFrom(text) };
    if (status >= 300 && status < 400) {
      throw new ChannelDeliveryError('permanent', `Webhook answered a redirect (${status}); configure the final address`, status);
    }
    // Only the status line: the body is the receiver's, and an error is shown to the channel's admins.
    throw new ChannelDeliveryError(
      isTransientStatus(status) ? 'transient' : 'permanent',
      `Webhook answered ${statusLine(status)}`,
      status,
      { outcomeUnknown: isAmbiguousStatus(status) },
    );
  }

  verifySignature({ rawBody, headers, secret }: SignatureInput): boolean {
    return verifyWebhookBody(rawBody, headers[SIGNATURE_HEADER], secret);
  }
}
