import { z } from 'zod';
import { fieldMessage, HASH_CHANNEL_KIND } from '@atende/contract';
import type { CountryCode } from 'libphonenumber-js';
import { INVALID_PHONE, REQUIRED } from './contact-form';
import { normalizePhone } from './phone';

/** What the start-conversation rules need to know of a channel (the conversation's embedded channel). */
export interface OutboundChannel {
  uuid: string;
  type: string;
  name: string;
  template_required_on_outbound_start: boolean;
}

/** The custom API channel comes as types custom, droz and API. */
export const CUSTOM_CHANNEL_TYPES: readonly string[] = ['custom', 'droz', 'API'];

/**
 * name a WhatsApp provider whose channel type is a hash ({hash}). We read it as a
 * hexadecimal digest (24 to 64 characters: an object id, md5, sha1, sha256), never a readable name.
 */
export function isHashChannelType(type: string): boolean {
  return /^[0-9a-f]{24,64}$/i.test(type);
}

/**
 * The type a channel is handled as: every {hash} provider channel (whatever its digest) as
 * HASH_CHANNEL_KIND, the name its definition and rules are registered under; other types as they
 * are (contract channelTypeOf also says whether the type is a known one).
 */
export function channelKind(type: string): string {
  return isHashChannelType(type) ? HASH_CHANNEL_KIND : type;
}

/**
 * Only whatsapp_360dialog, {hash}, whatsapp_web and custom (custom, droz, API) channels are
 * offered; and e-mail, where a new outbound e-mail has a subject.
 */
export function canStartConversationOn(type: string): boolean {
  return (
    type === 'whatsapp_360dialog' ||
    type === 'whatsapp_web' ||
    type === 'email' ||
    isHashChannelType(type) ||
    CUSTOM_CHANNEL_TYPES.includes(type)
  );
}

/** A new outbound e-mail's subject is required, at most this long. */
export const EMAIL_SUBJECT_MAX = 200;
/** The longest first message the form sends. */
const INITIAL_MESSAGE_MAX = 4096;
export const needsSubjectOnStart = (channel: Pick<OutboundChannel, 'type'>): boolean => channel.type === 'email';

/**
 * A template is required on 360dialog channels and on custom channels flagged
 * template_required_on_outbound_start; elsewhere the initial message is required. The {hash}
 * provider is a WhatsApp Business API provider listed beside 360dialog, so it takes templates too.
 */
export function isTemplateRequiredOnStart(channel: Pick<OutboundChannel, 'type' | 'template_required_on_outbound_start'>): boolean {
  if (channel.type === 'whatsapp_360dialog' || isHashChannelType(channel.type)) return true;
  return CUSTOM_CHANNEL_TYPES.includes(channel.type) && channel.template_required_on_outbound_start;
}

/** The channels to offer, once each (by uuid), by name. */
export function channelsForOutboundStart<T extends OutboundChannel>(channels: readonly T[]): T[] {
  const byUuid = new Map<string, T>();
  for (const channel of channels) if (canStartConversationOn(channel.type) && !byUuid.has(channel.uuid)) byUuid.set(channel.uuid, channel);
  return [...byUuid.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** A single channel (or a single valid template) is preselected. */
export function preselect<T extends { uuid: string }>(options: readonly T[]): string | null {
  return options.length === 1 ? options[0]!.uuid : null;
}

/** The Start-conversation form; which of template and initial message is required depends on the channel. */
export interface StartConversationForm {
  channel_uuid: string;
  template_uuid: string;
  initial_message: string;
  /** E-mail channels only. */
  subject?: string;
}

/** Start conversation, with the spec's messages, for the channels on offer. */
export function startConversationFormSchema(channels: readonly OutboundChannel[]) {
  return z
    .object({
      channel_uuid: z.string(),
      template_uuid: z.string(),
      initial_message: z.string().max(INITIAL_MESSAGE_MAX, fieldMessage('field_too_long', { max: INITIAL_MESSAGE_MAX })),
      subject: z
        .string()
        .max(EMAIL_SUBJECT_MAX, fieldMessage('field_too_long', { max: EMAIL_SUBJECT_MAX }))
        .optional(),
    })
    .superRefine((v, ctx) => {
      const channel = channels.find((c) => c.uuid === v.channel_uuid);
      if (!channel) {
        ctx.addIssue({ code: 'custom', path: ['channel_uuid'], message: fieldMessage('campaign_channel_required') });
        return;
      }
      if (isTemplateRequiredOnStart(channel)) {
        if (!v.template_uuid) ctx.addIssue({ code: 'custom', path: ['template_uuid'], message: fieldMessage('template_required') });
      } else if (!v.initial_message.trim()) {
        ctx.addIssue({ code: 'custom', path: ['initial_message'], message: fieldMessage('initial_message_required') });
      }
      if (needsSubjectOnStart(channel) && !v.subject?.trim())
        ctx.addIssue({ code: 'custom', path: ['subject'], message: fieldMessage('subject_required') });
    });
}

/** The POST /api/v1/contacts/{id}/conversations body for a valid form: the template or the message, not both. */
export function startConversationBody(form: StartConversationForm, channel: OutboundChannel, templateParameters: string[] = []) {
  if (isTemplateRequiredOnStart(channel)) {
    return {
      channel_uuid: channel.uuid,
      template_uuid: form.template_uuid,
      ...(templateParameters.length ? { template_parameters: templateParameters } : {}),
    };
  }
  return {
    channel_uuid: channel.uuid,
    initial_message: form.initial_message.trim(),
    ...(needsSubjectOnStart(channel) ? { subject: form.subject?.trim() ?? '' } : {}),
  };
}

/** New-contact variant: phone valid for the default calling country, name and organization required. */
export function newContactFormSchema(country: CountryCode) {
  const required = z
    .string()
    .trim()
    .min(1, REQUIRED)
    .max(200, fieldMessage('field_too_long', { max: 200 }));
  return z.object({
    name: required,
    organization: required,
    phone1: z
      .string()
      .trim()
      .min(1, REQUIRED)
      .refine((v) => v === '' || normalizePhone(v, country) !== null, INVALID_PHONE)
      .transform((v) => normalizePhone(v, country) ?? v),
  });
}
export type NewContactFormInput = z.input<ReturnType<typeof newContactFormSchema>>;
export type NewContactForm = z.output<ReturnType<typeof newContactFormSchema>>;
