import { channelTypeOf, HASH_CHANNEL_KIND, type ChannelType } from './channels';

/**
 * What each channel type can carry: the composer refuses what a channel cannot do before
 * upload or send, and the adapter refuses it permanently with the same code when it gets it anyway
 * (an api client, a canned response's file). Data only: a new channel type adds its row to
 * CHANNEL_TYPE_FACTS below. Types without capabilities (custom, livechat, WhatsApp) keep the upload
 * rules of messages.ts alone.
 */

/** How an outbound attachment travels on a channel. */
export type AttachmentKind = 'image' | 'document' | 'audio' | 'voice' | 'video';

export interface AttachmentRule {
  kind: AttachmentKind;
  /** Accepted MIME types: exact, a prefix ending with '/' ('text/'), or '*' for any. */
  types: readonly string[];
  maxBytes: number;
}

export interface ChannelCapabilities {
  /** Longest text message, in UTF-16 code units as the provider counts them. */
  maxTextLength: number;
  /** Longest caption under an attachment. */
  maxCaptionLength: number;
  /** Tried in order: the first rule whose types match decides. A type matching none is refused. */
  attachments: readonly AttachmentRule[];
  /** Types a recorded voice note is sent as a voice note in; other recordings go by the attachment rules. */
  voiceTypes: readonly string[];
  /** A channel setting that must be 'true' for the channel to take attachments at all (SMS: mms_enabled). */
  attachmentsSetting?: string;
  /** Messages go under a subject (e-mail): the composer shows the reply's and lets the agent start a new thread. */
  subjects?: boolean;
  /** Text is billed in SMS segments (sms-segments.ts): the composer counts them. */
  smsSegments?: boolean;
  /** Replies are taken only this long after the contact's last message (Meta's 24-hour standard messaging window). */
  replyWindowHours?: number;
  /**
   * A channel setting that, when on, lets a person answer for longer (`humanAgentWindowHours`): Meta's
   * HUMAN_AGENT message tag, 7 days, for apps Meta granted that permission.
   */
  humanAgentSetting?: string;
  humanAgentWindowHours?: number;
}

const MB = 1024 * 1024;

/**
 * Telegram Bot API (https://core.telegram.org/bots/api#sending-files), files uploaded multipart:
 * photos up to 10 MB, other files up to 50 MB; any other type goes as a document; sendVoice takes
 * OGG/OPUS, MP3 or M4A (a recording in another type, such as Chrome's WebM, goes as a file); text
 * 4096 characters, captions 1024.
 */
const TELEGRAM: ChannelCapabilities = {
  maxTextLength: 4096,
  maxCaptionLength: 1024,
  attachments: [
    { kind: 'image', types: ['image/jpeg', 'image/png', 'image/webp'], maxBytes: 10 * MB },
    { kind: 'audio', types: ['audio/mpeg', 'audio/mp4'], maxBytes: 50 * MB },
    { kind: 'video', types: ['video/mp4'], maxBytes: 50 * MB },
    { kind: 'document', types: ['*'], maxBytes: 50 * MB },
  ],
  voiceTypes: ['audio/ogg', 'audio/mpeg', 'audio/mp4'],
};

/**
 * SMS through Twilio Programmable Messaging (https://www.twilio.com/docs/messaging/api/message-resource):
 * a Body of at most 1600 characters (sent as GSM-7 or UCS-2 segments); media only as MMS (a channel
 * with mms_enabled), at most 5 MB per message: JPEG, PNG and GIF shown as images, a few other types
 * passed through as they are.
 */
const SMS: ChannelCapabilities = {
  maxTextLength: 1600,
  maxCaptionLength: 1600,
  attachments: [
    { kind: 'image', types: ['image/jpeg', 'image/png', 'image/gif'], maxBytes: 5 * MB },
    { kind: 'audio', types: ['audio/mpeg', 'audio/mp4', 'audio/ogg', 'audio/amr'], maxBytes: 5 * MB },
    { kind: 'video', types: ['video/mp4', 'video/3gpp'], maxBytes: 5 * MB },
    { kind: 'document', types: ['application/pdf', 'text/vcard', 'text/plain', 'text/csv'], maxBytes: 5 * MB },
  ],
  voiceTypes: [],
  attachmentsSetting: 'mms_enabled',
  smsSegments: true,
};

