import { contactCardText, locationText, type MessageDetails } from '@atende/contract';
import { z } from 'zod';
import { ChannelDeliveryError } from '../adapter';
import { templateStatusOf } from './cloud-format';
import type { InboundEvent, InboundMedia } from './types';

/**
 * Webhook bodies of the WhatsApp Cloud API (entry[].changes[] with field 'messages' or
 * 'message_template_status_update'), as Meta and 360dialog's Cloud API post them, and of the older
 * on-premise API (flat {contacts, messages, statuses}) that 360dialog on-premise channels receive.
 */

const MediaSchema = z.object({
  id: z.string(),
  mime_type: z.string().optional(),
  caption: z.string().optional(),
  filename: z.string().optional(),
});
const MessageSchema = z.object({
  from: z.string(),
  id: z.string(),
  timestamp: z.union([z.string(), z.number()]).optional(),
  type: z.string(),
  text: z.object({ body: z.string() }).optional(),
  image: MediaSchema.optional(),
  video: MediaSchema.optional(),
  audio: MediaSchema.optional(),
  document: MediaSchema.optional(),
  sticker: MediaSchema.optional(),
  voice: MediaSchema.optional(),
  button: z.object({ text: z.string(), payload: z.string().optional() }).optional(),
  interactive: z
    .object({
      button_reply: z.object({ id: z.string(), title: z.string() }).optional(),
      list_reply: z.object({ id: z.string(), title: z.string() }).optional(),
    })
    .optional(),
  context: z.object({ id: z.string().optional() }).optional(),
  location: z
    .object({
      latitude: z.number().min(-90).max(90),
      longitude: z.number().min(-180).max(180),
      name: z.string().optional(),
      address: z.string().optional(),
    })
    .optional(),
  contacts: z
    .array(
      z.object({
        name: z.object({ formatted_name: z.string().optional(), first_name: z.string().optional() }).optional(),
        phones: z.array(z.object({ phone: z.string().optional() })).optional(),
        emails: z.array(z.object({ email: z.string().optional() })).optional(),
      }),
    )
    .optional(),
  reaction: z.object({ emoji: z.string().optional() }).optional(),
  // What a message of type 'unsupported' was (edit, poll, order, ...); an odd value only loses the name.
  unsupported: z.object({ type: z.string().optional() }).optional().catch(undefined),
});
const StatusSchema = z.object({
  id: z.string(),
  status: z.string(),
  timestamp: z.union([z.string(), z.number()]).optional(),
  biz_opaque_callback_data: z.string().optional(),
  errors: z
    .array(z.object({ code: z.union([z.number(), z.string()]), title: z.string().optional(), message: z.string().optional() }))
    .optional(),
});
const ValueSchema = z.object({
  contacts: z.array(z.object({ wa_id: z.string().optional(), profile: z.object({ name: z.string().optional() }).optional() })).optional(),
  messages: z.array(MessageSchema).optional(),
  statuses: z.array(StatusSchema).optional(),
  // message_template_status_update
  event: z.string().optional(),
  message_template_id: z.union([z.string(), z.number()]).optional(),
  message_template_name: z.string().optional(),
  message_template_language: z.string().optional(),
  reason: z.string().nullable().optional(),
});
const CloudWebhookSchema = z.object({
  entry: z.array(z.object({ changes: z.array(z.object({ field: z.string(), value: ValueSchema })) })),
});

const at = (ts: string | number | undefined) =>
  ts !== undefined && Number.isFinite(Number(ts)) ? new Date(Number(ts) * 1000) : new Date();
const e164 = (waId: string) => (waId.startsWith('+') ? waId : `+${waId}`);
const DELIVERY = new Set(['sent', 'delivered', 'read', 'failed']);

type CloudMessage = z.infer<typeof MessageSchema>;

/**
 * What a message without text, a file or a button holds: a location as a map link, each shared
 * contact as a card (the details hold the first; the others follow in the text), a reaction (its
 * emoji, none when it was taken back), or the type Atende cannot show (order, system; for an
 * 'unsupported' message the kind WhatsApp names in unsupported.type, such as edit or poll).
 */
