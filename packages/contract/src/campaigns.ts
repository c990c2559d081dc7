import { z } from 'zod';
import { dataOf, IsoDate, Ok, PageQuery, pageOf, Uuid, UuidParam } from './common';
import { route } from './route';
import { TEMPLATE_STATUSES } from './templates';
import { fieldMessage } from './field-messages';
import type { ErrorCode } from './error-status';

/** Campaigns, reply actions, subscribers and do-not-disturb lists. */
export const CAMPAIGN_STATES = ['running', 'stopped', 'scheduled', 'failed', 'sent', 'completed', 'completed_with_engagement'] as const;
export type CampaignState = (typeof CAMPAIGN_STATES)[number];
/**
 * (list filters): where a run that sent to every subscriber ends.
 * sent: everything dispatched, the provider's receipts still coming; completed: every accepted
 * message has a final receipt (delivered, read or failed) or a day has passed since the run ended;
 * completed_with_engagement: completed, and at least one subscriber replied. No Start on them unless
 * new subscribers are pending (packages/conversations settleCampaign, campaignStartBlock).
 */
export const FINAL_CAMPAIGN_STATES = ['sent', 'completed', 'completed_with_engagement'] as const;
/** Provider receipts of a subscriber's message, in the order they move (failed: after acceptance). */
export const DELIVERY_STATES = ['sent', 'delivered', 'read', 'failed'] as const;
/**
 * A subscriber's send: pending → scheduled (claimed by a run) → sending (its request about to be
 * written) → sent or error; unknown when the request may have reached the provider but its answer
 * never came (never sent again automatically; settled by the provider's receipts or
 * resent by the manager, resendUnknownSubscribers). dnd: skipped; completed: replied.
 */
export const SUBSCRIBER_STATES = ['pending', 'scheduled', 'sending', 'sent', 'unknown', 'dnd', 'completed', 'error'] as const;
export type SubscriberState = (typeof SUBSCRIBER_STATES)[number];
export const IMPORT_STATUSES = ['pending', 'in_progress', 'done'] as const;
export const REPLY_ACTIONS = ['end_dnd', 'transfer_to_sector', 'chatbot_outbound', 'end_with_message'] as const;
export const DEFAULT_ACTION = 'DEFAULT_ACTION';
export const CAMPAIGN_NAME_MAX = 80;
/** The subscribers file. */
export const SUBSCRIBERS_FILE_MAX_BYTES = 5_242_880;
/**
 * Why a subscribers file imported nothing (the import is all or nothing). The first is the product's
 * text; the others are ours (the spec shows none), translated by the screen like the first.
 */
export const SUBSCRIBER_IMPORT_ERRORS = {
  columns: 'Invalid file! It must have at least name and phone',
  unreadable: 'Invalid file! It could not be read as CSV, so nothing was imported',
  /** Binary, an old .xls, or text in no encoding the import knows. */
  undecodable: 'Invalid file! Its text could not be read: save it as CSV (UTF-8) or Excel (.xlsx) and try again',
  failed: 'The import failed and nothing was imported. Please try again.',
} as const;

const message = z.string().trim().max(4096);
export const ReplyActionSchema = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('end_dnd'),
    dnd_list: z.array(Uuid).min(1, fieldMessage('field_required')),
    message: message.min(1, fieldMessage('field_required')),
  }),
  z.object({ action: z.literal('transfer_to_sector'), sector_uuid: Uuid, message: message.optional() }),
  z.object({ action: z.literal('chatbot_outbound'), bot_uuid: Uuid, message: message.optional() }),
  z.object({ action: z.literal('end_with_message'), message: message.optional() }),
]);
export type ReplyAction = z.infer<typeof ReplyActionSchema>;
export const CampaignConfigSchema = z.object({
  default_action: ReplyActionSchema,
  /** By the template button's text. */
  reply_actions: z.record(z.string().max(25), ReplyActionSchema).default({}),
});
export type CampaignConfig = z.infer<typeof CampaignConfigSchema>;

/** A campaign's inbound entry point is a sector, an automated menu or a bot. */
export const ENTRYPOINT_TYPES = ['sector', 'menu', 'bot'] as const;
export type EntrypointType = (typeof ENTRYPOINT_TYPES)[number];
/** The payload's entry point: a sector's uuid (the older form), or the entry point as the campaign shows it. */
const EntrypointInput = z.union([
  Uuid,
  z.object({
    uuid: Uuid,
    type: z.enum(ENTRYPOINT_TYPES, { message: fieldMessage('entry_point_type_invalid') }),
    name: z.string().optional(),
    enabled: z.boolean().optional(),
  }),
]);
export type EntrypointInput = z.infer<typeof EntrypointInput>;

