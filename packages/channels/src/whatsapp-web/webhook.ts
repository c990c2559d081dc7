import { contactCardText, locationText, type MessageDetails } from '@atende/contract';
import { z } from 'zod';
import { ChannelDeliveryError } from '../adapter';
import type { InboundEvent, InboundMedia } from '../provider';

/**
 * The webhooks of an Evolution API v2 bridge (fixtures/provider-docs/whatsapp-web/README.md): one
 * event per request, `{event, instance, data, ...}`. Contacts' messages (messages.upsert) become
 * messages, receipts of ours (messages.update) statuses, and the phone's connection
 * (connection.update) a connection event. The business's own messages (fromMe: sent from the
 * phone, or our sends echoed back), groups, broadcast statuses and WhatsApp's protocol messages
 * (edits, deletions) are acknowledged and left out, saying why.
 */

const Text = z.string().max(70_000);
const Str = z.string().max(2000);
/** Numbers come as numbers or digit strings (Baileys' Long serialised). */
const Num = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/)
    .transform(Number),
]);

const ContextSchema = z.looseObject({ stanzaId: Str.nullish() });
const MediaSchema = z.looseObject({
  mimetype: Str.nullish(),
  caption: Text.nullish(),
  fileName: Str.nullish(),
  title: Str.nullish(),
  ptt: z.boolean().nullish(),
  contextInfo: ContextSchema.nullish(),
});
const ContactCardSchema = z.looseObject({ displayName: Str.nullish(), vcard: z.string().max(20_000).nullish() });
const LocationSchema = z.looseObject({
  degreesLatitude: Num.pipe(z.number().min(-90).max(90)),
  degreesLongitude: Num.pipe(z.number().min(-180).max(180)),
  name: Str.nullish(),
  address: Str.nullish(),
});

/** The message kinds read; each is optional and one malformed kind only loses that part. */
const ContentSchema = z.looseObject({
  conversation: Text.nullish(),
  extendedTextMessage: z.looseObject({ text: Text.nullish(), contextInfo: ContextSchema.nullish() }).nullish(),
  imageMessage: MediaSchema.nullish(),
  videoMessage: MediaSchema.nullish(),
  audioMessage: MediaSchema.nullish(),
  documentMessage: MediaSchema.nullish(),
  stickerMessage: MediaSchema.nullish(),
  locationMessage: LocationSchema.nullish().catch(null),
  liveLocationMessage: LocationSchema.nullish().catch(null),
  contactMessage: ContactCardSchema.nullish(),
  contactsArrayMessage: z.looseObject({ contacts: z.array(ContactCardSchema).max(50).nullish() }).nullish(),
  reactionMessage: z.looseObject({ text: Str.nullish() }).nullish(),
  buttonsResponseMessage: z.looseObject({ selectedDisplayText: Str.nullish(), selectedButtonId: Str.nullish() }).nullish(),
  templateButtonReplyMessage: z.looseObject({ selectedDisplayText: Str.nullish(), selectedId: Str.nullish() }).nullish(),
  listResponseMessage: z
    .looseObject({ title: Str.nullish(), singleSelectReply: z.looseObject({ selectedRowId: Str.nullish() }).nullish() })
    .nullish(),
  protocolMessage: z.unknown().optional(),
});
type Content = z.infer<typeof ContentSchema>;

const KeySchema = z.looseObject({
  remoteJid: Str,
  fromMe: z.boolean().nullish(),
  id: z.string().min(1).max(200),
  /** WhatsApp's other address of the chat: the phone's JID when remoteJid is a LID (privacy id). */
  remoteJidAlt: Str.nullish(),
});
const UpsertSchema = z.looseObject({
  key: KeySchema,
  pushName: Str.nullish(),
  message: z.record(z.string(), z.unknown()).nullish(),
  messageType: Str.nullish(),
  messageTimestamp: Num.nullish(),
  contextInfo: ContextSchema.nullish().catch(null),
});
const UpdateSchema = z.looseObject({
  keyId: z.string().min(1).max(200).nullish(),
  key: z.looseObject({ id: z.string().min(1).max(200).nullish(), fromMe: z.boolean().nullish() }).nullish(),
  remoteJid: Str.nullish(),
  fromMe: z.boolean().nullish(),
  status: z.union([z.string().max(40), z.number()]).nullish(),
});
const ConnectionSchema = z.looseObject({ state: Str.nullish(), statusReason: Num.nullish() });
const EnvelopeSchema = z.looseObject({
  event: z.string().min(1).max(100),
  instance: Str.nullish(),
  data: z.unknown(),
  /** When the bridge sent the event: the time of a receipt or a connection change (which carry none of their own). */
  date_time: z.iso.datetime({ offset: true }).nullish().catch(null),
});

/** Baileys' receipt statuses, by name (the bridge's) or by number (the WhatsApp protocol's). */
const RECEIPTS: Record<string, 'sent' | 'delivered' | 'read' | 'failed'> = {
  ERROR: 'failed',
  '0': 'failed',
  SERVER_ACK: 'sent',
  '2': 'sent',
  DELIVERY_ACK: 'delivered',
  '3': 'delivered',
  READ: 'read',
  '4': 'read',
  PLAYED: 'read',
  '5': 'read',
};

