import { z } from 'zod';
import { ChannelDeliveryError } from '../adapter';
import type { InboundEvent, InboundMedia } from '../provider';

/**
 * Webhook bodies of the Messenger Platform (object 'page') and Instagram messaging (object
 * 'instagram'): entry[].messaging[] with one of message (mid, text, attachments[].payload.url),
 * delivery (mids, watermark) or read (watermark; Instagram names the mid). Echoes of the page's own
 * messages and other events (postbacks, reactions, referrals) are acknowledged and ignored.
 * https://developers.facebook.com/docs/messenger-platform/reference/webhook-events
 */

const AttachmentSchema = z.object({
  type: z.string(),
  payload: z
    .object({ url: z.string().max(4000).optional() })
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
      attachments: z.array(AttachmentSchema).optional(),
      reply_to: z.object({ mid: z.string().optional() }).optional(),
    })
    .optional(),
  delivery: z.object({ mids: z.array(z.string()).optional(), watermark: z.number().optional() }).optional(),
  read: z.object({ watermark: z.number().optional(), mid: z.string().optional() }).optional(),
});
const WebhookSchema = z.object({
  object: z.string(),
  entry: z.array(z.object({ id: z.string(), time: z.number().optional(), messaging: z.array(MessagingSchema).optional() })),
});
export type MetaMessaging = z.infer<typeof MessagingSchema>;

/** What a Meta attachment type is stored as when the download names no type. */
const GUESSED_TYPE: Record<string, string> = { image: 'image/jpeg', audio: 'audio/mp4', video: 'video/mp4' };

function mediaOf(attachments: z.infer<typeof AttachmentSchema>[] | undefined): InboundMedia | null {
  const attachment = attachments?.find((a) => a.payload?.url && ['image', 'audio', 'video', 'file'].includes(a.type));
  if (!attachment?.payload?.url) return null;
  return { ref: attachment.payload.url, contentType: GUESSED_TYPE[attachment.type] ?? null, filename: null, caption: null, voice: false };
}

const atOf = (ms: number | undefined) => (ms !== undefined && Number.isFinite(ms) ? new Date(ms) : new Date());

function messagingEvents(m: MetaMessaging, pageId: string): InboundEvent[] {
  if (m.message) {
    // The page's own messages come back as echoes (when subscribed): they are ours, not the contact's.
    if (m.message.is_echo || m.sender.id === pageId) return [];
    const media = mediaOf(m.message.attachments);
    const text = m.message.text ?? null;
    if (!media && text === null) return [];
    return [
      {
        kind: 'message',
        externalId: m.message.mid,
        from: m.sender.id,
        profileName: null,
        // Page-scoped (PSID) or Instagram-scoped (IGSID) id: no phone, no name in the webhook.
        sender: { identifier: m.sender.id, name: null, username: null },
        text,
        media,
        button: null,
        contextExternalId: m.message.reply_to?.mid ?? null,
        at: atOf(m.timestamp),
      },
    ];
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
