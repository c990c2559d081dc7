import { attachmentRuleOf, CHANNEL_CAPABILITIES, replySubject, textRefusal } from '@atende/contract';
import { ChannelDeliveryError, type ChannelTarget, type OutboundMessage, type SendResult, type SignatureInput } from '../adapter';
import { headerValue, sameSecret } from '../http';
import type { OutboundClient } from '../outbound';
import { isOutboundRefused, outboundPolicy, resolveAllowedHost, type OutboundPolicy } from '../outbound-address';
import type { InboundEvent, InboundMedia, ProviderChannelAdapter, WebhookRequest } from '../provider';
import { appendToSent, imapFailureReason, mailboxLogin } from './imap';
import { INLINE_MEDIA_PREFIX, parseEmail } from './inbound';
import { htmlOfText } from './mail-text';
import { EmailAccessTokens, type EmailOAuthClients } from './oauth';
import { emailSecretsOf, emailSettingsOf } from './settings';

/** A raw message posted to the channel's webhook (an inbound-parse service) proves itself with the channel's secret here. */
export const EMAIL_SECRET_HEADER = 'x-atende-email-secret';
/** The listener queues raw mail base64-encoded (8-bit bodies survive the JSON job); a raw HTTP post comes as text. */
export const RFC822_BASE64 = 'message/rfc822; transfer=base64';

const CAPABILITIES = CHANNEL_CAPABILITIES.email!;
const ADDRESS = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]+$/;

export interface EmailAdapterOptions {
  /** The install's address policy (OUTBOUND_ALLOW_HOSTS): the SMTP host is resolved and checked like any outbound URL. */
  outbound?: OutboundClient;
  timeoutMs?: number;
  /** Tests: resolve host names without DNS. */
  lookup?: (host: string) => Promise<{ address: string }[]>;
  /** The install's OAuth clients (EMAIL_OAUTH_* settings), for mailboxes that log in with a refresh token. */
  oauth?: EmailOAuthClients;
  /** Access tokens shared with the worker's IMAP reader; made from `oauth` when absent. */
  tokens?: EmailAccessTokens;
  /** Where a reply that was sent but not appended to the Sent folder is told. */
  log?: { warn(details: object, message: string): void };
}

/** SMTP answers: 4xx may pass later (greylisting, mailbox busy), 5xx will not; connection trouble is transient, refused login is not. */
function smtpFailure(error: unknown): ChannelDeliveryError {
  if (isOutboundRefused(error)) return new ChannelDeliveryError('permanent', error.message);
  // Already judged (an OAuth token that could not be had).
  if (error instanceof ChannelDeliveryError) return error;
  const e = error as { responseCode?: number; response?: string; code?: string; message?: string };
  const reason = (e.response ?? e.message ?? 'SMTP failure').replace(/\s+/g, ' ').trim().slice(0, 300);
  if (typeof e.responseCode === 'number') {
    return new ChannelDeliveryError(e.responseCode >= 500 ? 'permanent' : 'transient', `SMTP server answered: ${reason}`, e.responseCode);
  }
  if (e.code === 'EAUTH') return new ChannelDeliveryError('permanent', `SMTP login refused: ${reason}`, 401);
  if (e.code === 'EENVELOPE' || e.code === 'EMESSAGE') return new ChannelDeliveryError('permanent', `SMTP refused the message: ${reason}`);
  return new ChannelDeliveryError('transient', `SMTP server not reached: ${reason}`);
}

const domainOf = (address: string) => address.split('@')[1]?.toLowerCase() ?? 'localhost';

/**
 * The e-mail channel. Outbound by SMTP (nodemailer) with a Message-ID of ours
 * derived from the message uuid (a retried send carries the same id), In-Reply-To and References
 * to the thread, "Re: <subject>", text and simple HTML, the annex attached. Inbound mail (raw
 * RFC 5322) is parsed with mailparser into contact messages (inbound.ts).
 */
export class EmailAdapter implements ProviderChannelAdapter {
  readonly types = ['email'] as const;
  private readonly policy: OutboundPolicy;
  private readonly timeoutMs: number;
  private readonly tokens: EmailAccessTokens;

  constructor(private readonly options: EmailAdapterOptions = {}) {
    this.policy = options.outbound?.policy ?? outboundPolicy('');
    this.timeoutMs = options.timeoutMs ?? 20_000;
    this.tokens = options.tokens ?? new EmailAccessTokens(options.oauth, options.outbound);
  }

