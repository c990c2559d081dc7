import type { MessageDetails } from '@atende/contract';
import { z } from 'zod';
import { ChannelDeliveryError } from '../adapter';
import type { InboundEvent, InboundMedia } from '../provider';

/**
 * Webhook bodies of the Messenger Platform (object 'page') and Instagram messaging (object
 * 'instagram'): entry[].messaging[] with one of message (mid, text, attachments[].payload.url),
 * postback (a button of the page's menu or Get Started: its title), delivery (mids, watermark) or
 * read (watermark; Instagram names the mid). Every message of a contact is kept: each attachment is a
 * message of its own (the first keeps the mid, the next ones `<mid>#2`, `#3`, ...), an Instagram story
 * mention keeps the story's media, a reply to a story names the story, a shared link keeps its
 * address, and a kind Atende cannot show is stored naming its type. Echoes of the page's own messages
 * are ours and ignored; reactions and referrals are not messages.
 * https://developers.facebook.com/docs/messenger-platform/reference/webhook-events
 */

const AttachmentSchema = z.object({
  type: z.string(),
  payload: z
    .object({ url: z.string().max(4000).optional(), title: z.string().max(1000).optional() })
    .nullable()
    .optional(),
});
const MessagingSchema = z.object({
  sender: z.object({ id: z.string().max(100) }),
  recipient: z.object({ id: z.string().max(100) }),
  timestamp: z.number().optional(),
  message: z
    .object({
      mid: z.string().min(1).max(300),
      text: z.string().optional(),
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
  delivery: z.object({ mids: z.array(z.string()).optional(), watermark: z.number().optional() }).optional(),
  read: z.object({ watermark: z.number().optional(), mid: z.string().optional() }).optional(),
});
const WebhookSchema = z.object({
  object: z.string(),
  entry: z.array(z.object({ id: z.string(), time: z.number().optional(), messaging: z.array(MessagingSchema).optional() })),
});
export type MetaMessaging = z.infer<typeof MessagingSchema>;
type Attachment = z.infer<typeof AttachmentSchema>;

/** What a Meta attachment type is stored as when the download names no type (a story mention is an image or a video). */
const GUESSED_TYPE: Record<string, string> = { image: 'image/jpeg', audio: 'audio/mp4', video: 'video/mp4' };
/** Attachment types whose payload.url is the file itself. */
const FILE_TYPES = new Set(['image', 'audio', 'video', 'file', 'story_mention', 'ig_reel', 'reel']);

const atOf = (ms: number | undefined) => (ms !== undefined && Number.isFinite(ms) ? new Date(ms) : new Date());

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
  // The page's own messages come back as echoes (when subscribed): they are ours, not the contact's.
  if (m.sender.id === pageId || m.message?.is_echo) return [];
  const base = {
    kind: 'message' as const,
    from: m.sender.id,
    profileName: null,
    // Page-scoped (PSID) or Instagram-scoped (IGSID) id: no phone, no name in the webhook.
    sender: { identifier: m.sender.id, name: null, username: null },
    button: null,
    at: atOf(m.timestamp),
  };
  const message = m.message;
  if (message) {
    // An unsent Instagram message is a notice about a message, not one.
    if (message.is_deleted) return [];
    const story = message.reply_to?.story;
    const storyReply: MessageDetails | null = story ? { type: 'story_reply', story_url: story.url ?? null } : null;
    const contextExternalId = message.reply_to?.mid ?? null;
    const parts = (message.attachments ?? []).map(attachmentContent);
    const text = message.text ?? null;
    if (parts.length === 0) {
      const details =
        storyReply ?? (text === null || message.is_unsupported ? { type: 'unsupported' as const, raw_type: 'message' } : null);
      return [{ ...base, externalId: message.mid, text: text ?? '', media: null, contextExternalId, ...(details ? { details } : {}) }];
    }
    return parts.map((part, index) => {
      const details = part.details ?? (index === 0 ? storyReply : null);
      return {
        ...base,
        externalId: index === 0 ? message.mid : `${message.mid}#${index + 1}`,
        text: [index === 0 ? text : null, part.text].filter(Boolean).join('\n'),
        media: part.media,
        contextExternalId,
        ...(details ? { details } : {}),
      };
    });
  }
  if (m.postback) {
    // Get Started and the page's menu buttons: what the contact pressed, said by its title.
    const externalId = m.postback.mid ?? `postback:${m.sender.id}:${m.timestamp ?? 0}:${m.postback.payload ?? ''}`;
    const details: MessageDetails = { type: 'postback', payload: m.postback.payload ?? null };
    return [{ ...base, externalId, text: m.postback.title ?? m.postback.payload ?? '', media: null, contextExternalId: null, details }];
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
  if (m.read?.watermark) return [{ kind: 'read-up-to', sender: m.sender.id, at: atOf(m.read.watermark) }];
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