const at = (seconds: number | null | undefined) =>
  typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date();
const ignored = (reason: string): InboundEvent => ({ kind: 'ignored', reason });

/** Wrappers WhatsApp puts around a message (disappearing, view once, edited, a document with its caption): the message inside. */
const WRAPPERS = ['ephemeralMessage', 'viewOnceMessage', 'viewOnceMessageV2', 'viewOnceMessageV2Extension', 'documentWithCaptionMessage'];
function unwrap(message: Record<string, unknown>): Record<string, unknown> {
  let current = message;
  for (let depth = 0; depth < 4; depth++) {
    const wrapper = WRAPPERS.find((w) => typeof current[w] === 'object' && current[w] !== null);
    const inner = wrapper ? (current[wrapper] as { message?: unknown }).message : undefined;
    if (!inner || typeof inner !== 'object') break;
    current = inner as Record<string, unknown>;
  }
  return current;
}

/** A vCard's phone numbers (`TEL`, WhatsApp adds `waid=`) and e-mail addresses, in order. */
function vcardValues(vcard: string | null | undefined): { phones: string[]; emails: string[] } {
  const phones: string[] = [];
  const emails: string[] = [];
  for (const line of (vcard ?? '').split(/\r?\n/).slice(0, 200)) {
    const match = /^(?:item\d+\.)?(TEL|EMAIL)[^:]*:(.+)$/i.exec(line.trim());
    if (!match) continue;
    const value = match[2]!.trim().slice(0, 200);
    if (match[1]!.toUpperCase() === 'TEL') phones.push(value);
    else emails.push(value);
  }
  return { phones, emails };
}

/** The message's file, fetched later from the bridge by the message's id. */
function mediaOf(content: Content, id: string): InboundMedia | null {
  const pick = (
    part: z.infer<typeof MediaSchema> | null | undefined,
    fallbackType: string | null,
    extra: Partial<InboundMedia> = {},
  ): InboundMedia | null =>
    part
      ? {
          ref: id,
          contentType: part.mimetype?.split(';')[0]?.trim() || fallbackType,
          filename: part.fileName ?? null,
          caption: part.caption ?? null,
          ...extra,
        }
      : null;
  return (
    pick(content.imageMessage, 'image/jpeg') ??
    pick(content.videoMessage, 'video/mp4') ??
    // A push-to-talk recording is a voice note; other audio is a file.
    pick(content.audioMessage, 'audio/ogg', content.audioMessage?.ptt ? { voice: true } : {}) ??
    pick(content.documentMessage, 'application/octet-stream') ??
    pick(content.stickerMessage, 'image/webp')
  );
}

/** A location, contact cards, a reaction or a kind Atende cannot show, as text and details. */
function detailsOf(content: Content, messageType: string): { text: string; details: MessageDetails } | null {
  const place = content.locationMessage ?? content.liveLocationMessage;
  if (place) {
    const details: MessageDetails = {
      type: 'location',
      latitude: place.degreesLatitude,
      longitude: place.degreesLongitude,
      name: place.name ?? null,
      address: place.address ?? null,
    };
    return { text: locationText(details), details };
  }
  const cards = content.contactMessage ? [content.contactMessage] : (content.contactsArrayMessage?.contacts ?? []);
  if (cards.length) {
    const parsed = cards.map((c) => ({ name: c.displayName ?? '', ...vcardValues(c.vcard) }));
    return { text: parsed.map(contactCardText).join('\n\n'), details: { type: 'contact', ...parsed[0]! } };
  }
  if (content.reactionMessage) {
    const emoji = content.reactionMessage.text ?? '';
    return { text: emoji, details: { type: 'reaction', emoji } };
  }
  return { text: '', details: { type: 'unsupported', raw_type: messageType.slice(0, 100) } };
}

function buttonOf(content: Content): { text: string; payload: string | null } | null {
  const b = content.buttonsResponseMessage;
  if (b?.selectedDisplayText) return { text: b.selectedDisplayText, payload: b.selectedButtonId ?? null };
  const t = content.templateButtonReplyMessage;
  if (t?.selectedDisplayText) return { text: t.selectedDisplayText, payload: t.selectedId ?? null };
  const l = content.listResponseMessage;
  if (l?.title) return { text: l.title, payload: l.singleSelectReply?.selectedRowId ?? null };
  return null;
}

/** The contact's phone in E.164 from the chat's JID, or why the message is not a contact's. */
function senderOf(key: z.infer<typeof KeySchema>): { phone: string } | { ignored: string } {
  const jid = key.remoteJid;
  if (jid.endsWith('@g.us')) return { ignored: 'group message' };
  if (jid === 'status@broadcast' || jid.endsWith('@broadcast') || jid.endsWith('@newsletter'))
    return { ignored: 'status or broadcast message' };
  // A contact known by a LID (WhatsApp's privacy id) is answered at the phone the bridge gives beside it.
  const phoneJid = jid.endsWith('@lid') ? (key.remoteJidAlt ?? '') : jid;
  const digits = /^(\d{6,20})(?::\d+)?@s\.whatsapp\.net$/.exec(phoneJid)?.[1];
  return digits ? { phone: `+${digits}` } : { ignored: 'message from an address without a phone number' };
}

