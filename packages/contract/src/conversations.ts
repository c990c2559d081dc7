import { z } from 'zod';
import { dataOf, IsoDate, PageQuery, pageOf, Pagination, Uuid, UuidParam } from './common';
import { ContactSchema } from './contacts';
import { route } from './route';
import { fieldMessage } from './field-messages';

export const CONVERSATION_STATES = ['waiting', 'bot', 'answered', 'outbound-started', 'closing', 'closed'] as const;
export const ConversationStateSchema = z.enum(CONVERSATION_STATES);
export type ConversationState = z.infer<typeof ConversationStateSchema>;

/** History event types shown as system messages. */
export const HISTORY_EVENTS = [
  'answered',
  'associate-user',
  'archived',
  'unarchived',
  'closed',
  'enter-queue',
  'new-priority',
  'offered',
  'transfer',
  'campaign-reply',
] as const;
export const HistoryEventSchema = z.enum(HISTORY_EVENTS);
/** Enter-queue reasons. */
export const ENTER_QUEUE_REASONS = [
  'new-conversation',
  'pause',
  'custom_action',
  'update-conversation',
  'logoff',
  'transferring-conversation',
] as const;

const UserRef = z.object({ id: z.number().int(), uuid: Uuid, username: z.string(), email: z.string() });
const SectorRef = z.object({ uuid: Uuid, name: z.string() });

