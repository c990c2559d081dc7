import { randomBytes } from 'node:crypto';
import { attachmentRuleOf, CHANNEL_CAPABILITIES, textRefusal } from '@atende/contract';
import { ChannelDeliveryError, type ChannelTarget, type OutboundMessage, type SendResult, type SignatureInput } from '../adapter';
import { cleanProviderText, headerValue, isAmbiguousStatus, isTransientStatus, request, sameSecret, type HttpAnswer } from '../http';
import { statusLine } from '../outbound';
import type { InboundEvent, InboundMedia, ProviderChannelAdapter, WebhookRegistration, WebhookRequest } from '../provider';
import { downloadMedia, mediaHostsOf } from '../provider-media';
import { ProviderAdapter } from '../provider-base';
import { baseUrlOf, botTokenOf, secretsOf } from './settings';
import { parseTelegramUpdate, telegramMessageId } from './updates';

/** The header Telegram sends back with setWebhook's secret_token on every update. */
export const TELEGRAM_SECRET_HEADER = 'x-telegram-bot-api-secret-token';

const CAPABILITIES = CHANNEL_CAPABILITIES.telegram!;

/** The Bot API's error answer: {ok:false, error_code, description, parameters:{retry_after}}. */
export function telegramFailure(what: string, answer: HttpAnswer): ChannelDeliveryError {
  const body = answer.json() as { ok?: unknown; description?: unknown; parameters?: { retry_after?: unknown } } | null;
  const description = typeof body?.description === 'string' ? cleanProviderText(body.description) : '';
  const retryAfter = Number(body?.parameters?.retry_after);
  const later = Number.isFinite(retryAfter) && retryAfter > 0 ? ` (retry after ${retryAfter} s)` : '';
  // 429 (flood control) and 5xx say "later"; 400 (bad request), 401 (token), 403 (blocked by the user) never succeed by retrying.
  const kind = isTransientStatus(answer.status) ? 'transient' : 'permanent';
  return new ChannelDeliveryError(
    kind,
    `${what} answered ${description ? `${answer.status}: ${description}` : statusLine(answer.status)}${later}`,
    answer.status,
    { outcomeUnknown: isAmbiguousStatus(answer.status) },
  );
}

