import { z } from 'zod';
import { AdminReportQuery, REPORT_RANGE_ERRORS } from './admin-reports';
import { IsoDate, pageOf, PageQuery, Uuid } from './common';
import { route } from './route';

const handle = z.string().max(64).nullable().optional();
/** One node of a bot flow; the rules are packages/core botFlowIssues. */
export const BotNodeSchema = z.object({
  id: z.string().min(1).max(64),
  type: z.enum(['start', 'http', 'options', 'prompt', 'router', 'set_variables', 'transfer', 'end']),
  text: z.string().max(4000).optional(),
  options: z
    .array(z.object({ key: z.string().max(40), label: z.string().max(200), next: handle }))
    .max(20)
    .optional(),
  invalid_option_message: z.string().max(1000).optional(),
  variable: z.string().max(64).optional(),
  url: z.string().max(2000).optional(),
  method: z.enum(['GET', 'POST']).optional(),
  timeout_seconds: z.number().int().optional(),
  error_text: z.string().max(1000).optional(),
  on_error: handle,
  conditions: z
    .array(z.object({ expression: z.string().max(500), next: handle }))
    .max(20)
    .optional(),
  variables: z
    .array(z.object({ name: z.string().max(64), value: z.string().max(1000) }))
    .max(50)
    .optional(),
  sector_uuid: Uuid.nullable().optional(),
  next: handle,
});
export const BotSchema = z.object({
  uuid: Uuid,
  name: z.string(),
  nodes: z.array(BotNodeSchema),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type Bot = z.infer<typeof BotSchema>;
const BotBody = z.object({ name: z.string().max(1000), nodes: z.array(BotNodeSchema).max(200) });
const BotParam = z.object({ id: Uuid });

export const listBots = route({
  method: 'GET',
  path: '/api/v1/bots',
  tags: ['bots'],
  summary: 'Bot flows of the workspace (admin, flag bots_interface).',
  response: z.object({ data: z.array(BotSchema) }),
});
export const getBot = route({
  method: 'GET',
  path: '/api/v1/bots/:id',
  tags: ['bots'],
  summary: 'One bot flow.',
  params: BotParam,
  response: z.object({ data: BotSchema }),
  errors: ['bot_not_found'],
});
export const createBot = route({
  method: 'POST',
  path: '/api/v1/bots',
  tags: ['bots'],
  summary: 'Creates a bot flow; the flow rules apply.',
  status: 201,
  body: BotBody,
  response: z.object({ data: BotSchema }),
  errors: ['bot_name_taken', 'sector_unknown'],
});
export const updateBot = route({
  method: 'PATCH',
  path: '/api/v1/bots/:id',
  tags: ['bots'],
  summary: 'Saves a bot flow.',
  params: BotParam,
  body: BotBody.partial(),
  response: z.object({ data: BotSchema }),
  errors: ['bot_not_found', 'bot_name_taken', 'sector_unknown'],
});
export const deleteBot = route({
  method: 'DELETE',
  path: '/api/v1/bots/:id',
  tags: ['bots'],
  summary: 'Deletes a bot flow.',
  params: BotParam,
  response: z.object({ data: z.object({ uuid: Uuid }) }),
  errors: ['bot_not_found', 'bot_in_use'],
});

/** One conversation's pass through a bot flow or an automated menu (GET /api/v1/bots/history/conversations). */
export const BotHistoryRowSchema = z.object({
  conversation_uuid: Uuid,
  ticket_number: z.number().int(),
  contact: z.object({ name: z.string(), phone: z.string().nullable() }),
  channel: z.object({ uuid: Uuid, name: z.string() }),
  bot: z.object({ uuid: Uuid, name: z.string(), kind: z.enum(['bot', 'menu']) }),
  /** still in the flow, handed to a sector's queue, or ended by the flow */
  outcome: z.enum(['in_bot', 'sent_to_queue', 'ended']),
  /** when it left the flow; for one still in it, when it entered */
  at: IsoDate,
});
export type BotHistoryRow = z.infer<typeof BotHistoryRowSchema>;

export const botHistory = route({
  method: 'GET',
  path: '/api/v1/bots/history/conversations',
  tags: ['bots'],
  summary:
    "Conversations that went through the workspace's bot flows and automated menus in the period (the caller's days), newest first; bot_uuid narrows to one flow or menu.",
  query: PageQuery.extend({
    start: AdminReportQuery.shape.start,
    end: AdminReportQuery.shape.end,
    timezone: AdminReportQuery.shape.timezone,
    bot_uuid: Uuid.optional(),
  }),
  response: pageOf(BotHistoryRowSchema),
  errors: REPORT_RANGE_ERRORS,
});