function upsertEvent(raw: unknown): InboundEvent {
  const parsed = UpsertSchema.safeParse(raw);
  if (!parsed.success) return ignored('message not understood');
  const m = parsed.data;
  // Sent by the business: from the linked phone itself, or our own send echoed back.
  if (m.key.fromMe) return ignored('message sent by the business');
  const sender = senderOf(m.key);
  if ('ignored' in sender) return ignored(sender.ignored);
  const inner = unwrap(m.message ?? {});
  if ('protocolMessage' in inner) return ignored('protocol message (an edit or a deletion)');
  const content = ContentSchema.safeParse(inner);
  if (!content.success) return ignored('message content not understood');
  const c = content.data;
  const media = mediaOf(c, m.key.id);
  const button = buttonOf(c);
  const text = c.conversation ?? c.extendedTextMessage?.text ?? null;
  const other = media || button || text !== null ? null : detailsOf(c, m.messageType ?? Object.keys(inner)[0] ?? 'unknown');
  const context =
    m.contextInfo?.stanzaId ??
    c.extendedTextMessage?.contextInfo?.stanzaId ??
    (c.imageMessage ?? c.videoMessage ?? c.audioMessage ?? c.documentMessage)?.contextInfo?.stanzaId ??
    null;
  return {
    kind: 'message',
    externalId: m.key.id,
    from: sender.phone,
    profileName: m.pushName?.trim() || null,
    text: other ? other.text : text,
    media,
    button,
    contextExternalId: context,
    at: at(m.messageTimestamp),
    ...(other ? { details: other.details } : {}),
  };
}

function updateEvent(raw: unknown, sentAt: Date): InboundEvent {
  const parsed = UpdateSchema.safeParse(raw);
  if (!parsed.success) return ignored('receipt not understood');
  const u = parsed.data;
  const id = u.keyId ?? u.key?.id;
  // Receipts of the contact's own messages (read by us on the phone) say nothing of ours.
  if (!id || (u.fromMe ?? u.key?.fromMe) === false) return ignored('receipt of a contact message');
  const status = RECEIPTS[String(u.status ?? '').toUpperCase()];
  if (!status) return ignored(`receipt ${String(u.status ?? 'without a status')}`);
  return {
    kind: 'status',
    externalId: id,
    status,
    error: status === 'failed' ? { code: 'ERROR', title: 'WhatsApp did not deliver the message' } : null,
    at: sentAt,
  };
}

function connectionEvent(raw: unknown, sentAt: Date): InboundEvent {
  const parsed = ConnectionSchema.safeParse(raw);
  const state = parsed.success ? parsed.data.state : null;
  if (state !== 'open' && state !== 'connecting' && state !== 'close' && state !== 'refused')
    return ignored('connection update without a state');
  return {
    kind: 'connection',
    // 'refused': the bridge gave up showing QR codes; the phone is not linked.
    state: state === 'refused' ? 'close' : state,
    reason: parsed.success && typeof parsed.data.statusReason === 'number' ? parsed.data.statusReason : null,
    at: sentAt,
  };
}

/** The bridge names events `messages.upsert`; set up by event (webhook_by_events) or from v1 they may read `MESSAGES_UPSERT`. */
const eventName = (raw: string) => raw.trim().toLowerCase().replace(/[_-]/g, '.');

/**
 * Events of one bridge webhook for the channel's instance. Throws a permanent ChannelDeliveryError
 * on a body that is no bridge webhook; another instance's event (a bridge-wide webhook) is left out.
 */
export function parseWhatsAppWebWebhook(rawBody: string, instance: string): InboundEvent[] {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    throw new ChannelDeliveryError('permanent', 'Webhook body is not JSON');
  }
  const envelope = EnvelopeSchema.safeParse(body);
  if (!envelope.success) throw new ChannelDeliveryError('permanent', 'Webhook body is not a WhatsApp Web bridge event');
  const { event, data } = envelope.data;
  const sentAt = envelope.data.date_time ? new Date(envelope.data.date_time) : new Date();
  if (envelope.data.instance && envelope.data.instance !== instance) return [ignored('event of another bridge instance')];
  const items = (Array.isArray(data) ? data : [data]).slice(0, 100);
  switch (eventName(event)) {
    case 'messages.upsert':
      return items.map(upsertEvent);
    case 'messages.update':
      return items.map((item) => updateEvent(item, sentAt));
    case 'connection.update':
      return [connectionEvent(data, sentAt)];
    default:
      // qrcode.updated (the QR is read from the bridge when shown), send.message, contacts, chats, presence...
      return [];
  }
}