function detailsOf(m: CloudMessage): { text: string; details: MessageDetails } {
  if (m.location) {
    const details: MessageDetails = {
      type: 'location',
      latitude: m.location.latitude,
      longitude: m.location.longitude,
      name: m.location.name ?? null,
      address: m.location.address ?? null,
    };
    return { text: locationText(details), details };
  }
  if (m.contacts?.length) {
    const cards = m.contacts.map((c) => ({
      name: c.name?.formatted_name ?? c.name?.first_name ?? '',
      phones: (c.phones ?? []).flatMap((p) => (p.phone ? [p.phone] : [])),
      emails: (c.emails ?? []).flatMap((e) => (e.email ? [e.email] : [])),
    }));
    return { text: cards.map(contactCardText).join('\n\n'), details: { type: 'contact', ...cards[0]! } };
  }
  if (m.reaction) return { text: m.reaction.emoji ?? '', details: { type: 'reaction', emoji: m.reaction.emoji ?? '' } };
  const rawType = (m.type === 'unsupported' && m.unsupported?.type?.trim()) || m.type;
  return { text: '', details: { type: 'unsupported', raw_type: rawType.slice(0, 100) } };
}

function messageEvent(m: CloudMessage, names: Map<string, string>): InboundEvent {
  const mediaPart = m.image ?? m.video ?? m.audio ?? m.voice ?? m.document ?? m.sticker;
  const media: InboundMedia | null = mediaPart
    ? {
        ref: mediaPart.id,
        contentType: mediaPart.mime_type ?? null,
        filename: mediaPart.filename ?? null,
        caption: mediaPart.caption ?? null,
      }
    : null;
  const reply = m.interactive?.button_reply ?? m.interactive?.list_reply;
  const button = m.button
    ? { text: m.button.text, payload: m.button.payload ?? null }
    : reply
      ? { text: reply.title, payload: reply.id }
      : null;
  const content = media || button || m.text ? null : detailsOf(m);
  return {
    kind: 'message',
    externalId: m.id,
    from: e164(m.from),
    profileName: names.get(m.from) || null,
    text: content ? content.text : (m.text?.body ?? null),
    media,
    button,
    contextExternalId: m.context?.id ?? null,
    at: at(m.timestamp),
    ...(content ? { details: content.details } : {}),
  };
}

function valueEvents(value: z.infer<typeof ValueSchema>, field: string): InboundEvent[] {
  const events: InboundEvent[] = [];
  if (field === 'message_template_status_update' && value.event && value.message_template_name) {
    events.push({
      kind: 'template-status',
      externalId: value.message_template_id !== undefined ? String(value.message_template_id) : null,
      name: value.message_template_name,
      language: value.message_template_language ?? null,
      status: templateStatusOf(value.event),
      reason: value.reason && value.reason !== 'NONE' ? value.reason : null,
    });
    return events;
  }
  const names = new Map((value.contacts ?? []).filter((c) => c.wa_id).map((c) => [c.wa_id!, c.profile?.name ?? '']));
  for (const m of value.messages ?? []) events.push(messageEvent(m, names));
  for (const s of value.statuses ?? []) {
    if (!DELIVERY.has(s.status)) continue;
    const error = s.errors?.[0];
    events.push({
      kind: 'status',
      externalId: s.id,
      status: s.status as 'sent' | 'delivered' | 'read' | 'failed',
      error: error ? { code: String(error.code), title: error.title ?? error.message ?? 'Unknown error' } : null,
      at: at(s.timestamp),
      ...(s.biz_opaque_callback_data ? { callbackData: s.biz_opaque_callback_data } : {}),
    });
  }
  return events;
}

/**
 * Events of a Cloud API webhook body (entry[].changes[]), or of the on-premise API's flat body
 * ({contacts, messages, statuses}). Throws a permanent ChannelDeliveryError on anything else.
 */
export function parseCloudWebhook(rawBody: string): InboundEvent[] {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    throw new ChannelDeliveryError('permanent', 'Webhook body is not JSON');
  }
  const cloud = CloudWebhookSchema.safeParse(body);
  if (cloud.success) return cloud.data.entry.flatMap((e) => e.changes.flatMap((c) => valueEvents(c.value, c.field)));
  const flat = ValueSchema.safeParse(body);
  if (flat.success && (flat.data.messages || flat.data.statuses)) return valueEvents(flat.data, 'messages');
  throw new ChannelDeliveryError('permanent', 'Webhook body is not a WhatsApp webhook');
}
