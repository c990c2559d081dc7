import {
  attachmentRuleOf,
  capabilitiesOf,
  CHANNEL_CAPABILITIES,
  textRefusal,
  type ChannelCapabilities,
  type ChannelType,
} from '@atende/contract';
import { ChannelDeliveryError, type ChannelTarget, type OutboundMessage, type SendResult, type SignatureInput } from '../adapter';
import { request, type HttpAnswer } from '../http';
import type { InboundEvent, InboundMedia, ProviderChannelAdapter, WebhookRequest } from '../provider';
import { providerFailure } from '../whatsapp/cloud-format';
import { downloadMedia, mediaHostsOf } from '../provider-media';
import { ProviderAdapter } from '../provider-base';
import { hubChallenge, META_MEDIA_HOSTS, verifyHubSignature } from './graph';
import { graphOf, MetaMessagingSettingsSchema, metaSecretsOf, pageTokenOf } from './settings';
import { parseMetaMessagingWebhook } from './webhook';

/** Send API rate limits (4 app, 613 calls, 80006 Messenger): "later". */
const THROTTLING_CODES = new Set([4, 613, 80006]);
/** The Send API's answer to a reply outside the 24-hour standard messaging window. */
const OUTSIDE_WINDOW_SUBCODE = 2018278;
const ATTACHMENT_TYPE = { image: 'image', audio: 'audio', voice: 'audio', video: 'video', document: 'file' } as const;

/** A Graph error answer ({error:{code, error_subcode, message}}) as a ChannelDeliveryError. */
export function metaMessagingFailure(provider: string, answer: HttpAnswer): ChannelDeliveryError {
  const error = (answer.json() as { error?: { code?: unknown; error_subcode?: unknown } } | null)?.error;
  if (Number(error?.error_subcode) === OUTSIDE_WINDOW_SUBCODE) return windowClosed(provider, answer.status);
  const failure = providerFailure(provider, answer);
  return THROTTLING_CODES.has(Number(error?.code))
    ? new ChannelDeliveryError('transient', failure.message, failure.httpStatus, { outcomeUnknown: failure.outcomeUnknown })
    : failure;
}

const windowClosed = (provider: string, status?: number) =>
  new ChannelDeliveryError(
    'permanent',
    `${provider} takes replies only within 24 hours of the contact's last message (channel_window_closed)`,
    status,
  );

/**
 * Messenger and Instagram messaging (Meta's Messenger Platform): a page access token sends through
 * the Graph Send API ({graph}/{page-id}/messages), webhooks are verified with the app secret after
 * the verify-token handshake, contacts are page-scoped ids (PSID, IGSID) without phone numbers.
 * Attachments go by our signed link (Meta fetches it); their text follows as a message of its own.
 */
abstract class MetaMessagingAdapter extends ProviderAdapter implements ProviderChannelAdapter {
  abstract readonly types: readonly ChannelType[];
  protected abstract readonly provider: string;
  protected abstract readonly webhookObject: 'page' | 'instagram';
  protected abstract readonly capabilities: ChannelCapabilities;

