import { z } from 'zod';
import { dataOf, IsoDate, Uuid, UuidParam } from './common';
import { MESSAGE_CONTENT_MAX } from './constants';
import { route } from './route';
import { fieldMessage } from './field-messages';

export { INTERNAL_MESSAGE_TAG, MESSAGE_CONTENT_MAX, TEMPLATE_SEND_ERROR_TAG } from './constants';

export const AnnexSchema = z.object({
  uuid: Uuid,
  content_type: z.string(),
  original_filename: z.string(),
  uri: z.string(),
  size: z.number().int(),
  service: z.string(),
});

/** Message. */
export const MessageSchema = z.object({
  uuid: Uuid,
  conversation_uuid: Uuid,
  author: z.enum(['USER', 'CONTACT', 'SYSTEM']),
  tags: z.array(z.string()),
  message: z.string(),
  when: IsoDate,
  state: z.enum(['pending', 'sent', 'read']),
  status: z.enum(['sending', 'failed']).nullable(),
  reply_to_uuid: Uuid.nullable(),
  annex: AnnexSchema.nullable(),
  voice: z.boolean(),
  internal: z.boolean(),
  template_message: z.unknown().nullable(),
  interactive_content: z.unknown().nullable(),
  contact_id: Uuid.nullable(),
  user_id: z.number().int().nullable(),
  user: z.object({ uuid: Uuid, username: z.string() }).nullable(),
  error_message: z.string().nullable(),
  /** The provider reported the message delivered to the contact's device (before it is read). */
  delivered: z.boolean(),
  /** A failed message the agent may send again: false when the provider refused it for good (a bad number, say). */
  retryable: z.boolean(),
});
export type Message = z.infer<typeof MessageSchema>;

/** The most messages one page reaching back to `until` holds. */
export const MESSAGES_UNTIL_MAX = 1000;

export const listMessages = route({
  method: 'GET',
  path: '/api/v1/conversations/:id/messages',
  tags: ['messages'],
  summary:
    'Messages of a conversation, oldest first; `before` (a message uuid) loads earlier ones. `until` (a message uuid of this ' +
    'conversation) makes the page reach back to include that message, at most ' +
    `${MESSAGES_UNTIL_MAX}` +
    ' messages (a ' +
    'message link or a quote scrolls to a message not loaded yet); 404 when it is not a message of the conversation.',
  params: UuidParam,
  query: z.object({ _limit: z.coerce.number().int().min(1).max(200).default(50), before: Uuid.optional(), until: Uuid.optional() }),
  response: z.object({ data: z.array(MessageSchema), has_more: z.boolean() }),
  errors: ['conversation_not_found', 'message_not_found'],
});
export const sendMessage = route({
  method: 'POST',
  path: '/api/v1/conversations/:id/messages',
  tags: ['messages'],
  summary: 'Sends a message or an internal note. A client-supplied uuid makes it idempotent: resending it returns the same message.',
  params: UuidParam,
  body: z
    .strictObject({
      uuid: Uuid.optional(),
      content: z
        .string()
        .max(MESSAGE_CONTENT_MAX, fieldMessage('message_too_long', { max: MESSAGE_CONTENT_MAX }))
        .optional(),
      annex_uuid: Uuid.optional(),
      voice: z.boolean().optional(),
      reply_to_uuid: Uuid.nullable().optional(),
      internal: z.boolean().optional(),
      /**
       * E-mail conversations: a subject of the agent's own, which starts a new thread (sent as it is,
       * not as a reply); without it the reply goes under "Re: <the thread's subject>".
       */
      subject: z.string().trim().min(1).max(200).optional(),
    })
    .refine((b) => (b.content ?? '').trim().length > 0 || b.annex_uuid, {
      message: fieldMessage('message_content_required'),
      path: ['content'],
    }),
  response: z.object({ data: z.object({ data: z.array(MessageSchema) }) }),
  status: 201,
  errors: [
    'internal_notes_disabled',
    'subject_not_allowed',
    'conversation_not_found',
    'message_id_taken',
    'conversation_not_yours',
    'conversation_not_active',
    'conversation_awaiting_client',
    'reply_target_not_found',
    'note_reply_note_only',
    'attachment_not_found',
  ],
});
export const markMessages = route({
  method: 'PUT',
  path: '/api/v1/conversations/:id/messages',
  tags: ['messages'],
  summary: "Marks the contact's messages read (status read, messages_uuids); the unread count drops.",
  params: UuidParam,
  body: z.strictObject({ status: z.literal('read'), messages_uuids: z.array(Uuid).min(1).max(500) }),
  response: dataOf(z.object({ updated: z.number().int(), unread_contact_messages: z.number().int() })),
  errors: ['conversation_not_found', 'conversation_not_yours'],
});
export const getMessage = route({
  method: 'GET',
  path: '/api/v1/messages/:id',
  tags: ['messages'],
  summary: 'One message.',
  params: UuidParam,
  response: dataOf(MessageSchema),
  errors: ['message_not_found'],
});