export const CampaignSchema = z.object({
  uuid: Uuid,
  name: z.string(),
  mode: z.enum(['conversation', 'broadcast']),
  state: z.enum(CAMPAIGN_STATES),
  desired_state: z.enum(CAMPAIGN_STATES),
  channel: z.object({ uuid: Uuid, name: z.string(), type: z.string() }),
  template: z.object({ uuid: Uuid, name: z.string(), deleted: z.boolean(), config: z.object({ status: z.enum(TEMPLATE_STATUSES) }) }),
  valid_subscriber_count: z.number().int(),
  /** Where a conversation opened by a reply goes: a sector's queue, a menu or a bot; enabled false once it was removed or switched off. */
  inbound_entrypoint: z.object({ uuid: Uuid, name: z.string(), type: z.enum(ENTRYPOINT_TYPES), enabled: z.boolean() }).nullable(),
  /** The template's buttons changed since the reply actions were saved: they must be remapped. */
  actions_outdated: z.boolean(),
  dnd_list: z.array(z.object({ uuid: Uuid, name: z.string() })),
  config: CampaignConfigSchema,
  public: z.boolean(),
  start_at: IsoDate.nullable(),
  started_at: IsoDate.nullable(),
  scheduled_start_errors: z.array(z.string()),
  import_status: z.enum(IMPORT_STATUSES).nullable(),
  import_summary: z
    .object({
      imported: z.number().int(),
      ignored: z.number().int(),
      imported_with_error: z.number().int(),
      /** Set when the last import stored nothing: one of SUBSCRIBER_IMPORT_ERRORS. */
      error_message: z.string().nullable(),
    })
    .nullable(),
  created_by: z.object({ uuid: Uuid, username: z.string() }).nullable(),
  created_at: IsoDate,
  /**
   * How far sending got, of all subscribers: sent (accepted by the provider, replied
   * included), errors, dnd (skipped), remaining (pending or being sent), unknown (may have reached
   * the provider). Live through update-campaign.
   */
  progress: z.object({
    total: z.number().int(),
    sent: z.number().int(),
    errors: z.number().int(),
    dnd: z.number().int(),
    remaining: z.number().int(),
    unknown: z.number().int(),
  }),
});
export type Campaign = z.infer<typeof CampaignSchema>;

/** A DND list of the payload: an existing one by uuid, or a new one (uuid null) by name. */
const DndRef = z.object({ uuid: Uuid.nullable(), name: z.string().trim().min(1, fieldMessage('field_required')).max(120) });
const campaignFields = {
  mode: z.enum(['conversation', 'broadcast']).default('conversation'),
  inbound_entrypoint: EntrypointInput.nullable().optional(),
  dnd_list: z.array(DndRef).max(50).default([]),
  config: CampaignConfigSchema,
  public: z.boolean().default(true),
  start_at: IsoDate.nullable().optional(),
};
export const CampaignCreateSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, fieldMessage('name_required'))
    .max(CAMPAIGN_NAME_MAX, fieldMessage('campaign_name_too_long', { max: CAMPAIGN_NAME_MAX })),
  channel_uuid: z.uuid({ message: fieldMessage('campaign_channel_required') }),
  whatsapp_template_uuid: z.uuid({ message: fieldMessage('campaign_template_choice_required') }),
  ...campaignFields,
});
export const CampaignUpdateSchema = z.strictObject({
  mode: campaignFields.mode.optional(),
  inbound_entrypoint: campaignFields.inbound_entrypoint,
  dnd_list: z.array(DndRef).max(50).optional(),
  config: CampaignConfigSchema.optional(),
  public: z.boolean().optional(),
  start_at: campaignFields.start_at,
  /** Sent by the wizard; must match the path. */
  campaignUuid: Uuid.optional(),
});