interface UploadFile {
  field: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/** A multipart/form-data body (the outbound client takes bytes, not FormData). */
export function multipartBody(fields: Record<string, string>, file: UploadFile): { body: Buffer; contentType: string } {
  const boundary = `----atende${randomBytes(12).toString('hex')}`;
  const quoted = (v: string) => v.replace(/[\r\n"\\]/g, '_');
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.field)}"; filename="${quoted(file.filename)}"\r\nContent-Type: ${quoted(file.contentType)}\r\n\r\n`,
    ),
  );
  parts.push(file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Which Bot API method, and which of its fields, carries an attachment. */
function sendMethodOf(contentType: string, voice: boolean): { method: string; field: string } | null {
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (voice && CAPABILITIES.voiceTypes.includes(type)) return { method: 'sendVoice', field: 'voice' };
  const rule = attachmentRuleOf(CAPABILITIES, type);
  if (!rule) return null;
  if (rule.kind === 'image') return { method: 'sendPhoto', field: 'photo' };
  if (rule.kind === 'audio') return { method: 'sendAudio', field: 'audio' };
  if (rule.kind === 'voice') return { method: 'sendVoice', field: 'voice' };
  if (rule.kind === 'video') return { method: 'sendVideo', field: 'video' };
  return { method: 'sendDocument', field: 'document' };
}

/**
 * Telegram (Bot API, https://core.telegram.org/bots/api): a bot token from BotFather; the webhook
 * registered by us with setWebhook and a secret_token Telegram sends back on every update; contacts
 * known by their Telegram user id (no phone). Telegram sends bots no delivery or read receipts: a
 * message is "sent" once the Bot API accepted it, and stays so.
 */
export class TelegramAdapter extends ProviderAdapter implements ProviderChannelAdapter {
  readonly types = ['telegram'] as const;

  /** One Bot API call; an answer that is not {ok:true} throws with Telegram's code and description. */
  private async call(
    channel: ChannelTarget,
    method: string,
    payload: { json: Record<string, unknown> } | { multipart: { body: Buffer; contentType: string } },
  ): Promise<unknown> {
    const url = `${baseUrlOf(channel)}/bot${botTokenOf(channel)}/${method}`;
    const init =
      'json' in payload
        ? { body: JSON.stringify(payload.json), headers: { 'content-type': 'application/json' } }
        : { body: new Uint8Array(payload.multipart.body), headers: { 'content-type': payload.multipart.contentType } };
    const answer = await request(
      this.fetchImpl,
      url,
      {
        method: 'POST',
        ...init,
        headers: { ...init.headers, 'user-agent': 'Atende/1' },
        timeoutMs: 'multipart' in payload ? this.timeoutMs * 3 : this.timeoutMs,
      },
      'Telegram',
    );
    const body = answer.json() as { ok?: unknown; result?: unknown } | null;
    if (answer.status >= 200 && answer.status < 300 && body?.ok === true) return body.result;
    throw telegramFailure('Telegram', answer);
  }

  async send(message: OutboundMessage, channel: ChannelTarget): Promise<SendResult> {
    const chatId = message.contact.identifier;
    if (!chatId || !/^-?\d{1,20}$/.test(chatId)) throw new ChannelDeliveryError('permanent', 'The contact has no Telegram chat');
    const text = message.content.trim();
    let result: unknown;
    if (message.annex) {
      const annex = message.annex;
      const target = sendMethodOf(annex.contentType, message.voice === true);
      if (!target)
        throw new ChannelDeliveryError('permanent', `Telegram does not take ${annex.contentType} files (channel_attachment_type)`);
      const rule = attachmentRuleOf(CAPABILITIES, annex.contentType);
      if (rule && annex.size !== undefined && annex.size > rule.maxBytes) {
        throw new ChannelDeliveryError(
          'permanent',
          `Telegram takes files of at most ${rule.maxBytes / (1024 * 1024)} MB here (channel_attachment_too_large)`,
        );
      }
      const refused = textRefusal('telegram', text, true);
      if (refused)
        throw new ChannelDeliveryError('permanent', `Telegram takes captions of at most ${refused.max} characters (${refused.code})`);
      const fields: Record<string, string> = { chat_id: chatId, ...(text ? { caption: text } : {}) };
      // Uploaded when the bytes are at hand (a link to us works only where Telegram can reach us, and
      // sendDocument by URL takes only PDF, ZIP and GIF); by link otherwise.
      result = annex.read
        ? await this.call(channel, target.method, {
            multipart: multipartBody(fields, {
              field: target.field,
              filename: annex.originalFilename,
              contentType: annex.contentType,
              bytes: await annex.read(),
            }),
          })
        : await this.call(channel, target.method, { json: { ...fields, [target.field]: annex.url } });
    } else {
      const refused = textRefusal('telegram', text, false);
      if (refused)
        throw new ChannelDeliveryError('permanent', `Telegram takes messages of at most ${refused.max} characters (${refused.code})`);
      if (!text) throw new ChannelDeliveryError('permanent', 'Telegram does not take empty messages');
      result = await this.call(channel, 'sendMessage', { json: { chat_id: chatId, text } });
    }
    const sent = result as { message_id?: unknown; chat?: { id?: unknown } } | null;
    const id = typeof sent?.message_id === 'number' ? telegramMessageId(String(sent.chat?.id ?? chatId), sent.message_id) : null;
    return { externalId: id };
  }

  /** getMe proves the token; setWebhook points the bot's updates at the channel, with our secret. */
  async setUp(channel: ChannelTarget, webhook: WebhookRegistration): Promise<void> {
    const me = (await this.call(channel, 'getMe', { json: {} })) as { is_bot?: unknown } | null;
    if (me?.is_bot !== true) throw new ChannelDeliveryError('permanent', 'The token is not a bot token', 401);
    await this.call(channel, 'setWebhook', { json: { url: webhook.url, secret_token: webhook.secret, allowed_updates: ['message'] } });
  }

  verifyHandshake(): string | null {
    // Telegram makes no GET handshake: the webhook is registered by setWebhook.
    return null;
  }

  verifyWebhook(request_: WebhookRequest, channel: ChannelTarget): boolean {
    const secret = secretsOf(channel).webhook_secret;
    return secret !== undefined && this.verifySignature({ rawBody: request_.rawBody, headers: request_.headers, secret });
  }

  /** Telegram signs nothing: the secret_token given to setWebhook comes back in a header, compared in constant time. */
  verifySignature({ headers, secret }: SignatureInput): boolean {
    return sameSecret(headerValue(headers[TELEGRAM_SECRET_HEADER]), secret);
  }

  parseWebhook(request_: Pick<WebhookRequest, 'rawBody'>): InboundEvent[] {
    return parseTelegramUpdate(request_.rawBody);
  }

  /** getFile answers the file's path; its bytes are then at {base}/file/bot<token>/<file_path> (20 MB at most for bots). */
  async fetchMedia(
    media: InboundMedia,
    channel: ChannelTarget,
    maxBytes: number,
  ): Promise<{ bytes: Buffer; contentType: string; filename: string | null }> {
    const file = (await this.call(channel, 'getFile', { json: { file_id: media.ref } })) as {
      file_path?: unknown;
      file_size?: unknown;
    } | null;
    const path = typeof file?.file_path === 'string' ? file.file_path : '';
    if (!path || path.split('/').some((segment) => segment === '..' || segment === ''))
      throw new ChannelDeliveryError('permanent', 'Telegram gave no file path');
    if (typeof file?.file_size === 'number' && file.file_size > maxBytes)
      throw new ChannelDeliveryError('permanent', `Telegram file larger than ${maxBytes} bytes`);
    const base = baseUrlOf(channel);
    const download = await downloadMedia(`${base}/file/bot${botTokenOf(channel)}/${path.split('/').map(encodeURIComponent).join('/')}`, {
      ...mediaHostsOf(base, []),
      fetchImpl: this.fetchImpl,
      headers: {},
      maxBytes,
      timeoutMs: this.timeoutMs * 3,
      provider: 'Telegram',
      failure: (answer) => telegramFailure('Telegram file download', answer),
    });
    const headerType = download.contentType?.split(';')[0]?.trim();
    // Telegram serves files as application/octet-stream: the type the update named is better.
    const contentType =
      media.contentType ?? (headerType && headerType !== 'application/octet-stream' ? headerType : null) ?? 'application/octet-stream';
    return { bytes: download.bytes, contentType, filename: media.filename ?? path.split('/').pop() ?? null };
  }
}
