import { z } from 'zod';
import { IsoDate, Uuid, dataOf } from './common';
import { MESSAGE_CONTENT_MAX, UPLOAD_MAX_BYTES, VoiceUploadSchema } from './messages';
import { route } from './route';
import { fieldMessage } from './field-messages';

/** "Livechat channel appearance": limits of the admin form and of the api. */
export const LIVECHAT_TITLE_MAX = 60;
export const LIVECHAT_FIELD_MAX_LENGTH = 2000;
export const LIVECHAT_VALIDATOR_MAX = 200;
export const LIVECHAT_CUSTOM_FIELDS_MAX = 20;

const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, fieldMessage('colour_invalid'));
/** An uploaded file of the storage module (its uuid) or an https address. */
const imageRef = z
  .string()
  .trim()
  .max(2000)
  .refine((v) => Uuid.safeParse(v).success || /^https:\/\/[^\s/$.?#][^\s]*$/i.test(v), fieldMessage('image_source_invalid'))
  .nullable();

export const LivechatThemeSchema = z.strictObject({
  /** Header, visitor bubbles and buttons. */
  primary_color: hexColor,
  /** Text on the primary colour. */
  text_color: hexColor,
  /** Chat area behind the messages. */
  background_color: hexColor,
});
export const LivechatWidgetSettingsSchema = z.strictObject({
  title: z
    .string()
    .trim()
    .min(1, fieldMessage('livechat_title_required'))
    .max(LIVECHAT_TITLE_MAX, fieldMessage('livechat_title_too_long', { max: LIVECHAT_TITLE_MAX })),
  logo: imageRef,
  avatar: imageRef,
  background_image: imageRef,
  audio_recording_allowed: z.boolean(),
});
export const LivechatCustomFieldSchema = z.strictObject({
  key: z
    .string()
    .trim()
    .min(1, fieldMessage('custom_field_key_required'))
    .max(60)
    .regex(/^[A-Za-z0-9_]+$/, fieldMessage('custom_field_key_characters')),
  label: z.string().trim().min(1, fieldMessage('custom_field_label_required')).max(120),
  required: z.boolean().default(false),
  max_length: z
    .number()
    .int(fieldMessage('whole_number_required'))
    .min(1, fieldMessage('custom_field_max_length_range'))
    .max(LIVECHAT_FIELD_MAX_LENGTH, fieldMessage('custom_field_max_length_range')),
  /**
   * A regular expression the whole value must match; null for none. Whether RE2 compiles it is checked
   * by livechatAppearanceProblems (@atende/core), which the api and the appearance form both run: the
   * engine stays out of this schema so that code which only reads channels (the agent's app) does not
   * load it.
   */
  validator: z
    .string()
    .max(LIVECHAT_VALIDATOR_MAX, fieldMessage('custom_field_validator_too_long', { max: LIVECHAT_VALIDATOR_MAX }))
    .nullable()
    .default(null),
  /** Shown to the visitor when the validator does not match. */
  validator_message: z.string().trim().max(200).nullable().default(null),
});
export type LivechatCustomField = z.infer<typeof LivechatCustomFieldSchema>;

/** The channel fields theme_data, widget_settings and custom_fields of a livechat channel. */
export const LivechatAppearanceSchema = z
  .strictObject({
    theme_data: LivechatThemeSchema,
    widget_settings: LivechatWidgetSettingsSchema,
    custom_fields: z
      .array(LivechatCustomFieldSchema)
      .max(LIVECHAT_CUSTOM_FIELDS_MAX, fieldMessage('custom_fields_too_many', { max: LIVECHAT_CUSTOM_FIELDS_MAX })),
  })
  .superRefine((value, ctx) => {
    const seen = new Set<string>();
    value.custom_fields.forEach((field, index) => {
      const key = field.key.toLowerCase();
      if (seen.has(key))
        ctx.addIssue({ code: 'custom', path: ['custom_fields', index, 'key'], message: fieldMessage('custom_field_key_taken') });
      seen.add(key);
    });
  });
export type LivechatAppearance = z.infer<typeof LivechatAppearanceSchema>;

export const DEFAULT_LIVECHAT_APPEARANCE: LivechatAppearance = {
  theme_data: { primary_color: '#1c7ed6', text_color: '#ffffff', background_color: '#f8f9fa' },
  widget_settings: { title: 'Chat', logo: null, avatar: null, background_image: null, audio_recording_allowed: false },
  custom_fields: [],
};

/** What the widget receives: images as addresses it can load without a session. */
export const LivechatPublicConfigSchema = z.object({
  channel_uuid: Uuid,
  name: z.string(),
  theme_data: LivechatThemeSchema,
  widget_settings: z.object({
    title: z.string(),
    logo_url: z.string().nullable(),
    avatar_url: z.string().nullable(),
    background_url: z.string().nullable(),
    audio_recording_allowed: z.boolean(),
  }),
  custom_fields: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      required: z.boolean(),
      max_length: z.number().int(),
      validator: z.string().nullable(),
      validator_message: z.string().nullable(),
    }),
  ),
});
export type LivechatPublicConfig = z.infer<typeof LivechatPublicConfigSchema>;

