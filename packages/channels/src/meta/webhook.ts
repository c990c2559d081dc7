import type { MessageDetails } from '@atende/contract';
import { z } from 'zod';
import { ChannelDeliveryError } from '../adapter';
import type { InboundEvent, InboundMedia } from '../provider';

/**
 * Webhook bodies of the Messenger Platform (object 'page') and Instagram messaging (object
 * 'instagram'): entry[].messaging[] with one of message (mid, text, attachments[].payload.url),
 * postback (a button of the page's menu or Get Started: its title), reaction (an emoji on a message),
 * delivery (mids, watermark) or read (watermark; Instagram names the mid). Every message of a contact
 * is kept: each attachment is a message of its own (the first keeps the mid, the next ones `<mid>#2`,
 * `#3`, ...), a sticker is an image, an Instagram story mention keeps the story's media, a reply to a
 * story names the story, a shared link keeps its address, a tapped quick reply keeps its payload as
 * the button pressed, a reaction keeps its emoji, and a kind Atende cannot show is stored naming its
 * type. Echoes of the page's own messages are ours and ignored; referrals are not messages.
 * The sender is a page-scoped id, or a `user_ref` for a chat plugin visitor; times are numbers or
 * strings, in milliseconds or (the current postback reference) seconds.
 * https://developers.facebook.com/docs/messenger-platform/reference/webhook-events
 */

/** A time as Meta writes it: a number, or ("all JSON properties are strings") a string of one. */
const TimeSchema = z.union([z.number(), z.string()]).optional();
const AttachmentSchema = z.object({
  type: z.string(),
  payload: z
    .object({
      url: z.string().max(4000).optional(),
      title: z.string().max(1000).optional(),
      sticker_id: z.union([z.number(), z.string()]).optional(),
    })
    .nullable()
    .optional(),
});
const MessagingSchema = z.object({
  // A chat plugin visitor is known by user_ref instead of a PSID; an event with neither is skipped.
  sender: z.object({ id: z.string().max(100).optional(), user_ref: z.string().max(100).optional() }),
  recipient: z.object({ id: z.string().max(100).optional() }).optional(),
  timestamp: TimeSchema,
  message: z
    .object({
      mid: z.string().min(1).max(300),
      text: z.string().optional(),
      quick_reply: z.object({ payload: z.string().max(1000).optional() }).optional(),
      is_echo: z.boolean().optional(),
      is_deleted: z.boolean().optional(),
      is_unsupported: z.boolean().optional(),
      attachments: z.array(AttachmentSchema).optional(),
      reply_to: z
        .object({
          mid: z.string().optional(),
          story: z.object({ url: z.string().max(4000).optional(), id: z.string().optional() }).optional(),
        })
        .optional(),
    })
    .optional(),
  postback: z
    .object({ mid: z.string().max(300).optional(), title: z.string().max(1000).optional(), payload: z.string().max(1000).optional() })
    .optional(),
  reaction: z
    .object({
      mid: z.string().max(300).optional(),
      action: z.string().optional(),
      reaction: z.string().max(100).optional(),
      emoji: z.string().max(100).optional(),
    })
    .optional(),
  delivery: z.object({ mids: z.array(z.string()).optional(), watermark: TimeSchema }).optional(),
  read: z.object({ watermark: TimeSchema, mid: z.string().optional() }).optional(),
});
const WebhookSchema = z.object({
  object: z.string(),
  entry: z.array(z.object({ id: z.string(), time: TimeSchema, messaging: z.array(MessagingSchema).optional() })),
});
export type MetaMessaging = z.infer<typeof MessagingSchema>;
type Attachment = z.infer<typeof AttachmentSchema>;

/** What a Meta attachment type is stored as when the download names no type (a story mention is an image or a video). */
const GUESSED_TYPE: Record<string, string> = { image: 'image/jpeg', sticker: 'image/png', audio: 'audio/mp4', video: 'video/mp4' };
/** Attachment types whose payload.url is the file itself (a sticker is its image). */
const FILE_TYPES = new Set(['image', 'sticker', 'audio', 'video', 'file', 'story_mention', 'ig_reel', 'reel']);

/** Below this a time is in seconds (1e11 s is far in the future, 1e11 ms is 1973): Meta's times are milliseconds, some seconds. */
const SECONDS_BELOW = 1e11;

/** The milliseconds of a Meta time (number or numeric string, seconds or milliseconds); undefined when it is none. */
function millisOf(time: number | string | undefined): number | undefined {
  const value = typeof time === 'string' && time.trim() !== '' ? Number(time) : time;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined;
  return value < SECONDS_BELOW ? value * 1000 : value;
}

const atOf = (time: number | string | undefined) => {
  const ms = millisOf(time);
  return ms !== undefined ? new Date(ms) : new Date();
};

/**
 * The attachments of a message as the contact sent them. During Meta's sticker transition a sticker
 * comes twice, as a `sticker` attachment and as the former `image` one (with the same sticker_id or
 * address): the image copy is left out, so one sticker is one message.
 */
function withoutStickerCopies(attachments: Attachment[]): Attachment[] {
  const stickers = attachments.filter((a) => a.type === 'sticker');
  if (stickers.length === 0) return attachments;
  const ids = new Set(stickers.flatMap((a) => (a.payload?.sticker_id !== undefined ? [String(a.payload.sticker_id)] : [])));
  const urls = new Set(stickers.flatMap((a) => (a.payload?.url ? [a.payload.url] : [])));
  const copyOfSticker = (a: Attachment) => {
    if (a.type !== 'image') return false;
    const id = a.payload?.sticker_id;
    const url = a.payload?.url;
    return (id !== undefined && (ids.size === 0 || ids.has(String(id)))) || (url !== undefined && urls.has(url));
  };
  return attachments.filter((a) => !copyOfSticker(a));
}

