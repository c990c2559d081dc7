import { contactCardText, locationText, type MessageDetails } from '@atende/contract';
import { z } from 'zod';
import { ChannelDeliveryError } from '../adapter';
import type { InboundEvent, InboundMedia } from '../provider';

/**
 * Telegram Update objects (https://core.telegram.org/bots/api#update) as the Bot API posts them to
 * a webhook, one update per request. Only messages of private chats are contacts writing to the
 * business; edited messages, channel posts, group chats and other update kinds are acknowledged and
 * ignored (an edit would rewrite history the agent already answered). Every message of a contact is
 * kept: text and files as such, a location or venue as a map link, a shared contact as a card, and
 * any other kind (poll, dice, game, ...) as an unsupported message naming its type. A reply names the
 * message it answers. A chat without `type` (the older form of Chat in Telegram's own examples) is
 * private when its id is the sender's.
 */

const FileSchema = z.object({
  file_id: z.string().min(1).max(300),
  file_unique_id: z.string().optional(),
  file_size: z.number().optional(),
  mime_type: z.string().max(200).optional(),
  file_name: z.string().max(300).optional(),
});
const UserSchema = z.object({
  id: z.number().int(),
  is_bot: z.boolean().optional(),
  first_name: z.string().max(200).optional(),
  last_name: z.string().max(200).optional(),
  username: z.string().max(100).optional(),
});
/** A sticker names no mime_type: its format follows from is_animated (TGS) and is_video (WEBM), else WEBP. */
const StickerSchema = FileSchema.extend({ is_animated: z.boolean().optional(), is_video: z.boolean().optional() });
const MessageSchema = z.object({
  message_id: z.number().int(),
  date: z.number().optional(),
  from: UserSchema.optional(),
  chat: z.object({ id: z.number().int(), type: z.string().optional() }),
  // The message answered; a malformed one only loses the link, not the message.
  reply_to_message: z
    .object({ message_id: z.number().int(), chat: z.object({ id: z.number().int() }).optional() })
    .optional()
    .catch(undefined),
  text: z.string().optional(),
  caption: z.string().optional(),
  photo: z.array(FileSchema.extend({ width: z.number().optional(), height: z.number().optional() })).optional(),
  document: FileSchema.optional(),
  voice: FileSchema.optional(),
  audio: FileSchema.optional(),
  video: FileSchema.optional(),
  video_note: FileSchema.optional(),
  sticker: StickerSchema.optional(),
  location: z.object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) }).optional(),
  venue: z.object({ title: z.string().max(300).optional(), address: z.string().max(500).optional() }).optional(),
  contact: z
    .object({
      phone_number: z.string().max(50),
      first_name: z.string().max(200).optional(),
      last_name: z.string().max(200).optional(),
    })
    .optional(),
});
export const UpdateSchema = z.looseObject({ update_id: z.number().int(), message: MessageSchema.optional() });
export type TelegramMessage = z.infer<typeof MessageSchema>;

/** The id we store for a Telegram message: message ids are unique per chat only. */
export const telegramMessageId = (chatId: number | string, messageId: number | string) => `${chatId}:${messageId}`;

/** A sticker's file type: video stickers are WEBM, animated ones TGS (Lottie), the others WEBP images. */
function stickerType(sticker: z.infer<typeof StickerSchema>): string {
  if (sticker.mime_type) return sticker.mime_type;
  if (sticker.is_video) return 'video/webm';
  if (sticker.is_animated) return 'application/x-tgsticker';
  return 'image/webp';
}

function mediaOf(m: TelegramMessage): InboundMedia | null {
  const caption = m.caption ?? null;
  if (m.photo?.length) {
    // Telegram sends every size it made; the largest is the original.
    const largest = m.photo.reduce((a, b) =>
      (b.file_size ?? (b.width ?? 0) * (b.height ?? 0)) > (a.file_size ?? (a.width ?? 0) * (a.height ?? 0)) ? b : a,
    );
    return { ref: largest.file_id, contentType: 'image/jpeg', filename: null, caption };
  }
  if (m.voice) return { ref: m.voice.file_id, contentType: m.voice.mime_type ?? 'audio/ogg', filename: null, caption, voice: true };
  if (m.sticker) return { ref: m.sticker.file_id, contentType: stickerType(m.sticker), filename: null, caption };
  const file = m.document ?? m.audio ?? m.video ?? m.video_note;
  if (!file) return null;
  return { ref: file.file_id, contentType: file.mime_type ?? null, filename: file.file_name ?? null, caption };
}