/**
 * E-mail: any file goes as an attachment; most mail servers refuse messages over
 * 25 MB and base64 makes files a third bigger, so 18 MB per file; a recording goes as an audio file
 * (mail has no voice notes); the text is long but bounded so one message stays one e-mail.
 */
const EMAIL: ChannelCapabilities = {
  maxTextLength: 50_000,
  maxCaptionLength: 50_000,
  attachments: [{ kind: 'document', types: ['*'], maxBytes: 18 * MB }],
  voiceTypes: [],
  subjects: true,
};

/**
 * Messenger Platform Send API (https://developers.facebook.com/docs/messenger-platform/reference/send-api):
 * text up to 2000 characters; attachments by URL (image, audio, video, file), 25 MB at most (images
 * 8 MB); an attachment carries no caption, so its text goes as a message of its own (same limit);
 * replies only within 24 hours of the contact's last message.
 */
const MESSENGER: ChannelCapabilities = {
  maxTextLength: 2000,
  maxCaptionLength: 2000,
  attachments: [
    { kind: 'image', types: ['image/jpeg', 'image/png', 'image/gif'], maxBytes: 8 * MB },
    { kind: 'audio', types: ['audio/'], maxBytes: 25 * MB },
    { kind: 'video', types: ['video/'], maxBytes: 25 * MB },
    { kind: 'document', types: ['*'], maxBytes: 25 * MB },
  ],
  voiceTypes: [],
  replyWindowHours: 24,
  humanAgentSetting: 'human_agent_tag',
  humanAgentWindowHours: 7 * 24,
};

/**
 * Instagram messaging (https://developers.facebook.com/docs/messenger-platform/instagram/features/send-message):
 * text up to 1000 characters; images (PNG, JPEG, GIF) 8 MB, audio (aac, m4a, wav, mp4) 25 MB, video
 * (mp4, ogg, avi, mov, webm) 25 MB, PDF files 25 MB; nothing else; the same 24-hour window.
 */
const INSTAGRAM: ChannelCapabilities = {
  maxTextLength: 1000,
  maxCaptionLength: 1000,
  attachments: [
    { kind: 'image', types: ['image/jpeg', 'image/png', 'image/gif'], maxBytes: 8 * MB },
    { kind: 'audio', types: ['audio/aac', 'audio/mp4', 'audio/x-m4a', 'audio/wav', 'audio/x-wav'], maxBytes: 25 * MB },
    { kind: 'video', types: ['video/mp4', 'video/ogg', 'video/avi', 'video/quicktime', 'video/webm'], maxBytes: 25 * MB },
    { kind: 'document', types: ['application/pdf'], maxBytes: 25 * MB },
  ],
  voiceTypes: [],
  replyWindowHours: 24,
  humanAgentSetting: 'human_agent_tag',
  humanAgentWindowHours: 7 * 24,
};

/** Every setting the WhatsApp Cloud API needs, from Meta itself or from a {hash} provider speaking it. */
const CLOUD_API_SETTINGS = [['phone_number_id'], ['waba_id'], ['access_token'], ['app_secret'], ['verify_token']] as const;
const TWILIO_SETTINGS = [['account_sid'], ['auth_token'], ['from_number', 'messaging_service_sid']] as const;
const META_MESSAGING_SETTINGS = [['page_id'], ['access_token'], ['app_secret'], ['verify_token']] as const;

/** What the api, the worker and the web share about one channel type: one row per type that can be created. */
export interface ChannelTypeFacts {
  /**
   * How contacts' messages arrive: posted by the caller with the channel's token (custom API channel),
   * by the provider to the channel's webhook address, or through the livechat widget.
   */
  inbound: 'token' | 'provider_webhook' | 'widget';
  /** What the channel can carry; absent: only the general upload rules apply. */
  capabilities?: ChannelCapabilities;
  /**
   * The settings the channel cannot work without: each entry is one setting, or alternatives of
   * which one is enough (a Twilio sender number or messaging service). The api refuses a channel
   * without them; the admin screen's form marks and checks the same ones.
   */
  requiredSettings?: readonly (readonly string[])[];
  /** A screen that connects the channel through the provider's login, offered before manual entry. */
  setupPath?: string;
}

