import { z } from 'zod';
import { dataOf, IsoDate, Ok, PageQuery, pageOf, Uuid, UuidParam } from './common';
import { route } from './route';
import { fieldMessage } from './field-messages';

/** Custom field values hold at most 2000 characters. */
export const CUSTOM_FIELD_MAX = 2000;
const fieldValue = z.string().max(CUSTOM_FIELD_MAX, fieldMessage('field_max_characters', { max: CUSTOM_FIELD_MAX }));
const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

/** Contact: `phone1` is the contact's phone number (E.164). */
export const ContactSchema = z.object({
  uuid: Uuid,
  name: z.string(),
  phone_number: z.string().nullable(),
  phone1: z.string().nullable(),
  phone2: z.string().nullable(),
  organization: z.object({ name: z.string() }).nullable(),
  gov_id: z.string().nullable(),
  email: z.string().nullable(),
  customer_id: z.number().int().nullable(),
  zip_code: z.string().nullable(),
  address_line_1: z.string().nullable(),
  address_line_2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  country: z.string().nullable(),
  notes: z.string().nullable(),
  profile_image: z.string().nullable(),
  fields: z.record(z.string(), z.string()),
  livechat_custom_fields: z.record(z.string(), z.string()),
  /** The livechat pre-chat fields' labels by key, for showing the answers above; on GET /contacts/:id. */
  livechat_field_labels: z.record(z.string(), z.string()).optional(),
  dnd_list: z.array(z.object({ uuid: Uuid, name: z.string() })),
  last_conversations_count: z.number().int(),
  created_at: IsoDate,
});
export type Contact = z.infer<typeof ContactSchema>;

const contactFields = {
  phone2: optionalText(32),
  gov_id: optionalText(64),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(254)
    .pipe(z.union([z.literal(''), z.email({ message: fieldMessage('email_invalid') })]))
    .nullable()
    .optional(),
  customer_id: z.coerce.number().int(fieldMessage('integer_required')).min(0).max(2_147_483_647).nullable().optional(),
  zip_code: optionalText(32),
  address_line_1: optionalText(300),
  address_line_2: optionalText(300),
  city: optionalText(120),
  state: optionalText(120),
  country: optionalText(120),
  notes: optionalText(5000),
  fields: z.record(z.string().max(120), fieldValue).optional(),
  livechat_custom_fields: z.record(z.string().max(120), fieldValue).optional(),
};

export const createContact = route({
  method: 'POST',
  path: '/api/v1/contacts',
  tags: ['contacts'],
  summary: 'Creates a contact (name, phone1 and organization required; phone normalised to E.164 for the tenant country).',
  body: z.strictObject({
    name: z.string().trim().min(1, fieldMessage('required')).max(200),
    phone1: z.string().trim().min(1, fieldMessage('required')).max(32),
    organization: z.string().trim().min(1, fieldMessage('required')).max(200),
    ...contactFields,
  }),
  response: dataOf(ContactSchema),
  status: 201,
  errors: ['phone_invalid', 'contact_phone_taken'],
});
export const updateContact = route({
  method: 'PATCH',
  path: '/api/v1/contacts/:id',
  tags: ['contacts'],
  summary: 'Edits a contact; phone1 is read-only.',
  params: UuidParam,
  body: z.strictObject({
    name: z.string().trim().min(1, fieldMessage('required')).max(200).optional(),
    organization: z.string().trim().min(1, fieldMessage('required')).max(200).optional(),
    phone1: z.string().max(32).optional(),
    ...contactFields,
  }),
  response: dataOf(ContactSchema),
  errors: ['contact_not_found', 'phone_1_locked', 'phone_invalid'],
});
export const listContacts = route({
  method: 'GET',
  path: '/api/v1/contacts',
  tags: ['contacts'],
  summary: 'Contacts, paged; name and phone_number filters need at least 3 characters; number__equals finds one phone exactly.',
  query: PageQuery.extend({
    name: z.string().trim().min(3, fieldMessage('search_too_short')).max(200).optional(),
    phone_number: z.string().trim().min(3, fieldMessage('search_too_short')).max(32).optional(),
    number__equals: z.string().trim().min(3).max(32).optional(),
  }),
  response: pageOf(ContactSchema),
});
export const getContact = route({
  method: 'GET',
  path: '/api/v1/contacts/:id',
  tags: ['contacts'],
  summary: 'One contact.',
  params: UuidParam,
  response: dataOf(ContactSchema),
  errors: ['contact_not_found'],
});
export const deleteContact = route({
  method: 'DELETE',
  path: '/api/v1/contacts/:id',
  tags: ['contacts'],
  summary: 'Removes a contact; refused while it has an open conversation. Its history stays.',
  params: UuidParam,
  response: Ok,
  errors: ['contact_not_found', 'contact_conversation_open'],
});

/** Journey session. */
export const JourneySessionSchema = z.object({
  uuid: Uuid,
  event_type: z.enum(['call', 'chat']),
  start: IsoDate,
  end: IsoDate.nullable(),
  data: z.object({
    conversation_uuid: Uuid.nullable(),
    channel_type: z.string().nullable(),
    /** The channel as the admin named it (the type is a technical value). */
    channel_name: z.string().nullable(),
    recording_link: z.string().nullable(),
    queue_name: z.string().nullable(),
    outcome: z.string().nullable(),
    __event_type__: z.enum(['call', 'chat']),
  }),
});
export const getContactJourney = route({
  method: 'GET',
  path: '/api/v1/contacts/:id/journey',
  tags: ['contacts'],
  summary: "The contact's earlier sessions, newest first (the panel uses _limit 5).",
  params: UuidParam,
  query: PageQuery,
  response: pageOf(JourneySessionSchema),
  errors: ['contact_not_found'],
});
export const getContactJourneyEvent = route({
  method: 'GET',
  path: '/api/v1/contacts/:id/event/:eventId',
  tags: ['contacts'],
  summary: 'One journey entry of a contact.',
  params: z.object({ id: Uuid, eventId: Uuid }),
  response: dataOf(JourneySessionSchema),
  errors: ['contact_not_found', 'journey_entry_not_found'],
});
