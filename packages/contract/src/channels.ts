import { z } from 'zod';
import { IsoDate, Ok, PageQuery, pageOf, dataOf, Uuid, UuidParam } from './common';
import { ENTRYPOINT_TYPES } from './campaigns';
import { LivechatAppearanceSchema } from './livechat';
import { route } from './route';
import { fieldMessage } from './field-messages';

/**
 * The type every hash-typed channel is handled as: a WhatsApp Business API provider speaking the
 * Cloud API whose channels are typed by a digest (HASH_CHANNEL_TYPE), whatever the digest.
 */
export const HASH_CHANNEL_KIND = '{hash}';
/** Every channel type. */
export const CHANNEL_TYPES = [
  'custom',
  'droz',
  'email',
  'livechat',
  'sms',
  'telegram',
  'whatsapp',
  'whatsapp_cloud',
  'whatsapp_lion',
  'whatsapp_twilio',
  'whatsapp_360dialog',
  HASH_CHANNEL_KIND,
  'whatsapp_web',
  'instagram',
  'messenger',
  'API',
] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
/** The {hash} provider's channels are typed by a hexadecimal digest (24 to 64 digits). */
export const HASH_CHANNEL_TYPE = /^[0-9a-f]{24,64}$/i;
const CHANNEL_TYPE_SET: ReadonlySet<string> = new Set(CHANNEL_TYPES);
export const isChannelType = (type: string): type is ChannelType => CHANNEL_TYPE_SET.has(type);
/**
 * The type a stored channel type (Channel.type, a string) is handled as: a digest as HASH_CHANNEL_KIND,
 * a known type as itself, anything else null.
 */
export function channelTypeOf(type: string): ChannelType | null {
  if (HASH_CHANNEL_TYPE.test(type)) return HASH_CHANNEL_KIND;
  return isChannelType(type) ? type : null;
}
/** Types with a provider adapter and signed webhooks; HASH_CHANNEL_KIND stands for every hash type. */
export const WHATSAPP_PROVIDER_TYPES = [
  'whatsapp_cloud',
  HASH_CHANNEL_KIND,
  'whatsapp_360dialog',
  'whatsapp_twilio',
] as const satisfies readonly ChannelType[];
export type WhatsAppProviderType = (typeof WHATSAPP_PROVIDER_TYPES)[number];
/** Every type whose provider posts webhooks to /api/v1/channels/:id/webhook (WhatsApp, then Telegram, ...). */
export const PROVIDER_CHANNEL_TYPES = [
  ...WHATSAPP_PROVIDER_TYPES,
  'telegram',
  'sms',
  'messenger',
  'instagram',
  'email',
  'whatsapp_web',
] as const satisfies readonly ChannelType[];

/** Credential fields a channel may hold, by name; their values are write-only (never returned). */
export const CHANNEL_SECRET_FIELDS = [
  'access_token',
  'app_secret',
  'verify_token',
  'api_key',
  'auth_token',
  'webhook_secret',
  'bot_token',
  'password',
  'refresh_token',
] as const;
/** Non-secret provider settings kept in the channel's config. */
export const CHANNEL_SETTING_FIELDS = [
  'base_url',
  'webhook_url',
  'phone_number_id',
  'waba_id',
  'account_sid',
  'from_number',
  'messaging_service_sid',
  'mms_enabled',
  'page_id',
  'instagram_account_id',
  'human_agent_tag',
  'smtp_host',
  'smtp_port',
  'smtp_secure',
  'from_address',
  'username',
  'imap_host',
  'imap_port',
  'imap_secure',
  'imap_username',
  'imap_mailbox',
  'sent_mailbox',
  'oauth_provider',
  'instance',
] as const;

/** The kind of entry point a channel's body names (sector, automated menu or bot), as campaigns do. */
export const EntryPointTypeInput = z.enum(ENTRYPOINT_TYPES, { message: fieldMessage('entry_point_type_invalid') }).optional();

const secretText = z.string().trim().min(1).max(2000);
const settingText = z.string().trim().max(2000);
const formBoolean = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'on', 'off'])])
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'on');