export const listCampaigns = route({
  method: 'GET',
  path: '/api/v1/campaign',
  tags: ['campaigns'],
  summary:
    "Campaigns of the workspace: the caller's own and the public ones (only_my_campaigns narrows to the caller's); state and name filters.",
  query: PageQuery.extend({
    only_my_campaigns: z
      .union([z.boolean(), z.enum(['true', 'false'])])
      .transform((v) => v === true || v === 'true')
      .optional(),
    state: z.enum(CAMPAIGN_STATES, { message: fieldMessage('state_invalid') }).optional(),
    name: z.string().trim().max(80).optional(),
  }),
  response: pageOf(CampaignSchema),
});
export const getCampaign = route({
  method: 'GET',
  path: '/api/v1/campaign/:id',
  tags: ['campaigns'],
  summary: 'One campaign.',
  params: UuidParam,
  response: dataOf(CampaignSchema),
  errors: ['campaign_not_found'],
});
export const CampaignEntrypointSchema = z.object({ uuid: Uuid, name: z.string(), type: z.enum(ENTRYPOINT_TYPES), enabled: z.boolean() });
export const listCampaignEntrypoints = route({
  method: 'GET',
  path: '/api/v1/campaign/inbound_entrypoints',
  tags: ['campaigns'],
  summary:
    "The inbound entry points a campaign may use: the workspace's sectors, automated menus (enabled false: switched off, not choosable) and bots.",
  response: z.object({ data: z.array(CampaignEntrypointSchema) }),
});
/** What a campaign's reply actions, DND lists, entry point and schedule may be refused for, on creation and edit alike. */
const CAMPAIGN_SETTINGS_ERRORS = [
  'campaign_reply_action_unknown_buttons',
  'campaign_reply_action_required',
  'bot_unknown',
  'sector_unknown',
  'dnd_list_unknown',
  'dnd_list_required',
  'entrypoint_not_found',
  'entrypoint_disabled',
  'campaign_schedule_past',
] as const satisfies readonly ErrorCode[];

export const createCampaign = route({
  method: 'POST',
  path: '/api/v1/campaign',
  tags: ['campaigns'],
  summary:
    'Creates a campaign: an approved template of the channel, reply actions for its buttons, DND lists (new ones created), optional schedule.',
  body: CampaignCreateSchema,
  response: dataOf(CampaignSchema),
  status: 201,
  errors: [
    'campaign_channel_required',
    'campaign_template_choice_required',
    'campaign_template_choice_unapproved',
    ...CAMPAIGN_SETTINGS_ERRORS,
  ],
});
export const updateCampaign = route({
  method: 'PATCH',
  path: '/api/v1/campaign/:id',
  tags: ['campaigns'],
  summary: 'Edits a campaign: name, channel and template are locked; the schedule is locked once the campaign started.',
  params: UuidParam,
  body: CampaignUpdateSchema,
  response: dataOf(CampaignSchema),
  errors: [
    'campaign_body_mismatch',
    'campaign_not_found',
    'campaign_template_deleted_edit',
    'campaign_schedule_locked',
    ...CAMPAIGN_SETTINGS_ERRORS,
  ],
});
export const deleteCampaign = route({
  method: 'DELETE',
  path: '/api/v1/campaign/:id',
  tags: ['campaigns'],
  summary: 'Deletes a campaign that is not running.',
  params: UuidParam,
  response: Ok,
  errors: ['campaign_not_found', 'campaign_running_delete'],
});
export const setCampaignDesiredState = route({
  method: 'POST',
  path: '/api/v1/campaign/:id/desired_state',
  tags: ['campaigns'],
  summary: 'Starts (running) or stops (stopped) a campaign; starting needs an approved, not deleted template and valid subscribers.',
  params: UuidParam,
  body: z.object({ desired_state: z.enum(['running', 'stopped'], { message: fieldMessage('desired_state_invalid') }) }),
  response: dataOf(CampaignSchema),
  errors: [
    'campaign_not_found',
    'campaign_template_deleted',
    'campaign_template_not_approved',
    'campaign_actions_outdated',
    'campaign_no_subscribers',
    'campaign_nothing_pending',
  ],
});

export const SubscriberSchema = z.object({
  uuid: Uuid,
  contact: z.object({ uuid: Uuid, name: z.string(), phone_number: z.string() }),
  state: z.enum(SUBSCRIBER_STATES),
  parameters: z.array(z.string()),
  error_message: z.string().nullable(),
  sent_at: IsoDate.nullable(),
  /** The provider's latest receipt of the message (null before sending). */
  delivery: z.enum(DELIVERY_STATES).nullable(),
  delivered_at: IsoDate.nullable(),
  read_at: IsoDate.nullable(),
  replied_at: IsoDate.nullable(),
});
export type Subscriber = z.infer<typeof SubscriberSchema>;
const statesQuery = z
  .union([z.enum(SUBSCRIBER_STATES), z.array(z.enum(SUBSCRIBER_STATES))])
  .transform((v) => (Array.isArray(v) ? v : [v]))
  .optional();