/** Storage: multipart field `file`, or JSON with base64 content for voice. */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const UPLOAD_ALLOWED_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
  'audio/webm',
  'audio/mp4',
  'audio/aac',
  // What phones record and the WhatsApp providers deliver (voice notes in AMR, 3GPP video, iPhone video).
  'audio/amr',
  'video/3gpp',
  'video/quicktime',
  'video/mp4',
  'video/webm',
  'application/pdf',
  'text/plain',
  'text/csv',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/zip',
] as const;
export const StoredFileSchema = z.object({
  uuid: Uuid,
  content_type: z.string(),
  original_filename: z.string(),
  uri: z.string(),
  size: z.number().int(),
});
export const VoiceUploadSchema = z.strictObject({
  file: z
    .string()
    .min(1, fieldMessage('required'))
    .max(Math.ceil((UPLOAD_MAX_BYTES * 4) / 3) + 4, fieldMessage('upload_too_large')),
  encoding: z.literal('base64'),
  content_type: z.enum(['audio/webm', 'audio/ogg', 'audio/mpeg', 'audio/wav', 'audio/mp4']).default('audio/webm'),
  filename: z.string().max(255).optional(),
});
export const uploadFile = route({
  method: 'POST',
  path: '/api/v1/storage/files',
  tags: ['storage'],
  bodyEncoding: 'multipart',
  // A 5 MB voice note travels as base64 in JSON: about 6.7 MB plus the envelope.
  bodyLimit: 8 * 1024 * 1024,
  fileMaxBytes: UPLOAD_MAX_BYTES,
  jsonBody: VoiceUploadSchema,
  summary: `Uploads one file (multipart field "file", at most 5 MB, allowed types only) or a voice note as JSON {file: base64, encoding, content_type}.`,
  response: z.object({ data: z.object({ data: StoredFileSchema }) }),
  status: 201,
  errors: [
    'multipart_unreadable',
    'multipart_file_required',
    'file_unreadable',
    'file_base64_invalid',
    'file_empty',
    'file_type_not_allowed',
    'file_content_mismatch',
  ],
});
/** The image types a pasted markdown image may be (no SVG: a browser could run its scripts from our origin). */
export const URL_IMAGE_TYPES = UPLOAD_ALLOWED_TYPES.filter((type) => type.startsWith('image/'));
/**
 * A pasted markdown image, downloaded by the server rather than the browser, so the
 * app's pages connect to no other site: the same limits as an upload, images only.
 */
export const uploadFileFromUrl = route({
  method: 'POST',
  path: '/api/v1/storage/files/from_url',
  tags: ['storage'],
  summary:
    `Downloads the image at \`url\` (http or https; at most 5 MB; ${URL_IMAGE_TYPES.join(', ')}) and stores it like an upload. ` +
    '400 outbound_address_not_allowed for an address on this server or a private network, 422 remote_file_unavailable when ' +
    'the address does not answer or answers an error, 413 payload_too_large, 415 file_type_not_allowed or file_content_mismatch.',
  body: z.strictObject({
    url: z
      .string()
      .trim()
      .max(2048, fieldMessage('url_invalid'))
      .regex(/^https?:\/\/[^\s/]+/i, fieldMessage('url_invalid')),
    /** The image's alt text: the file's name when the address's path gives none. */
    alt: z.string().max(255).optional(),
  }),
  response: z.object({ data: z.object({ data: StoredFileSchema }) }),
  status: 201,
  errors: [
    'remote_file_rate_limited',
    'url_invalid',
    'outbound_address_not_allowed',
    'remote_file_unavailable',
    'file_empty',
    'file_type_not_allowed',
    'file_content_mismatch',
  ],
});
export const downloadFile = route({
  method: 'GET',
  path: '/api/v1/storage/files/:id',
  tags: ['storage'],
  summary: 'Downloads a file with its original name and type (same tenant only).',
  params: UuidParam,
  errors: ['file_not_found', 'storage_not_configured'],
});
/**
 * A file without a session, through a time-limited link the server signed (the annex url given to
 * channel receivers): HMAC-SHA256 over the file id and `expires` (Unix seconds).
 */