export const ChannelSecretsSchema = z.object({
  ...(Object.fromEntries(CHANNEL_SECRET_FIELDS.map((f) => [f, secretText.optional()])) as Record<
    (typeof CHANNEL_SECRET_FIELDS)[number],
    z.ZodOptional<typeof secretText>
  >),
  // An OAuth refresh token (e-mail's Microsoft mailboxes) can run to a few thousand characters.
  refresh_token: z.string().trim().min(1).max(8000).optional(),
});
export const ChannelSettingsSchema = z.object(
  Object.fromEntries(CHANNEL_SETTING_FIELDS.map((f) => [f, settingText.optional()])) as Record<
    (typeof CHANNEL_SETTING_FIELDS)[number],
    z.ZodOptional<typeof settingText>
  >,
);

/** Channel availability (the api's channelAvailability says what each means). */
export const CHANNEL_AVAILABILITY = ['offline', 'paused', 'active', 'online'] as const;
export type ChannelAvailability = (typeof CHANNEL_AVAILABILITY)[number];

export const ChannelSchema = z.object({
  uuid: Uuid,
  name: z.string(),
  type: z.string(),
  enabled: z.boolean(),
  /** Offline (disabled), paused (its agents all on a pause), active (no agent signed in), online. */
  availability: z.enum(CHANNEL_AVAILABILITY),
  template_required_on_outbound_start: z.boolean(),
  /** Where the channel's new conversations enter: a sector's queue or an automated menu; null for the workspace queue. */
  entry_point: z.object({ uuid: Uuid, name: z.string(), type: z.enum(ENTRYPOINT_TYPES) }).nullable(),
  /** Non-secret provider settings (base_url, phone_number_id, ...). */
  settings: z.record(z.string(), z.string()),
  /** Names of the credentials stored (encrypted); their values are never returned. */
  credentials_set: z.array(z.string()),
  /** 360dialog: 'onpremise' until update_to_cloud_api moves the channel to the Cloud API. */
  api_version: z.enum(['onpremise', 'cloud']).nullable(),
  /** The address to give the provider for its webhooks (inbound messages and status updates). */
  webhook_url: z.string().nullable(),
  /**
   * E-mail: the forwarding address the mailbox's mail goes to. It carries the channel's secret, so
   * only callers who may change channels get it; null for others and for other types.
   */
  inbound_address: z.string().nullable(),
  /** Livechat channels ("Livechat channel appearance"): theme_data, widget_settings, custom_fields; null for other types. */
  appearance: LivechatAppearanceSchema.nullable(),
  created_at: IsoDate,
});
export type Channel = z.infer<typeof ChannelSchema>;