export const listSubscribers = route({
  method: 'GET',
  path: '/api/v1/campaign/:id/subscribers',
  tags: ['campaigns'],
  summary: 'Subscribers of a campaign, filtered by states (states or states[], repeated).',
  params: UuidParam,
  query: PageQuery.extend({ states: statesQuery, 'states[]': statesQuery }),
  response: pageOf(SubscriberSchema),
  errors: ['campaign_not_found'],
});
export const importSubscribers = route({
  method: 'POST',
  path: '/api/v1/campaign/:id/subscribers',
  tags: ['campaigns'],
  bodyEncoding: 'multipart',
  summary:
    "Imports subscribers from a CSV (UTF-8, UTF-16 or Windows-1252; , ; or tab separated) or .xlsx file (5 MB at most, columns name and phone plus the template's parameters named after its placeholders, body_1, or numbered 1..n; lines starting with # are notes); progress arrives as update-campaign-tasks.",
  params: UuidParam,
  bodyLimit: SUBSCRIBERS_FILE_MAX_BYTES + 64 * 1024,
  fileMaxBytes: SUBSCRIBERS_FILE_MAX_BYTES,
  response: z.object({ data: z.object({ import_status: z.enum(IMPORT_STATUSES) }) }),
  status: 202,
  errors: [
    'campaign_not_found',
    'subscriber_import_template_deleted',
    'subscriber_import_busy',
    'subscriber_file_not_multipart',
    'subscriber_file_not_csv',
    'subscriber_file_columns',
    'subscriber_file_unreadable',
    'multipart_unreadable',
    'multipart_file_required',
    'file_unreadable',
  ],
});
export const downloadSubscribersTemplate = route({
  method: 'GET',
  path: '/api/v1/campaign/:id/subscribers/template',
  tags: ['campaigns'],
  summary: "The import file's template for this campaign's template parameters, as CSV or Excel (Accept header).",
  params: UuidParam,
  errors: ['campaign_not_found'],
});
export const SubscriberParams = z.object({ id: Uuid, contact: Uuid });
export const updateSubscriber = route({
  method: 'POST',
  path: '/api/v1/campaign/:id/subscribers/:contact',
  tags: ['campaigns'],
  summary: 'Changes a subscriber (pending, error or completed ones only): its state.',
  params: SubscriberParams,
  body: z.object({ state: z.enum(SUBSCRIBER_STATES, { message: fieldMessage('state_invalid') }) }),
  response: dataOf(SubscriberSchema),
  errors: [
    'campaign_not_found',
    'subscriber_not_found',
    'subscriber_not_editable',
    'subscriber_state_not_editable',
    'subscriber_already_sent',
    'subscriber_parameter_missing',
    'subscriber_changed',
  ],
});
/** the manager's knowing resend of the sends whose outcome is unknown. */
export const resendUnknownSubscribers = route({
  method: 'POST',
  path: '/api/v1/campaign/:id/resend_unknown',
  tags: ['campaigns'],
  summary:
    "Puts the campaign's subscribers in state unknown (their message may have reached the provider: a resend may be a second message on their phone) back to pending, to be sent by the running run or the next Start; answers how many.",
  params: UuidParam,
  response: dataOf(z.object({ resent: z.number().int() })),
  errors: ['campaign_not_found'],
});
export const deleteSubscriber = route({
  method: 'DELETE',
  path: '/api/v1/campaign/:id/subscribers/:contact',
  tags: ['campaigns'],
  summary: 'Removes a pending subscriber.',
  params: SubscriberParams,
  response: Ok,
  errors: ['campaign_not_found', 'subscriber_not_found', 'subscriber_not_pending'],
});