export const LivechatMessageSchema = z.object({
  uuid: Uuid,
  /** visitor: written in the widget; agent: an agent's reply; system: menus, out-of-hours, surveys. */
  from: z.enum(['visitor', 'agent', 'system']),
  content: z.string(),
  /** An attachment (an agent's file or voice note): a time-limited link that needs no session. */
  annex: z.object({ url: z.string(), content_type: z.string(), filename: z.string() }).nullable(),
  agent_name: z.string().nullable(),
  created_at: IsoDate,
});
export type LivechatMessage = z.infer<typeof LivechatMessageSchema>;

const ChannelUuidParam = z.object({ channel_uuid: z.uuid({ message: fieldMessage('channel_unknown') }) });

export const getLivechatConfig = route({
  method: 'GET',
  path: '/api/v1/livechat/:channel_uuid/config',
  tags: ['livechat'],
  auth: false,
  summary: "The widget's appearance (public: enabled livechat channels only, else 404).",
  params: ChannelUuidParam,
  response: dataOf(LivechatPublicConfigSchema),
  errors: ['rate_limited', 'channel_not_found'],
});
export const startLivechatSession = route({
  method: 'POST',
  path: '/api/v1/livechat/:channel_uuid/sessions',
  tags: ['livechat'],
  auth: false,
  summary:
    "Starts a visitor's session from the pre-chat form; custom fields are checked against the channel's. Answers the visitor token (Bearer for the calls below).",
  params: ChannelUuidParam,
  body: z.strictObject({
    name: z.string().trim().min(1, fieldMessage('visitor_name_required')).max(120, fieldMessage('visitor_name_too_long')),
    email: z.union([z.literal(''), z.email({ message: fieldMessage('visitor_email_invalid') }).max(254)]).optional(),
    custom_fields: z.record(z.string().max(60), z.string().max(LIVECHAT_FIELD_MAX_LENGTH * 2)).default({}),
  }),
  response: dataOf(z.object({ visitor_token: z.string(), visitor_id: Uuid })),
  status: 201,
  errors: ['rate_limited', 'channel_not_found'],
});
export const sendLivechatMessage = route({
  method: 'POST',
  path: '/api/v1/livechat/messages',
  tags: ['livechat'],
  auth: false,
  summary: "A visitor's message (Authorization: Bearer <visitor token>); idempotent by id. Enters the queue like any channel's.",
  body: z.strictObject({
    /** The widget's own id of the message (kept with the visitor's id, so at most 120 characters). */
    id: z.string().trim().min(1).max(120),
    content: z
      .string()
      .trim()
      .min(1, fieldMessage('visitor_message_required'))
      .max(MESSAGE_CONTENT_MAX, fieldMessage('message_too_long', { max: MESSAGE_CONTENT_MAX })),
    /** When given, must be the token's channel (a widget never talks to another channel with its token). */
    channel_uuid: Uuid.optional(),
  }),
  response: dataOf(z.object({ conversation_uuid: Uuid, message_uuid: Uuid })),
  status: 202,
  errors: ['rate_limited', 'chat_session_required', 'chat_session_invalid', 'chat_session_other_channel', 'channel_disabled_inbound'],
});
export const sendLivechatVoice = route({
  method: 'POST',
  path: '/api/v1/livechat/voice',
  tags: ['livechat'],
  auth: false,
  summary:
    "A visitor's voice note (Authorization: Bearer <visitor token>) as JSON with base64 content, at most 5 MB; only where the channel's appearance allows audio recording. Idempotent by id.",
  bodyLimit: 8 * 1024 * 1024,
  fileMaxBytes: UPLOAD_MAX_BYTES,
  body: z.strictObject({
    id: z.string().trim().min(1).max(120),
    // No length here: a note over 5 MB is refused by its handler with 413 and the limit, not 400.
    file: z.string().min(1, fieldMessage('required')),
    encoding: z.literal('base64'),
    content_type: VoiceUploadSchema.shape.content_type,
    channel_uuid: Uuid.optional(),
  }),
  response: dataOf(z.object({ conversation_uuid: Uuid, message_uuid: Uuid })),
  status: 202,
  errors: [
    'rate_limited',
    'chat_session_required',
    'chat_session_invalid',
    'chat_session_other_channel',
    'channel_disabled_inbound',
    'livechat_voice_disabled',
    'file_base64_invalid',
    'file_empty',
    'file_content_mismatch',
  ],
});
export const listLivechatMessages = route({
  method: 'GET',
  path: '/api/v1/livechat/messages',
  tags: ['livechat'],
  auth: false,
  summary:
    "The visitor's messages (never internal notes), oldest first. `after` (a created_at) answers only newer ones; `wait` (seconds) holds the request until one arrives (long polling).",
  query: z.object({
    after: IsoDate.optional(),
    wait: z.coerce.number().int().min(0).max(25).default(0),
    channel_uuid: Uuid.optional(),
  }),
  response: dataOf(z.array(LivechatMessageSchema)),
  errors: ['rate_limited', 'chat_session_required', 'chat_session_invalid', 'chat_session_other_channel', 'channel_disabled_inbound'],
});