/** Fields of a Message that describe it rather than being its content. */
const MESSAGE_METADATA = new Set([
  'message_id',
  'message_thread_id',
  'date',
  'edit_date',
  'from',
  'sender_chat',
  'sender_boost_count',
  'sender_business_bot',
  'business_connection_id',
  'chat',
  'forward_origin',
  'forward_from',
  'forward_from_chat',
  'forward_from_message_id',
  'forward_signature',
  'forward_sender_name',
  'forward_date',
  'is_topic_message',
  'is_automatic_forward',
  'is_from_offline',
  'reply_to_message',
  'external_reply',
  'quote',
  'reply_to_story',
  'via_bot',
  'author_signature',
  'media_group_id',
  'has_protected_content',
  'has_media_spoiler',
  'show_caption_above_media',
  'entities',
  'caption_entities',
  'link_preview_options',
  'effect_id',
  'reply_markup',
  'text',
  'caption',
]);

/** What a message without text or a file holds: a location, a contact card, or the type Atende cannot show. */
function detailsOf(m: TelegramMessage, raw: Record<string, unknown>): { text: string; details: MessageDetails } {
  if (m.location) {
    const details: MessageDetails = {
      type: 'location',
      latitude: m.location.latitude,
      longitude: m.location.longitude,
      name: m.venue?.title ?? null,
      address: m.venue?.address ?? null,
    };
    return { text: locationText(details), details };
  }
  if (m.contact) {
    const name = [m.contact.first_name, m.contact.last_name].filter(Boolean).join(' ').trim();
    const details: MessageDetails = { type: 'contact', name, phones: [m.contact.phone_number], emails: [] };
    return { text: contactCardText(details), details };
  }
  const rawType = Object.keys(raw).find((key) => !MESSAGE_METADATA.has(key)) ?? 'unknown';
  return { text: '', details: { type: 'unsupported', raw_type: rawType.slice(0, 100) } };
}

/** The update's message as posted, every field kept (the schema drops the ones it does not name). */
function rawMessage(body: unknown): Record<string, unknown> {
  return z.object({ message: z.record(z.string(), z.unknown()) }).safeParse(body).data?.message ?? {};
}

/** The events of one webhook body: zero or one contact message. Throws a permanent error on a body that is no Update. */
export function parseTelegramUpdate(rawBody: string): InboundEvent[] {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    throw new ChannelDeliveryError('permanent', 'Webhook body is not JSON');
  }
  const update = UpdateSchema.safeParse(body);
  if (!update.success) throw new ChannelDeliveryError('permanent', 'Webhook body is not a Telegram update');
  const m = update.data.message;
  if (!m || !m.from || m.from.is_bot) return [];
  const privateChat = m.chat.type === undefined ? m.chat.id === m.from.id : m.chat.type === 'private';
  if (!privateChat) return [];
  const media = mediaOf(m);
  const content = media || m.text !== undefined ? null : detailsOf(m, rawMessage(body));
  const text = content ? content.text : (m.text ?? null);
  const name = [m.from.first_name, m.from.last_name].filter(Boolean).join(' ').trim() || null;
  const identifier = String(m.from.id);
  return [
    {
      kind: 'message',
      externalId: telegramMessageId(m.chat.id, m.message_id),
      from: identifier,
      profileName: name,
      sender: { identifier, name, username: m.from.username ?? null },
      text,
      media,
      button: null,
      contextExternalId: m.reply_to_message
        ? telegramMessageId(m.reply_to_message.chat?.id ?? m.chat.id, m.reply_to_message.message_id)
        : null,
      at: m.date ? new Date(m.date * 1000) : new Date(),
      ...(content ? { details: content.details } : {}),
    },
  ];
}
