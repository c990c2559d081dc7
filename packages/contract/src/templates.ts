import { z } from 'zod';
import { IsoDate, PageQuery, pageOf, dataOf, Ok, Uuid, UuidParam } from './common';
import { route } from './route';
import { fieldMessage } from './field-messages';

/** Template statuses (upper-cased on read), categories and component shapes. */
export const TEMPLATE_STATUSES = [
  'APPROVED',
  'DELETED',
  'DISABLED',
  'IN_APPEAL',
  'LIMIT_EXCEEDED',
  'PAUSED',
  'PENDING',
  'PENDING_DELETION',
  'REJECTED',
] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];
export const TEMPLATE_CATEGORIES = ['AUTHENTICATION', 'MARKETING', 'UTILITY'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];
export const TEMPLATE_HEADER_FORMATS = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION'] as const;
export type TemplateHeaderFormat = (typeof TEMPLATE_HEADER_FORMATS)[number];
export const TEMPLATE_BUTTON_TYPES = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER'] as const;
export type TemplateButtonType = (typeof TEMPLATE_BUTTON_TYPES)[number];

/**
 * Structural shapes only (what may travel); the product rules with their messages
 * live in @atende/core (templateIssues), run by the form and again by the api.
 */
export const TemplateHeaderSchema = z.object({
  type: z.literal('HEADER'),
  format: z.enum(TEMPLATE_HEADER_FORMATS),
  text: z.string().max(4096).optional(),
  example: z
    .object({
      header_text: z.array(z.string().max(4096)).max(20).optional(),
      header_handle: z.array(z.string().max(4096)).max(20).optional(),
    })
    .optional(),
});
export const TemplateBodySchema = z.object({
  type: z.literal('BODY'),
  text: z.string().max(8192),
  example: z
    .object({
      body_text: z
        .array(z.array(z.string().max(4096)).max(100))
        .max(5)
        .optional(),
    })
    .optional(),
});
export const TemplateFooterSchema = z.object({ type: z.literal('FOOTER'), text: z.string().max(4096) });
export const TemplateButtonSchema = z.object({
  type: z.enum(TEMPLATE_BUTTON_TYPES),
  text: z.string().max(4096),
  url: z.string().max(8192).optional(),
  phone_number: z.string().max(4096).optional(),
  example: z.array(z.string().max(8192)).max(5).optional(),
});
export const TemplateButtonsSchema = z.object({ type: z.literal('BUTTONS'), buttons: z.array(TemplateButtonSchema).max(20) });
export const TemplateComponentSchema = z.discriminatedUnion('type', [
  TemplateHeaderSchema,
  TemplateBodySchema,
  TemplateFooterSchema,
  TemplateButtonsSchema,
]);
export type TemplateHeader = z.infer<typeof TemplateHeaderSchema>;
export type TemplateBody = z.infer<typeof TemplateBodySchema>;
export type TemplateFooter = z.infer<typeof TemplateFooterSchema>;
export type TemplateButton = z.infer<typeof TemplateButtonSchema>;
export type TemplateButtons = z.infer<typeof TemplateButtonsSchema>;
export type TemplateComponent = z.infer<typeof TemplateComponentSchema>;

export const TemplateSchema = z.object({
  uuid: Uuid,
  name: z.string(),
  channel: z.object({ uuid: Uuid, name: z.string(), type: z.string() }),
  config: z.object({
    category: z.enum(TEMPLATE_CATEGORIES),
    language: z.string(),
    status: z.enum(TEMPLATE_STATUSES),
    components: z.array(TemplateComponentSchema),
    /** The provider's reason when it rejected or paused the template. */
    rejected_reason: z.string().nullable(),
  }),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type Template = z.infer<typeof TemplateSchema>;

/** "Submit payload: category, components, language, name". */
export const TemplateInputSchema = z.object({
  name: z.string().max(512),
  category: z.enum(TEMPLATE_CATEGORIES),
  language: z.string().min(2).max(16),
  components: z.array(TemplateComponentSchema).min(1).max(4),
});
export type TemplateInput = z.infer<typeof TemplateInputSchema>;

const statusFilter = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(TEMPLATE_STATUSES, { message: fieldMessage('status_invalid') }));

export const TemplateListQuery = PageQuery.extend({
  language: z.string().max(16).optional(),
  category: z.enum(TEMPLATE_CATEGORIES, { message: fieldMessage('category_invalid') }).optional(),
  name__contains: z.string().max(200).optional(),
  channel_uuid: z.uuid({ message: fieldMessage('channel_invalid') }).optional(),
  status: statusFilter.optional(),
});

export const listTemplates = route({
  method: 'GET',
  path: '/api/v1/channels/outbound_templates',
  tags: ['templates'],
  summary:
    'Outbound (WhatsApp) templates of the tenant, newest first; filters language, category, name__contains, channel_uuid and status (approved).',
  query: TemplateListQuery,
  response: pageOf(TemplateSchema),
});
export const listChannelTemplates = route({
  method: 'GET',
  path: '/api/v1/channels/:id/outbound_templates',
  tags: ['templates'],
  summary: "One channel's templates (optional ?status=approved).",
  params: UuidParam,
  query: TemplateListQuery.omit({ channel_uuid: true }),
  response: pageOf(TemplateSchema),
});
export const createTemplate = route({
  method: 'POST',
  path: '/api/v1/channels/:id/outbound_templates',
  tags: ['templates'],
  summary: 'Creates a template on a channel and submits it to the provider for approval (the template rules).',
  params: UuidParam,
  body: TemplateInputSchema,
  response: dataOf(TemplateSchema),
  status: 201,
  errors: ['channel_not_found', 'channel_no_templates_support', 'template_name_taken'],
});
/** A change that touches campaigns is refused (409 template_in_use, naming them) until repeated with confirm=true. */
const ConfirmQuery = z.object({
  confirm: z
    .union([z.boolean(), z.enum(['true', 'false'])])
    .transform((v) => v === true || v === 'true')
    .optional(),
});
export const updateTemplate = route({
  method: 'PUT',
  path: '/api/v1/channels/:id/outbound_templates',
  tags: ['templates'],
  summary:
    'Edits the template of this channel named `name` in `language` (channel, name and category are locked); resubmits it for approval. Changing the quick-reply buttons of a template campaigns use answers 409 template_in_use (params.campaigns) unless confirm=true; those campaigns are then flagged actions_outdated.',
  params: UuidParam,
  query: ConfirmQuery,
  body: TemplateInputSchema,
  response: dataOf(TemplateSchema),
  errors: [
    'channel_not_found',
    'channel_no_templates_support',
    'template_not_found',
    'template_authentication_locked',
    'template_category_locked',
    'template_being_deleted',
    'template_in_use',
    'template_name_taken',
  ],
});
export const deleteTemplate = route({
  method: 'DELETE',
  path: '/api/v1/channels/outbound_templates/:id',
  tags: ['templates'],
  summary:
    'Deletes a template here and at the provider; when campaigns use it, answers 409 template_in_use (params.campaigns) unless confirm=true.',
  params: UuidParam,
  query: ConfirmQuery,
  response: Ok,
  errors: ['template_not_found', 'template_in_use'],
});
