import { createHash } from 'node:crypto';
import type { EmailDetails } from '@atende/contract';
import type { AddressObject, ParsedMail } from 'mailparser';
import { ChannelDeliveryError } from '../adapter';
import type { InboundEvent } from '../provider';
import { foldQuotedText, sanitizeEmailHtml, textOfHtml, withoutImagePlaceholders } from './mail-text';

/** Media of an e-mail travels inside the parsed message: its ref carries the bytes (never an address). */
export const INLINE_MEDIA_PREFIX = 'inline-base64:';
/** Inline (cid:) images smaller than this are a layout's icons and spacers, not something sent. */
export const INLINE_IMAGE_MIN_BYTES = 4 * 1024;
/** The whole raw message we take (attachments included); bigger mail is refused by the listener. */
export const EMAIL_MAX_BYTES = 25 * 1024 * 1024;

const firstAddress = (value: AddressObject | AddressObject[] | undefined) => (Array.isArray(value) ? value[0] : value)?.value[0];
const ids = (value: string | string[] | undefined): string[] =>
  (Array.isArray(value) ? value : (value ?? '').split(/\s+/)).map((v) => v.trim()).filter((v) => /^<[^<>\s]{1,900}>$/.test(v));

/** Mail a machine wrote in answer to ours (RFC 3834 auto-replies, bounces, lists): never a contact's message, or two auto-responders would loop. */
function automatic(mail: ParsedMail): boolean {
  const autoSubmitted = String(mail.headers.get('auto-submitted') ?? 'no').toLowerCase();
  const precedence = String(mail.headers.get('precedence') ?? '').toLowerCase();
  return autoSubmitted !== 'no' || ['bulk', 'junk', 'list', 'auto_reply'].includes(precedence) || mail.headers.has('x-autoreply');
}

/**
 * The events of one raw e-mail (RFC 5322): one contact message with the folded text, the subject
 * and the threading headers, carrying the first attachment; every further attachment as its own
 * message (`<Message-ID>#n`), so each is an annex as on the other channels. Idempotent by
 * Message-ID (a hash of the raw message when it has none). Throws a permanent error when the body
 * is not mail at all.
 */
export async function parseEmail(raw: Buffer): Promise<InboundEvent[]> {
  let mail: ParsedMail;
  // mailparser (with its charset tables) is loaded with the first mail parsed, not when the process starts.
  const { simpleParser } = await import('mailparser');
  try {
    mail = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true });
  } catch {
    throw new ChannelDeliveryError('permanent', 'The message is not an e-mail');
  }
  const sender = firstAddress(mail.from);
  const address = sender?.address?.trim().toLowerCase();
  if (!address || !/^[^\s@]+@[^\s@]+$/.test(address) || address.length > 320) {
    if (!mail.headers.size) throw new ChannelDeliveryError('permanent', 'The message is not an e-mail');
    return [];
  }
  if (automatic(mail)) return [];
  const messageId = ids(mail.messageId)[0] ?? `<${createHash('sha256').update(raw).digest('hex')}@atende.invalid>`;
  const html = typeof mail.html === 'string' && mail.html.trim() ? await sanitizeEmailHtml(mail.html) : null;
  const fullText = (mail.text?.trim() || (html ? await textOfHtml(html) : '')).slice(0, 100_000);
  const { visible: newPart, folded } = foldQuotedText(fullText);
  // The agent reads the text without Outlook's [cid:…] image placeholders; full_text keeps the mail as written.
  const visible = withoutImagePlaceholders(newPart);
  const subject = mail.subject?.trim().slice(0, 500) || null;
  const details: EmailDetails = {
    type: 'email',
    subject,
    from: { address, name: sender?.name?.trim().slice(0, 200) || null },
    message_id: messageId,
    in_reply_to: ids(mail.inReplyTo)[0] ?? null,
    references: ids(mail.references).slice(-50),
    html: html && html.length <= 200_000 ? html : null,
    full_text: folded ? fullText : null,
  };
  const name = sender?.name?.trim().slice(0, 200) || null;
  const at = mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date : new Date();
  // An image shown inline in the HTML (cid:) may be what the contact means to send (a photo pasted
  // into the body): kept as an attachment like the others, since the stored HTML shows no images.
  // Only the small ones (spacers, icons, social badges of a signature) are layout and left out.
  const files = mail.attachments.filter(
    (a) => a.content.length > 0 && (!a.related || (a.contentType.startsWith('image/') && a.content.length >= INLINE_IMAGE_MIN_BYTES)),
  );
  const base = {
    kind: 'message' as const,
    from: address,
    profileName: name,
    sender: { identifier: address, name, username: null },
    button: null,
    contextExternalId: details.in_reply_to,
    at,
  };
  const mediaOf = (file: (typeof files)[number]) => ({
    ref: `${INLINE_MEDIA_PREFIX}${file.content.toString('base64')}`,
    contentType: file.contentType || null,
    filename: file.filename?.slice(0, 255) ?? null,
    caption: null,
  });
  const events: InboundEvent[] = [
    {
      ...base,
      externalId: messageId,
      text: visible || (files.length ? null : (subject ?? '')),
      media: files[0] ? mediaOf(files[0]) : null,
      details: { ...details },
    },
  ];
  files.slice(1).forEach((file, i) => {
    events.push({
      ...base,
      externalId: `${messageId}#${i + 2}`,
      text: null,
      media: mediaOf(file),
      details: { type: 'email', subject, message_id: messageId },
    });
  });
  return events;
}
