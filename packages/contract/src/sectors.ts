import { z } from 'zod';
import { Ok, PageQuery, pageOf, dataOf, Uuid, UuidParam } from './common';
import { route } from './route';
import { requiredText } from './settings-rules';
import { fieldMessage } from './field-messages';

/** Sector: a queue with its SLA times and ticket announcement. */
export const SectorSchema = z.object({
  uuid: Uuid,
  name: z.string(),
  sla_first_response_seconds: z.number().int().nullable(),
  sla_session_seconds: z.number().int().nullable(),
  ticket_announce: z.boolean(),
  ticket_message: z.string().nullable(),
});
export type Sector = z.infer<typeof SectorSchema>;

/** Thirty days: an SLA longer than that is a typo, not a target. */
export const SLA_MAX_SECONDS = 30 * 24 * 3600;
const slaSeconds = z
  .number({ message: fieldMessage('sla_seconds_required') })
  .int(fieldMessage('sla_seconds_whole'))
  .min(1, fieldMessage('sla_too_short'))
  .max(SLA_MAX_SECONDS, fieldMessage('sla_too_long'))
  .nullable();
export const TICKET_MESSAGE_REQUIRED = fieldMessage('sector_ticket_message_required');

/** The fields of a sector as an admin writes them; the PATCH takes any of them. */
export const SectorFieldsSchema = z.object({
  name: requiredText(120),
  sla_first_response_seconds: slaSeconds.optional(),
  sla_session_seconds: slaSeconds.optional(),
  ticket_announce: z.boolean().optional(),
  ticket_message: z
    .string()
    .trim()
    .max(1000, fieldMessage('field_too_long', { max: 1000 }))
    .nullable()
    .optional(),
});
/** Create (and the screen's form): announcing the ticket needs its message. */
export const SectorBodySchema = SectorFieldsSchema.superRefine((s, ctx) => {
  if (s.ticket_announce && !s.ticket_message?.trim())
    ctx.addIssue({ code: 'custom', path: ['ticket_message'], message: TICKET_MESSAGE_REQUIRED });
});
export type SectorBody = z.infer<typeof SectorBodySchema>;

export const listSectors = route({
  method: 'GET',
  path: '/api/v1/sectors',
  tags: ['settings'],
  summary: 'Sectors of the workspace, by name (`_limit=0`: all of them). Deleted sectors are not listed.',
  query: PageQuery.extend({ name: z.string().trim().max(120).optional() }),
  response: pageOf(SectorSchema),
});
export const createSector = route({
  method: 'POST',
  path: '/api/v1/sectors',
  tags: ['settings'],
  summary: 'Creates a sector (admin).',
  body: SectorBodySchema,
  response: dataOf(SectorSchema),
  status: 201,
  errors: ['sector_name_taken', 'sector_ticket_message_required'],
});
export const updateSector = route({
  method: 'PATCH',
  path: '/api/v1/sectors/:id',
  tags: ['settings'],
  summary: 'Edits a sector (admin); only the fields sent change.',
  params: UuidParam,
  body: SectorFieldsSchema.partial(),
  response: dataOf(SectorSchema),
  errors: ['sector_not_found', 'sector_name_taken', 'sector_ticket_message_required'],
});
export const deleteSector = route({
  method: 'DELETE',
  path: '/api/v1/sectors/:id',
  tags: ['settings'],
  summary: 'Deletes a sector (admin): it leaves the lists and transfer destinations; its conversations keep it in their history.',
  params: UuidParam,
  response: Ok,
  errors: ['sector_not_found', 'sector_used_by_channels', 'sector_used_by_campaigns', 'sector_has_open_conversations'],
});