/** `default`: preselected for every new campaign of the tenant. */
export const DndListSchema = z.object({ uuid: Uuid, name: z.string(), contact_count: z.number().int(), default: z.boolean() });
export type DndList = z.infer<typeof DndListSchema>;
export const listDndLists = route({
  method: 'GET',
  path: '/api/v1/dnd',
  tags: ['dnd'],
  summary: 'Do-not-disturb lists.',
  query: PageQuery.extend({ name: z.string().trim().max(120).optional() }),
  response: pageOf(DndListSchema),
});
export const createDndList = route({
  method: 'POST',
  path: '/api/v1/dnd',
  tags: ['dnd'],
  summary: 'Creates a do-not-disturb list.',
  body: z.object({ name: z.string().trim().min(1, fieldMessage('field_required')).max(120) }),
  response: dataOf(DndListSchema),
  status: 201,
});
export const updateDndList = route({
  method: 'PATCH',
  path: '/api/v1/dnd/:id',
  tags: ['dnd'],
  summary: 'Renames a do-not-disturb list, or marks it default (preselected for new campaigns) or not.',
  params: UuidParam,
  body: z.object({ name: z.string().trim().min(1, fieldMessage('field_required')).max(120).optional(), default: z.boolean().optional() }),
  response: dataOf(DndListSchema),
  errors: ['dnd_list_not_found'],
});
export const deleteDndList = route({
  method: 'DELETE',
  path: '/api/v1/dnd/:id',
  tags: ['dnd'],
  summary: 'Deletes a do-not-disturb list: campaigns stop consulting it; refused while a running campaign uses it.',
  params: UuidParam,
  response: Ok,
  errors: ['dnd_list_not_found', 'dnd_list_in_use'],
});
export const listDndContacts = route({
  method: 'GET',
  path: '/api/v1/dnd/:id/contacts',
  tags: ['dnd'],
  summary: 'Contacts of a do-not-disturb list.',
  params: UuidParam,
  query: PageQuery.extend({ name: z.string().trim().max(200).optional(), phone_number: z.string().trim().max(32).optional() }),
  response: pageOf(z.object({ uuid: Uuid, name: z.string(), phone_number: z.string().nullable() })),
  errors: ['dnd_list_not_found'],
});
export const removeDndContact = route({
  method: 'DELETE',
  path: '/api/v1/dnd/:id/contacts/:contact',
  tags: ['dnd'],
  summary: 'Takes a contact off a do-not-disturb list.',
  params: SubscriberParams,
  response: Ok,
  errors: ['dnd_list_not_found', 'dnd_contact_not_found'],
});
export const addContactToDnd = route({
  method: 'POST',
  path: '/api/v1/contacts/:id/dnd',
  tags: ['dnd'],
  summary: 'Adds a contact to do-not-disturb lists.',
  params: UuidParam,
  body: z.object({ dnd_list: z.array(Uuid).min(1, fieldMessage('dnd_list_choice_required')).max(100) }),
  response: dataOf(z.object({ uuid: Uuid, name: z.string(), dnd_list: z.array(z.object({ uuid: Uuid, name: z.string() })) })),
  errors: ['contact_not_found', 'dnd_list_unknown'],
});

/** A copy of a campaign to send again (a new run of its own, nothing of the original's sends). */
export const duplicateCampaign = route({
  method: 'POST',
  path: '/api/v1/campaign/:id/duplicate',
  tags: ['campaigns'],
  summary:
    "Copies a campaign: channel, template, reply actions, DND lists, entry point, mode and visibility; stopped, without a schedule. With with_subscribers the original's subscribers are copied with their parameters: pending again, 'dnd' when on one of its DND lists now, in error when a parameter is still missing.",
  params: UuidParam,
  body: z
    .object({
      name: z
        .string()
        .trim()
        .min(1, fieldMessage('name_required'))
        .max(CAMPAIGN_NAME_MAX, fieldMessage('campaign_name_too_long', { max: CAMPAIGN_NAME_MAX }))
        .optional(),
      with_subscribers: z.boolean().default(false),
    })
    .default({ with_subscribers: false }),
  response: dataOf(CampaignSchema),
  status: 201,
  errors: ['campaign_not_found', 'campaign_template_deleted_edit'],
});

/** The campaign's template sent once to one number, before Start, to see it on a phone. */
export const testSendCampaign = route({
  method: 'POST',
  path: '/api/v1/campaign/:id/test_send',
  tags: ['campaigns'],
  summary:
    "Sends the campaign's template to one phone number now, with the parameters given (header_1, body_1, ... in the import file's order); answers once the provider accepted it, or with the provider's reason. Not recorded as a subscriber.",
  params: UuidParam,
  body: z.object({
    phone_number: z.string().trim().min(1, fieldMessage('phone_required')).max(32, fieldMessage('phone_invalid')),
    parameters: z.array(z.string().max(1024)).max(30).default([]),
  }),
  response: dataOf(z.object({ phone_number: z.string(), external_id: z.string().nullable() })),
  errors: [
    'campaign_not_found',
    'campaign_template_deleted',
    'campaign_template_not_approved',
    'phone_invalid',
    'subscriber_parameter_missing',
    'campaign_test_send_dnd',
    'campaign_test_send_rate_limited',
    'channel_no_templates',
    'channel_disabled',
    'campaign_test_send_refused',
  ],
});