export const listChannels = route({
  method: 'GET',
  path: '/api/v1/channels',
  tags: ['channels'],
  summary: 'Channels of the workspace; `_limit=0` answers all of them.',
  query: PageQuery.extend({
    type: z.string().max(400).optional().describe('comma-separated channel types'),
    enabled: formBoolean.optional(),
  }),
  response: pageOf(ChannelSchema),
});
export const getChannel = route({
  method: 'GET',
  path: '/api/v1/channels/:id',
  tags: ['channels'],
  summary: 'One channel (credentials never included).',
  params: UuidParam,
  response: dataOf(ChannelSchema),
  errors: ['channel_not_found'],
});
export const createChannel = route({
  method: 'POST',
  path: '/api/v1/channels',
  tags: ['channels'],
  bodyEncoding: 'form',
  summary: 'Creates a channel (form-encoded). Provider credentials are stored encrypted; a custom channel answers its inbound token once.',
  body: z.object({
    name: z.string().trim().min(1, fieldMessage('required')).max(120),
    type: z.union([z.enum(CHANNEL_TYPES), z.string().regex(HASH_CHANNEL_TYPE)], { message: fieldMessage('channel_type_invalid') }),
    entry_point: z.union([z.literal(''), z.uuid({ message: fieldMessage('entry_point_invalid') })]).optional(),
    /** The entry point's type, sector unless told. */
    entry_point_type: EntryPointTypeInput,
    enabled: formBoolean.optional(),
    template_required_on_outbound_start: formBoolean.optional(),
    ...ChannelSettingsSchema.shape,
    ...ChannelSecretsSchema.shape,
  }),
  response: z.object({ data: ChannelSchema, inbound_token: z.string().nullable() }),
  status: 201,
  errors: [
    'channel_type_not_creatable',
    'boolean_required',
    'url_invalid',
    'outbound_address_not_allowed',
    'channel_settings_missing',
    'entry_point_unknown',
    'channel_identity_taken',
    'channel_credentials_refused',
    'channel_setup_refused',
    'channel_provider_unavailable',
  ],
});
export const updateChannel = route({
  method: 'PATCH',
  path: '/api/v1/channels/:id',
  tags: ['channels'],
  summary: 'Edits a channel; credentials given replace the stored ones, absent ones are kept.',
  params: UuidParam,
  body: z.strictObject({
    name: z.string().trim().min(1, fieldMessage('required')).max(120).optional(),
    enabled: z.boolean().optional(),
    template_required_on_outbound_start: z.boolean().optional(),
    entry_point: z
      .uuid({ message: fieldMessage('entry_point_invalid') })
      .nullable()
      .optional(),
    entry_point_type: EntryPointTypeInput,
    settings: ChannelSettingsSchema.strict().optional(),
    credentials: ChannelSecretsSchema.strict().optional(),
    /** Livechat channels only: the whole appearance, replacing the stored one. */
    appearance: LivechatAppearanceSchema.optional(),
  }),
  response: dataOf(ChannelSchema),
  errors: [
    'channel_not_found',
    'boolean_required',
    'url_invalid',
    'outbound_address_not_allowed',
    'channel_settings_missing',
    'entry_point_unknown',
    'appearance_livechat_only',
    'uploaded_image_required',
    'channel_identity_taken',
    'channel_credentials_refused',
    'channel_setup_refused',
    'channel_provider_unavailable',
  ],
});
export const updateChannelToCloudApi = route({
  method: 'POST',
  path: '/api/v1/channels/:id/update_to_cloud_api',
  tags: ['channels'],
  summary: 'Moves a 360dialog channel from the on-premise API to the Cloud API (idempotent).',
  params: UuidParam,
  body: z.object({}).optional(),
  response: dataOf(ChannelSchema),
  errors: ['channel_not_found', 'channel_migration_not_360dialog'],
});
/** How a WhatsApp Web channel's phone is linked to its bridge, and the QR code to link it while it is not. */
export const WhatsAppWebConnectionSchema = z.object({
  /** open: connected; connecting: waiting for the QR code to be scanned (or reconnecting); close: not linked. */
  state: z.enum(['open', 'connecting', 'close']),
  /** The QR code to scan with the phone, a PNG as a data: URL; null once connected or when the bridge gives no picture. */
  qr: z.string().nullable(),
  /** The QR code's text, for a client to draw when the bridge gives no picture; null once connected. */
  code: z.string().nullable(),
});
export type WhatsAppWebConnection = z.infer<typeof WhatsAppWebConnectionSchema>;
export const getWhatsAppWebConnection = route({
  method: 'GET',
  path: '/api/v1/channels/:id/whatsapp-web',
  tags: ['channels'],
  summary:
    "A WhatsApp Web channel's phone link, read from its bridge: the state and, while not connected, the QR code to scan (asking for it starts linking).",
  params: UuidParam,
  response: dataOf(WhatsAppWebConnectionSchema),
  errors: [
    'channel_not_found',
    'channel_not_whatsapp_web',
    'channel_credentials_refused',
    'channel_setup_refused',
    'channel_provider_unavailable',
  ],
});
export const deleteChannel = route({
  method: 'DELETE',
  path: '/api/v1/channels/:id',
  tags: ['channels'],
  summary: 'Removes a channel; its conversations and messages are kept.',
  params: UuidParam,
  response: Ok,
  errors: ['channel_not_found'],
});