export const CHANNEL_TYPE_FACTS: Readonly<Partial<Record<ChannelType, ChannelTypeFacts>>> = {
  custom: { inbound: 'token' },
  droz: { inbound: 'token' },
  API: { inbound: 'token' },
  livechat: { inbound: 'widget' },
  whatsapp_cloud: { inbound: 'provider_webhook', requiredSettings: CLOUD_API_SETTINGS },
  [HASH_CHANNEL_KIND]: { inbound: 'provider_webhook', requiredSettings: CLOUD_API_SETTINGS },
  whatsapp_360dialog: { inbound: 'provider_webhook', requiredSettings: [['api_key'], ['webhook_secret']] },
  whatsapp_twilio: { inbound: 'provider_webhook', requiredSettings: TWILIO_SETTINGS },
  // A phone linked by QR code to an instance of an Evolution API v2 bridge, which has no address of its own.
  whatsapp_web: { inbound: 'provider_webhook', requiredSettings: [['base_url'], ['instance'], ['api_key']] },
  telegram: { inbound: 'provider_webhook', capabilities: TELEGRAM, requiredSettings: [['bot_token']] },
  sms: { inbound: 'provider_webhook', capabilities: SMS, requiredSettings: TWILIO_SETTINGS },
  messenger: {
    inbound: 'provider_webhook',
    capabilities: MESSENGER,
    requiredSettings: META_MESSAGING_SETTINGS,
    setupPath: '/messenger-setup',
  },
  instagram: {
    inbound: 'provider_webhook',
    capabilities: INSTAGRAM,
    requiredSettings: META_MESSAGING_SETTINGS,
    setupPath: '/instagram-setup',
  },
  // The mailbox's password, or an OAuth refresh token (oauth_provider) standing in for it.
  email: {
    inbound: 'provider_webhook',
    capabilities: EMAIL,
    requiredSettings: [['smtp_host'], ['from_address'], ['password', 'refresh_token']],
  },
};

/** The facts of a stored channel type (a digest counts as HASH_CHANNEL_KIND), or null for a type that cannot be created. */
export function channelTypeFacts(type: string): ChannelTypeFacts | null {
  const known = channelTypeOf(type);
  return (known && CHANNEL_TYPE_FACTS[known]) ?? null;
}

function factsColumn<T>(pick: (facts: ChannelTypeFacts) => T | undefined): Readonly<Partial<Record<ChannelType, T>>> {
  const column: Partial<Record<ChannelType, T>> = {};
  for (const [type, facts] of Object.entries(CHANNEL_TYPE_FACTS) as [ChannelType, ChannelTypeFacts][]) {
    const value = pick(facts);
    if (value !== undefined) column[type] = value;
  }
  return column;
}

/** The capabilities column of CHANNEL_TYPE_FACTS, by type. */
export const CHANNEL_CAPABILITIES = factsColumn((facts) => facts.capabilities);

/** The channel settings capabilities depend on: the only ones a conversation's channel carries to the composer. */
export const CAPABILITY_SETTING_FIELDS = ['mms_enabled', 'human_agent_tag'] as const;

/** A channel setting switched on ('true', as the form stores switches). */
export const settingOn = (settings: Readonly<Record<string, unknown>> | null | undefined, key: string): boolean => {
  const value = settings?.[key];
  return value === true || value === 'true' || value === '1' || value === 'on';
};

/**
 * The capabilities of a channel type, or null when only the general upload rules apply. With the
 * channel's settings, a row that takes attachments only under a setting takes none while it is off,
 * and a reply window a setting lengthens (Meta's HUMAN_AGENT tag) is the longer one while it is on.
 */