export const downloadSignedFile = route({
  method: 'GET',
  path: '/api/v1/storage/files/:id/signed',
  tags: ['storage'],
  auth: false,
  summary: 'Downloads a file through a signed, time-limited link (no session): 403 when the link expired or was altered.',
  params: UuidParam,
  query: z.object({
    expires: z
      .string()
      .regex(/^\d{1,12}$/, fieldMessage('unix_time_invalid'))
      .transform(Number),
    signature: z.string().min(1).max(128),
  }),
  errors: ['download_link_invalid', 'download_link_expired', 'file_not_found', 'storage_not_configured'],
});

export const CannedResponseSchema = z.object({
  uuid: Uuid,
  keyword: z.string(),
  message: z.string(),
  category: z.object({ uuid: Uuid, name: z.string(), description: z.string().nullable() }).nullable(),
  annex: z.object({ uuid: Uuid, original_filename: z.string(), uri: z.string() }).nullable(),
  sector_uuids: z.array(Uuid),
});
export const listChannelCannedResponses = route({
  method: 'GET',
  path: '/api/v1/channels/:id/canned_responses',
  tags: ['canned responses'],
  summary: 'Canned responses usable in a channel, for a sector (flag canned_responses).',
  params: UuidParam,
  query: z.object({ sector_uuid: Uuid.optional() }),
  response: z.object({ data: z.array(CannedResponseSchema) }),
  errors: ['channel_not_found'],
});

/** What an integrated system posts for a contact's message on the custom API channel (types custom, droz, API). */
export const ChannelMessageBody = z.strictObject({
  contact: z
    .strictObject({
      phone: z.string().trim().max(32).optional(),
      identifier: z.string().trim().min(1).max(200).optional(),
      name: z.string().trim().max(200).optional(),
      email: z.string().trim().max(254).optional(),
    })
    .refine((c) => c.phone || c.identifier, { message: fieldMessage('contact_identity_required') }),
  message: z
    .strictObject({
      id: z.string().trim().min(1).max(200).optional(),
      content: z.string().max(MESSAGE_CONTENT_MAX).optional(),
      annex_url: z.url().max(2000).optional(),
    })
    .refine((m) => (m.content ?? '').trim().length > 0 || m.annex_url, { message: fieldMessage('inbound_message_content_required') }),
});
export type ChannelMessageInput = z.infer<typeof ChannelMessageBody>;

/**
 * The custom API channel's message as queued for the worker (queue channel-inbound, the raw body of
 * the job): the accepted body and the uuid its answer promised.
 */
export const QueuedChannelMessage = ChannelMessageBody.extend({ message_uuid: Uuid });

/**
 * The custom API channel: a contact's message arriving from an integrated system. It is checked and
 * queued like a provider's webhook and stored by the worker within moments; the answer names the
 * message's uuid (the same for the same message.id), which getChannelMessage follows to its conversation.
 */
export const receiveChannelMessage = route({
  method: 'POST',
  path: '/api/v1/channels/droz/:id/messages',
  tags: ['channels'],
  auth: false,
  channelToken: true,
  summary:
    "Queues a contact's message on a custom channel (Authorization: Bearer <channel token>); answers its uuid. Idempotent by message.id.",
  params: UuidParam,
  body: ChannelMessageBody,
  response: dataOf(z.object({ message_uuid: Uuid })),
  status: 202,
  errors: ['channel_token_invalid', 'channel_disabled_inbound', 'phone_invalid'],
});

/** Where a message the custom channel accepted was stored: 404 until the worker has stored it. */
export const getChannelMessage = route({
  method: 'GET',
  path: '/api/v1/channels/droz/:id/messages/:message_id',
  tags: ['channels'],
  auth: false,
  channelToken: true,
  summary: 'The conversation a message accepted on a custom channel was stored in (Authorization: Bearer <channel token>).',
  params: z.object({ id: Uuid, message_id: Uuid }),
  response: dataOf(z.object({ message_uuid: Uuid, conversation_uuid: Uuid })),
  errors: ['channel_token_invalid', 'channel_disabled_inbound', 'message_not_found'],
});