  async send(message: OutboundMessage, channel: ChannelTarget): Promise<SendResult> {
    const settings = emailSettingsOf(channel);
    const secrets = emailSecretsOf(channel);
    const to = message.contact.identifier?.trim().toLowerCase() ?? '';
    if (!ADDRESS.test(to)) throw new ChannelDeliveryError('permanent', 'The contact has no e-mail address');
    const text = message.content.trim();
    const refused = textRefusal('email', text, message.annex !== null);
    if (refused)
      throw new ChannelDeliveryError('permanent', `E-mail takes messages of at most ${refused.max} characters (${refused.code})`);
    if (!text && !message.annex) throw new ChannelDeliveryError('permanent', 'An e-mail needs a text or an attachment');
    const attachments: { filename: string; contentType: string; content: Buffer }[] = [];
    let linkLine = '';
    if (message.annex) {
      const rule = attachmentRuleOf(CAPABILITIES, message.annex.contentType);
      if (rule && message.annex.size !== undefined && message.annex.size > rule.maxBytes) {
        throw new ChannelDeliveryError(
          'permanent',
          `E-mail takes files of at most ${rule.maxBytes / (1024 * 1024)} MB here (channel_attachment_too_large)`,
        );
      }
      if (message.annex.read)
        attachments.push({
          filename: message.annex.originalFilename,
          contentType: message.annex.contentType,
          content: await message.annex.read(),
        });
      else linkLine = `\n\n${message.annex.originalFilename}: ${message.annex.url}`;
    }
    const references = (message.thread?.references ?? []).slice(-20);
    const messageId = `<${message.uuid}@${domainOf(settings.from_address)}>`;
    const body = `${text}${linkLine}`.trim();
    let address: string;
    let login: Awaited<ReturnType<typeof mailboxLogin>>;
    try {
      address = await resolveAllowedHost(settings.smtp_host, this.policy, this.options.lookup);
      login = await mailboxLogin(settings.username ?? settings.from_address, settings, secrets, this.tokens);
    } catch (error) {
      throw smtpFailure(error);
    }
    const port = settings.smtp_port ?? (settings.smtp_secure ? 465 : 587);
    // nodemailer is loaded with the first e-mail sent, so a process that sends none never holds it.
    const [{ default: nodemailer }, { default: MailComposer }] = await Promise.all([
      import('nodemailer'),
      import('nodemailer/lib/mail-composer'),
    ]);
    // The message is built once: the same bytes go to SMTP and, when the channel has a sent_mailbox, to that folder.
    const raw = await new MailComposer({
      from: settings.from_address,
      to,
      subject:
        message.thread?.fresh && message.thread.subject
          ? message.thread.subject
          : replySubject(message.thread?.subject ?? null).replace(/^Re:$/, 'Message'),
      text: body,
      html: htmlOfText(body),
      messageId,
      ...(references.length ? { inReplyTo: references[references.length - 1], references } : {}),
      attachments,
    })
      .compile()
      .build();
    const transport = nodemailer.createTransport({
      host: address,
      port,
      secure: settings.smtp_secure ?? port === 465,
      auth: !login
        ? undefined
        : 'pass' in login
          ? { user: login.user, pass: login.pass }
          : { type: 'OAuth2', user: login.user, accessToken: login.accessToken },
      // The certificate is checked against the name the admin gave, not the address we connect to.
      tls: { servername: settings.smtp_host.replace(/^\[|\]$/g, '') },
      connectionTimeout: this.timeoutMs,
      greetingTimeout: this.timeoutMs,
      socketTimeout: this.timeoutMs * 3,
      name: domainOf(settings.from_address),
    });
    try {
      await transport.sendMail({ envelope: { from: settings.from_address, to: [to] }, raw });
    } catch (error) {
      // An expired or revoked access token: the next attempt exchanges the refresh token again.
      if (login && 'accessToken' in login && settings.oauth_provider && secrets.refresh_token)
        this.tokens.forget(settings.oauth_provider, secrets.refresh_token);
      throw smtpFailure(error);
    } finally {
      transport.close();
    }
    if (settings.sent_mailbox) await this.appendSent(channel, raw, messageId);
    return { externalId: messageId };
  }

  /** The reply into the mailbox's Sent folder; the mail is already sent, so a failure here is only told. */
  private async appendSent(channel: ChannelTarget, raw: Buffer, messageId: string): Promise<void> {
    try {
      await appendToSent(channel, raw, {
        policy: this.policy,
        tokens: this.tokens,
        lookup: this.options.lookup,
        timeoutMs: this.timeoutMs,
      });
    } catch (error) {
      this.options.log?.warn(
        { channel: channel.uuid, messageId, reason: imapFailureReason(error) },
        'e-mail reply sent, but not appended to the Sent folder',
      );
    }
  }

  verifyHandshake(): string | null {
    return null;
  }

  /** A raw message posted to the webhook: the channel's secret in X-Atende-Email-Secret (the listener checks the forwarding address itself). */
  verifyWebhook(request: WebhookRequest, channel: ChannelTarget): boolean {
    const secret = emailSecretsOf(channel).webhook_secret;
    return secret !== undefined && this.verifySignature({ rawBody: request.rawBody, headers: request.headers, secret });
  }

  verifySignature({ headers, secret }: SignatureInput): boolean {
    return sameSecret(headerValue(headers[EMAIL_SECRET_HEADER]), secret);
  }

  parseWebhook(request: Pick<WebhookRequest, 'rawBody'> & { contentType: string }): Promise<InboundEvent[]> {
    const raw = request.contentType.includes('transfer=base64')
      ? Buffer.from(request.rawBody, 'base64')
      : Buffer.from(request.rawBody, 'utf8');
    return parseEmail(raw);
  }

  /** The attachment's bytes came inside the mail: decoded, never fetched from anywhere. */
  async fetchMedia(
    media: InboundMedia,
    _channel: ChannelTarget,
    maxBytes: number,
  ): Promise<{ bytes: Buffer; contentType: string; filename: string | null }> {
    if (!media.ref.startsWith(INLINE_MEDIA_PREFIX))
      throw new ChannelDeliveryError('permanent', 'E-mail attachments come inside the message');
    const bytes = Buffer.from(media.ref.slice(INLINE_MEDIA_PREFIX.length), 'base64');
    if (bytes.length > maxBytes) throw new ChannelDeliveryError('permanent', `E-mail attachment larger than ${maxBytes} bytes`);
    return { bytes, contentType: media.contentType ?? 'application/octet-stream', filename: media.filename };
  }
}