export function capabilitiesOf(channelType: string, settings?: Readonly<Record<string, unknown>> | null): ChannelCapabilities | null {
  const row = channelTypeFacts(channelType)?.capabilities;
  if (!row) return null;
  let capabilities = row;
  if (row.attachmentsSetting && !settingOn(settings, row.attachmentsSetting))
    capabilities = { ...capabilities, attachments: [], voiceTypes: [] };
  if (row.humanAgentSetting && row.humanAgentWindowHours && settingOn(settings, row.humanAgentSetting))
    capabilities = { ...capabilities, replyWindowHours: row.humanAgentWindowHours };
  return capabilities;
}

/** Stable codes of what a channel refuses; the web translates them, adapters put them in their errors. */
export const CHANNEL_REFUSALS = [
  'channel_text_too_long',
  'channel_caption_too_long',
  'channel_attachment_type',
  'channel_attachment_too_large',
  'channel_window_closed',
] as const;
export type ChannelRefusal = (typeof CHANNEL_REFUSALS)[number];

const baseType = (type: string) => (type.split(';')[0] ?? '').trim().toLowerCase();
const matches = (rule: AttachmentRule, type: string) =>
  rule.types.some((t) => t === '*' || (t.endsWith('/') ? type.startsWith(t) : type === t));

/** The rule an attachment travels by on this channel, or null when the channel takes no such type. */
export function attachmentRuleOf(capabilities: ChannelCapabilities, contentType: string): AttachmentRule | null {
  const type = baseType(contentType);
  return capabilities.attachments.find((rule) => matches(rule, type)) ?? null;
}

/** Why an attachment cannot go out on this channel (size unknown: pass null), or null. */
export function attachmentRefusal(
  channelType: string,
  file: { contentType: string; size: number | null },
  settings?: Readonly<Record<string, unknown>> | null,
): { code: ChannelRefusal; maxBytes?: number } | null {
  const capabilities = capabilitiesOf(channelType, settings);
  if (!capabilities) return null;
  const rule = attachmentRuleOf(capabilities, file.contentType);
  if (!rule) return { code: 'channel_attachment_type' };
  if (file.size !== null && file.size > rule.maxBytes) return { code: 'channel_attachment_too_large', maxBytes: rule.maxBytes };
  return null;
}

/** The type a recorded voice note is sent in (the web app turns a browser's WebM recording into it): Opus in Ogg. */
export const VOICE_NOTE_TYPE = 'audio/ogg';

/**
 * Why a recorded voice note cannot go out on this channel, as a voice note or as an audio file (Instagram
 * takes no Ogg audio, SMS none without MMS), or null: the composer then offers no recording at all.
 */
export function voiceNoteRefusal(
  channelType: string,
  settings?: Readonly<Record<string, unknown>> | null,
): { code: ChannelRefusal; maxBytes?: number } | null {
  const capabilities = capabilitiesOf(channelType, settings);
  if (!capabilities || capabilities.voiceTypes.includes(VOICE_NOTE_TYPE)) return null;
  return attachmentRefusal(channelType, { contentType: VOICE_NOTE_TYPE, size: null }, settings);
}

/** Why a text (or an attachment's caption) cannot go out on this channel, or null. */
export function textRefusal(channelType: string, text: string, asCaption: boolean): { code: ChannelRefusal; max: number } | null {
  const capabilities = capabilitiesOf(channelType);
  if (!capabilities) return null;
  const max = asCaption ? capabilities.maxCaptionLength : capabilities.maxTextLength;
  if (text.length <= max) return null;
  return { code: asCaption ? 'channel_caption_too_long' : 'channel_text_too_long', max };
}

/** The required settings column of CHANNEL_TYPE_FACTS, by type. */
export const CHANNEL_REQUIRED_SETTINGS = factsColumn((facts) => facts.requiredSettings);

/** The required settings (or groups of alternatives) `has` does not find. */
export function missingChannelSettings(type: string, has: (key: string) => boolean): (readonly string[])[] {
  return (channelTypeFacts(type)?.requiredSettings ?? []).filter((anyOf) => !anyOf.some(has));
}

/** Whether `key` alone is required for the type (a member of a group of alternatives is not). */
export const isRequiredChannelSetting = (type: string, key: string): boolean =>
  (channelTypeFacts(type)?.requiredSettings ?? []).some((anyOf) => anyOf.length === 1 && anyOf[0] === key);