  private async post(channel: ChannelTarget, body: Record<string, unknown>, idempotencyKey: string): Promise<string | null> {
    const { graph, pageId } = graphOf(channel);
    const url = `${graph}/${pageId ? encodeURIComponent(pageId) : 'me'}/messages`;
    const answer = await request(
      this.fetchImpl,
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${pageTokenOf(channel)}`,
          'content-type': 'application/json',
          'user-agent': 'Atende/1',
          'idempotency-key': idempotencyKey,
        },
        body: JSON.stringify(body),
        timeoutMs: this.timeoutMs,
      },
      this.provider,
    );
    if (answer.status < 200 || answer.status >= 300) throw metaMessagingFailure(this.provider, answer);
    const id = (answer.json() as { message_id?: unknown } | null)?.message_id;
    return typeof id === 'string' && id ? id.slice(0, 200) : null;
  }

  async send(message: OutboundMessage, channel: ChannelTarget): Promise<SendResult> {
    const recipient = message.contact.identifier;
    if (!recipient || !/^\d{1,40}$/.test(recipient)) throw new ChannelDeliveryError('permanent', `The contact has no ${this.provider} id`);
    const standard = this.capabilities.replyWindowHours;
    const hours = capabilitiesOf(this.types[0]!, MetaMessagingSettingsSchema.safeParse(channel.config).data)?.replyWindowHours ?? standard;
    const last = message.lastContactMessageAt;
    const since = last ? Date.now() - last.getTime() : Infinity;
    // Meta refuses it anyway (subcode 2018278): said before calling, with the same code.
    if (hours && since > hours * 3600_000) throw windowClosed(this.provider);
    // Past the standard window, a channel with the HUMAN_AGENT permission answers with that tag.
    const tagged = standard !== undefined && since > standard * 3600_000;
    const text = message.content.trim();
    const refused = textRefusal(this.types[0]!, text, false);
    if (refused)
      throw new ChannelDeliveryError('permanent', `${this.provider} takes messages of at most ${refused.max} characters (${refused.code})`);
    const base = tagged
      ? { recipient: { id: recipient }, messaging_type: 'MESSAGE_TAG', tag: 'HUMAN_AGENT' }
      : { recipient: { id: recipient }, messaging_type: 'RESPONSE' };
    let externalId: string | null = null;
    if (message.annex) {
      const annex = message.annex;
      const rule = attachmentRuleOf(this.capabilities, annex.contentType);
      if (!rule)
        throw new ChannelDeliveryError('permanent', `${this.provider} does not take ${annex.contentType} files (channel_attachment_type)`);
      if (annex.size !== undefined && annex.size > rule.maxBytes) {
        throw new ChannelDeliveryError(
          'permanent',
          `${this.provider} takes files of at most ${rule.maxBytes / (1024 * 1024)} MB here (channel_attachment_too_large)`,
        );
      }
      const attachment = { type: ATTACHMENT_TYPE[rule.kind], payload: { url: annex.url, is_reusable: false } };
      externalId = await this.post(channel, { ...base, message: { attachment } }, message.uuid);
    }
    if (text) {
      const textId = await this.post(channel, { ...base, message: { text } }, message.annex ? `${message.uuid}:text` : message.uuid);
      externalId ??= textId;
    } else if (!message.annex) throw new ChannelDeliveryError('permanent', `${this.provider} does not take empty messages`);
    return { externalId };
  }

  verifyHandshake(query: Record<string, string | undefined>, channel: ChannelTarget): string | null {
    return hubChallenge(query, metaSecretsOf(channel).verify_token);
  }

  verifyWebhook(request_: WebhookRequest, channel: ChannelTarget): boolean {
    const secret = metaSecretsOf(channel).app_secret;
    return secret !== undefined && this.verifySignature({ rawBody: request_.rawBody, headers: request_.headers, secret });
  }

  verifySignature({ rawBody, headers, secret }: SignatureInput): boolean {
    return verifyHubSignature(rawBody, headers, secret);
  }

  parseWebhook(request_: Pick<WebhookRequest, 'rawBody'>): InboundEvent[] {
    return parseMetaMessagingWebhook(request_.rawBody, this.webhookObject);
  }

  /** GET {graph}/{id}?fields=... with the page token: the contact's name, or null when Meta does not give it. */
  async senderName(identifier: string, channel: ChannelTarget): Promise<string | null> {
    if (!/^\d{1,40}$/.test(identifier)) return null;
    const { graph } = graphOf(channel);
    const fields = this.webhookObject === 'page' ? 'first_name,last_name' : 'name,username';
    const answer = await request(
      this.fetchImpl,
      `${graph}/${identifier}?fields=${fields}`,
      { method: 'GET', headers: { authorization: `Bearer ${pageTokenOf(channel)}` }, timeoutMs: this.timeoutMs },
      this.provider,
    );
    if (answer.status !== 200) return null;
    const body = answer.json() as { first_name?: unknown; last_name?: unknown; name?: unknown; username?: unknown } | null;
    const parts = [body?.first_name, body?.last_name].filter((p): p is string => typeof p === 'string' && p.trim() !== '');
    const name = parts.length
      ? parts.join(' ')
      : typeof body?.name === 'string'
        ? body.name
        : typeof body?.username === 'string'
          ? body.username
          : '';
    return name.trim().slice(0, 200) || null;
  }

  /** The attachment's address from the webhook, fetched only from Meta's hosts (or the base_url's). */
  async fetchMedia(
    media: InboundMedia,
    channel: ChannelTarget,
    maxBytes: number,
  ): Promise<{ bytes: Buffer; contentType: string; filename: string | null }> {
    const { base } = graphOf(channel);
    const file = await downloadMedia(media.ref, {
      ...mediaHostsOf(base, META_MEDIA_HOSTS),
      fetchImpl: this.fetchImpl,
      headers: {},
      maxBytes,
      timeoutMs: this.timeoutMs * 3,
      provider: this.provider,
      failure: (answer) => metaMessagingFailure(`${this.provider} media`, answer),
    });
    const headerType = file.contentType?.split(';')[0]?.trim();
    const contentType =
      (headerType && headerType !== 'application/octet-stream' ? headerType : null) ?? media.contentType ?? 'application/octet-stream';
    const filename = new URL(media.ref).pathname.split('/').pop() || null;
    return { bytes: file.bytes, contentType, filename };
  }
}

/** Messenger (object 'page', PSIDs). */
export class MessengerAdapter extends MetaMessagingAdapter {
  readonly types = ['messenger'] as const;
  protected readonly provider = 'Messenger';
  protected readonly webhookObject = 'page' as const;
  protected readonly capabilities = CHANNEL_CAPABILITIES.messenger!;
}

/** Instagram messaging (object 'instagram', IGSIDs), sent through the connected page. */
export class InstagramAdapter extends MetaMessagingAdapter {
  readonly types = ['instagram'] as const;
  protected readonly provider = 'Instagram';
  protected readonly webhookObject = 'instagram' as const;
  protected readonly capabilities = CHANNEL_CAPABILITIES.instagram!;
}