/** History entry. */
export const HistoryEntrySchema = z.object({
  uuid: Uuid,
  timestamp: IsoDate,
  event: HistoryEventSchema,
  detail: z.object({
    email: z.string().optional(),
    user_email: z.string().optional(),
    user_uuid: Uuid.optional(),
    old_user: UserRef.nullable().optional(),
    new_user: UserRef.nullable().optional(),
    old_sector: SectorRef.nullable().optional(),
    new_sector: SectorRef.nullable().optional(),
    done_by_user: UserRef.nullable().optional(),
    done_by_role: z.string().optional(),
    done_by: z.string().optional(),
    event: z.string().optional(),
    user_info: z.object({ email: z.string(), current_pause: z.object({ description: z.string() }).nullable() }).optional(),
    custom_action_name: z.string().optional(),
    ended_by: z.string().optional(),
    end_reason: z.object({ uuid: Uuid, name: z.string() }).nullable().optional(),
    old: z.number().int().nullable().optional(),
    new: z.number().int().optional(),
    /** campaign-reply: the campaign answered, its reply action and whether it ran. */
    campaign_name: z.string().optional(),
    reply_action: z.string().optional(),
    executed: z.boolean().optional(),
  }),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

/** Conversation. */
export const ConversationSchema = z.object({
  uuid: Uuid,
  state: ConversationStateSchema,
  archived: z.boolean(),
  type: z.enum(['inbound', 'outbound', 'outbound_campaign']),
  priority: z.number().int(),
  ticket_number: z.number().int(),
  unread_contact_messages: z.number().int(),
  contact_interacted: z.boolean(),
  last_message: z
    .object({
      when: IsoDate,
      tags: z.array(z.string()),
      content: z.string(),
      author: z.enum(['USER', 'CONTACT', 'SYSTEM']),
      /** What the message carries beside its text, so the list can say "Voice message" or name the file. */
      attachment: z.enum(['voice', 'file']).nullable().optional(),
    })
    .nullable(),
  time_join: IsoDate,
  time_answer: IsoDate.nullable(),
  closed_at: IsoDate.nullable(),
  ended_by: z.string().nullable(),
  contact: ContactSchema.pick({ uuid: true, name: true, phone_number: true, email: true, organization: true, profile_image: true }),
  user: UserRef.nullable(),
  channel: z.object({
    uuid: Uuid,
    type: z.string(),
    name: z.string(),
    template_required_on_outbound_start: z.boolean(),
    /** The channel settings its capabilities depend on (CAPABILITY_SETTING_FIELDS: an SMS channel's mms_enabled), for the composer. */
    settings: z.record(z.string(), z.string()).optional(),
  }),
  sector: z.object({ uuid: Uuid, name: z.string(), survey_uuid: Uuid.nullable() }).nullable(),
  conversation_reason_uuid: Uuid.nullable(),
  history: z.array(HistoryEntrySchema),
  created_at: IsoDate,
});
export type Conversation = z.infer<typeof ConversationSchema>;

const stateList = z
  .union([ConversationStateSchema, z.array(ConversationStateSchema), z.string().regex(/^[a-z-]+(,[a-z-]+)*$/)])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')))
  .pipe(z.array(ConversationStateSchema).max(6));

export const listConversations = route({
  method: 'GET',
  path: '/api/v2/conversations',
  tags: ['conversations'],
  summary: 'Conversations, paged, newest first. Agents see only their own; supervisors and above the whole workspace.',
  query: PageQuery.extend({
    state: stateList.optional(),
    user_id: z.coerce.number().int().positive().optional(),
    sector_uuid: Uuid.optional(),
    contact_uuid: Uuid.optional(),
    channel_uuid: Uuid.optional(),
    archived: z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional(),
    start: IsoDate.optional(),
    end: IsoDate.optional(),
    /** Keyset paging: `pagination.next_cursor` of the previous page; stable under inserts, cost flat with depth. */
    cursor: z.string().min(1).max(200).optional(),
  }),
  response: z.object({
    data: z.array(ConversationSchema),
    pagination: Pagination.extend({ next_cursor: z.string().nullable() }),
  }),
  errors: ['conversations_own_only', 'cursor_or_offset', 'invalid_cursor'],
});
export const getConversation = route({
  method: 'GET',
  path: '/api/v1/conversations/:id',
  tags: ['conversations'],
  summary: 'One conversation with its history.',
  params: UuidParam,
  response: dataOf(ConversationSchema),
  errors: ['conversation_not_found'],
});
export const getWaitingQueue = route({
  method: 'GET',
  path: '/api/v1/conversations/waiting-queue',
  tags: ['conversations'],
  summary: "How many conversations wait in the caller's workspace queue (the agent's sectors when they have any).",
  response: dataOf(z.object({ quantity_waiting_queue: z.number().int() })),
});
export const getOfferedToMe = route({
  method: 'GET',
  path: '/api/v1/conversations/offered/me',
  tags: ['conversations'],
  summary: "The caller's active conversations (answered, outbound-started, closing): the workstation list.",
  response: z.object({ data: z.array(ConversationSchema) }),
});
export const getTransferDestinations = route({
  method: 'GET',
  path: '/api/v1/conversations/transfer_destinations',
  tags: ['conversations'],
  summary: 'Agents (logged in, with their sectors) and sectors a conversation can be transferred to.',
  response: dataOf(
    z.object({
      agents: z.array(
        z.object({
          id: z.number().int(),
          uuid: Uuid,
          username: z.string(),
          email: z.string(),
          state: z.enum(['online', 'paused', 'offline']),
          sector_uuids: z.array(Uuid),
        }),
      ),
      sectors: z.array(z.object({ uuid: Uuid, name: z.string() })),
    }),
  ),
});
export const acceptConversation = route({
  method: 'PATCH',
  path: '/api/v1/conversations',
  tags: ['conversations'],
  summary:
    'Accept session (on_demand): assigns the next waiting conversation to user_id (the caller). Refused when auto distribution is on or the agent is full.',
  body: z.strictObject({ user_id: z.number().int().positive() }),
  response: dataOf(ConversationSchema),
  errors: ['accept_own_only', 'user_not_found', 'auto_distribution_on', 'agent_at_max_sessions', 'accept_while_paused', 'nobody_waiting'],
});

const conversationAction = z
  .strictObject({
    state: z.enum(['waiting', 'closed']).optional(),
    conversation_reason_uuid: Uuid.nullable().optional(),
    reason_uuid: Uuid.nullable().optional(),
    current_role: z.enum(['agent', 'supervisor']).optional(),
    archived: z.boolean().optional(),
    priority: z.literal('top').optional(),
    sector_uuid: Uuid.optional(),
    user_uuid: Uuid.nullable().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: fieldMessage('missing_parameters') });
export const updateConversation = route({
  method: 'PATCH',
  path: '/api/v1/conversations/:id',
  tags: ['conversations'],
  summary:
    'Return to queue (state waiting), finish (state closed, optional reason; current_role supervisor), archive, prioritise (priority top), transfer (sector_uuid, user_uuid).',
  params: UuidParam,
  body: conversationAction,
  response: dataOf(ConversationSchema),
  errors: [
    'conversation_not_found',
    'conversation_not_yours',
    'conversation_not_waiting',
    'conversation_outbound_requeue',
    'conversation_not_active_requeue',
    'conversation_already_finished',
    'finish_reason_not_found',
    'conversation_finished_no_transfer',
    'conversation_awaiting_client_transfer',
    'sector_not_found',
    'agent_not_found',
    'agent_not_online',
    'agent_at_capacity',
  ],
});
export const replaceConversation = route({ ...updateConversation, method: 'PUT' });

export const getConversationHistory = route({
  method: 'GET',
  path: '/api/v1/conversations/history',
  tags: ['conversations'],
  summary: "Day chat history: the agent's finished conversations between start and end.",
  query: PageQuery.extend({ start: IsoDate, end: IsoDate, user_id: z.coerce.number().int().positive().optional() }),
  response: pageOf(
    z.object({
      conversation_uuid: Uuid,
      start: IsoDate,
      end: IsoDate.nullable(),
      duration: z.number().int(),
      ended_by: z.string().nullable(),
      ticket_number: z.number().int(),
      end_reason: z.string().nullable(),
      agent: z.string().nullable(),
      contact_name: z.string(),
      contact_organization: z.string().nullable(),
      contact_number: z.string().nullable(),
      channel_type: z.string(),
      agent_message: z.number().int(),
      system_message: z.number().int(),
      contact_message: z.number().int(),
    }),
  ),
  errors: ['history_own_only', 'range_end_before_start'],
});

export const ConversationFieldSchema = z.object({ field_uuid: Uuid, name: z.string(), field_value: z.string() });
export const listConversationFieldDefinitions = route({
  method: 'GET',
  path: '/api/v1/conversations/fields',
  tags: ['conversation fields'],
  summary: 'Conversation field definitions.',
  response: z.object({ data: z.array(z.object({ uuid: Uuid, name: z.string() })) }),
});
export const createConversationFieldDefinition = route({
  method: 'POST',
  path: '/api/v1/conversations/fields',
  tags: ['conversation fields'],
  summary: 'Defines a conversation field (admin).',
  body: z.strictObject({ name: z.string().trim().min(1, fieldMessage('conversation_field_name_required')).max(120) }),
  response: dataOf(z.object({ uuid: Uuid, name: z.string() })),
  status: 201,
  errors: ['conversation_field_name_taken'],
});
export const getConversationFields = route({
  method: 'GET',
  path: '/api/v1/conversations/:id/fields',
  tags: ['conversation fields'],
  summary: "A conversation's field values.",
  params: UuidParam,
  response: z.object({ data: z.array(ConversationFieldSchema) }),
  errors: ['conversation_not_found'],
});
export const setConversationField = route({
  method: 'POST',
  path: '/api/v1/conversations/:id/fields',
  tags: ['conversation fields'],
  summary: 'Adds or edits one field value of a conversation (field and value required).',
  params: UuidParam,
  body: z.strictObject({
    field_uuid: Uuid,
    field_value: z
      .string()
      .trim()
      .min(1, fieldMessage('conversation_field_value_required'))
      .max(2000, fieldMessage('field_max_characters', { max: 2000 })),
  }),
  response: z.object({ data: z.array(ConversationFieldSchema) }),
  errors: ['conversation_not_found', 'conversation_not_yours', 'conversation_field_not_found'],
});

export const startConversation = route({
  method: 'POST',
  path: '/api/v1/contacts/:id/conversations',
  tags: ['conversations'],
  summary: 'Starts an outbound conversation with a contact (flag start_new_conversation).',
  params: UuidParam,
  body: z.strictObject({
    channel_uuid: Uuid,
    template_uuid: Uuid.optional(),
    template_parameters: z.array(z.string().max(1024)).max(20).optional(),
    initial_message: z.string().trim().max(4096).optional(),
    /** E-mail channels: the new e-mail's subject, required there. */
    subject: z.string().trim().max(200).optional(),
  }),
  response: dataOf(ConversationSchema),
  status: 201,
  errors: [
    'contact_not_found',
    'channel_not_found',
    'channel_disabled',
    'channel_cannot_start',
    'contact_conversation_open_on_channel',
    'contact_no_email',
    'contact_email_taken',
    'subject_required',
    'initial_message_required',
    'template_required',
    'template_not_found',
    'template_not_approved',
    'template_cannot_start',
    'template_parameters_missing',
  ],
});
export const listContactConversations = route({
  method: 'GET',
  path: '/api/v1/contacts/:id/conversations',
  tags: ['conversations'],
  summary: "A contact's conversations, newest first.",
  params: UuidParam,
  query: PageQuery,
  response: pageOf(ConversationSchema),
  errors: ['contact_not_found'],
});

export const FinishReasonSchema = z.object({ uuid: Uuid, name: z.string() });
export const listConversationReasons = route({
  method: 'GET',
  path: '/api/v1/conversation/reasons',
  tags: ['conversation reasons'],
  summary: 'Finish reasons.',
  query: z.object({ name__contains: z.string().max(120).optional() }),
  response: z.object({ data: z.array(FinishReasonSchema) }),
});
export const PauseSchema = z.object({ uuid: Uuid, description: z.string() });
export const listPauses = route({
  method: 'GET',
  path: '/api/v1/pauses',
  tags: ['pauses'],
  summary: "The workspace's pause reasons.",
  response: z.object({ data: z.array(PauseSchema) }),
});