/** One attachment as message content: its file, or its link (a shared post, a template), or the type Atende cannot show. */
function attachmentContent(a: Attachment): { media: InboundMedia | null; text: string | null; details: MessageDetails | null } {
  const url = a.payload?.url ?? null;
  if (url && FILE_TYPES.has(a.type)) {
    const media: InboundMedia = { ref: url, contentType: GUESSED_TYPE[a.type] ?? null, filename: null, caption: null, voice: false };
    return { media, text: null, details: a.type === 'story_mention' ? { type: 'story_mention' } : null };
  }
  const link = [a.payload?.title, url].filter(Boolean).join('\n');
  if (link) return { media: null, text: link, details: null };
  return { media: null, text: null, details: { type: 'unsupported', raw_type: a.type.slice(0, 100) } };
}

function messagingEvents(m: MetaMessaging, pageId: string): InboundEvent[] {
  // Page-scoped (PSID) or Instagram-scoped (IGSID) id, or a chat plugin visitor's user_ref.
  const senderId = m.sender.id || m.sender.user_ref;
  // The page's own messages come back as echoes (when subscribed): they are ours, not the contact's.
  if (!senderId || senderId === pageId || m.message?.is_echo) return [];
  const time = millisOf(m.timestamp);
  const base = {
    kind: 'message' as const,
    from: senderId,
    profileName: null,
    // No phone, no name in the webhook.
    sender: { identifier: senderId, name: null, username: null },
    button: null,
    at: atOf(time),
  };
  const message = m.message;
  if (message) {
    // An unsent Instagram message is a notice about a message, not one.
    if (message.is_deleted) return [];
    const story = message.reply_to?.story;
    const storyReply: MessageDetails | null = story ? { type: 'story_reply', story_url: story.url ?? null } : null;
    const contextExternalId = message.reply_to?.mid ?? null;
    const parts = withoutStickerCopies(message.attachments ?? []).map(attachmentContent);
    const text = message.text ?? null;
    // A tapped quick reply: the button pressed, as a template's button on WhatsApp.
    const payload = message.quick_reply?.payload;
    const button = payload !== undefined ? { text: text ?? '', payload } : null;
    if (parts.length === 0) {
      const details =
        storyReply ?? (text === null || message.is_unsupported ? { type: 'unsupported' as const, raw_type: 'message' } : null);
      return [
        { ...base, externalId: message.mid, text: text ?? '', media: null, button, contextExternalId, ...(details ? { details } : {}) },
      ];
    }
    return parts.map((part, index) => {
      const details = part.details ?? (index === 0 ? storyReply : null);
      return {
        ...base,
        externalId: index === 0 ? message.mid : `${message.mid}#${index + 1}`,
        text: [index === 0 ? text : null, part.text].filter(Boolean).join('\n'),
        media: part.media,
        button: index === 0 ? button : null,
        contextExternalId,
        ...(details ? { details } : {}),
      };
    });
  }
  if (m.postback) {
    // Get Started and the page's menu buttons: what the contact pressed, said by its title.
    const externalId = m.postback.mid ?? `postback:${senderId}:${time ?? 0}:${m.postback.payload ?? ''}`;
    const details: MessageDetails = { type: 'postback', payload: m.postback.payload ?? null };
    return [{ ...base, externalId, text: m.postback.title ?? m.postback.payload ?? '', media: null, contextExternalId: null, details }];
  }
  if (m.reaction?.mid) {
    // A reaction to a message, as on WhatsApp: its emoji, none when it is taken back (unreact).
    // It has no id of its own: the message reacted to, the contact and the time name it.
    const removed = m.reaction.action === 'unreact';
    const emoji = removed ? '' : (m.reaction.emoji ?? '');
    if (!removed && !emoji) return [];
    const externalId = `reaction:${m.reaction.mid}:${senderId}:${time ?? 0}:${removed ? 'unreact' : 'react'}`;
    const details: MessageDetails = { type: 'reaction', emoji };
    return [{ ...base, externalId, text: emoji, media: null, contextExternalId: m.reaction.mid, details }];
  }
  if (m.delivery?.mids?.length) {
    return m.delivery.mids.map((mid) => ({
      kind: 'status' as const,
      externalId: mid,
      status: 'delivered' as const,
      error: null,
      at: atOf(m.delivery?.watermark ?? m.timestamp),
    }));
  }
  if (m.read?.mid)
    return [{ kind: 'status', externalId: m.read.mid, status: 'read', error: null, at: atOf(m.read.watermark ?? m.timestamp) }];
  if (millisOf(m.read?.watermark) !== undefined) return [{ kind: 'read-up-to', sender: senderId, at: atOf(m.read?.watermark) }];
  return [];
}

/** The events of one webhook body whose object is `object`; throws a permanent error on anything else. */
export function parseMetaMessagingWebhook(rawBody: string, object: 'page' | 'instagram'): InboundEvent[] {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    throw new ChannelDeliveryError('permanent', 'Webhook body is not JSON');
  }
  const parsed = WebhookSchema.safeParse(body);
  if (!parsed.success || parsed.data.object !== object)
    throw new ChannelDeliveryError('permanent', `Webhook body is not a Meta '${object}' webhook`);
  return parsed.data.entry.flatMap((entry) => (entry.messaging ?? []).flatMap((m) => messagingEvents(m, entry.id)));
}
