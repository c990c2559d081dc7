import { z } from 'zod';
import { IsoDate, Uuid } from './common';
import { route } from './route';
import { fieldMessage } from './field-messages';

/** The open states the admin dashboard lists ("Dashboard conversation"). */
export const DASHBOARD_STATES = ['waiting', 'bot', 'answered', 'outbound-started'] as const;
export type DashboardState = (typeof DASHBOARD_STATES)[number];

/** Most open conversations a dashboard lists; `total` tells when there are more. */
export const DASHBOARD_MAX_ROWS = 500;

export const DashboardConversationSchema = z.object({
  uuid: Uuid,
  state: z.enum(DASHBOARD_STATES),
  type: z.string(),
  priority: z.number().int(),
  ticket_number: z.number().int(),
  contact: z.object({ uuid: Uuid, name: z.string().nullable(), phone: z.string().nullable() }),
  user: z.object({ id: z.number().int(), username: z.string() }).nullable(),
  sector: z.object({ uuid: Uuid, name: z.string() }).nullable(),
  channel: z.object({ uuid: Uuid, name: z.string(), type: z.string() }),
  time_join: IsoDate,
  time_answer: IsoDate.nullable(),
  last_message: z.object({ content: z.string().nullable(), created_at: IsoDate }).nullable(),
});
export type DashboardConversation = z.infer<typeof DashboardConversationSchema>;

export const listDashboardConversations = route({
  method: 'GET',
  path: '/api/v1/dashboard/conversations',
  tags: ['dashboard'],
  summary: 'Open conversations (waiting, bot, answered, outbound-started), newest start first.',
  query: z.object({
    state: z.enum(DASHBOARD_STATES, { message: fieldMessage('state_invalid') }).optional(),
    sector_uuid: Uuid.optional(),
  }),
  response: z.object({ data: z.array(DashboardConversationSchema), total: z.number().int() }),
});

/** A duration as the dashboard prints it: hh:mm:ss, and the seconds it stands for. */
export const DurationSchema = z.object({ time: z.string().regex(/^\d{2,}:\d{2}:\d{2}$/), seconds: z.number().int().nonnegative() });

export const DashboardStatsSchema = z.object({
  /** The caller's day the figures cover (YYYY-MM-DD in `timezone`). */
  date: z.string(),
  timezone: z.string(),
  /** Answer time of the sessions answered that day. */
  avg_first_response_time: DurationSchema,
  /** Length of the sessions closed that day. */
  avg_session_time: DurationSchema,
  /** Sessions that started that day. */
  new_sessions: z.number().int(),
  /** Sessions open now. */
  opened_sessions: z.number().int(),
  /** Sessions closed that day. */
  closed_sessions: z.number().int(),
});
export type DashboardStats = z.infer<typeof DashboardStatsSchema>;

export const getDashboardStats = route({
  method: 'GET',
  path: '/api/v1/dashboard/stats',
  tags: ['dashboard'],
  summary: "Today's figures in the caller's time zone, computed from the conversation history.",
  query: z.object({ timezone: z.string().max(64).default('UTC') }),
  response: z.object({ data: DashboardStatsSchema }),
});

/** Service-level state of one sector for the omnichannel panel (sector SLA seconds). */
export const SectorSlaSchema = z.object({
  uuid: Uuid,
  name: z.string(),
  sla_first_response_seconds: z.number().int().nullable(),
  sla_session_seconds: z.number().int().nullable(),
  waiting: z.number().int(),
  answered: z.number().int(),
  /** Age of the oldest waiting conversation. */
  oldest_waiting_seconds: z.number().int().nullable(),
  /** Waiting conversations older than the first-response SLA (0 when the sector has none). */
  first_response_breaches: z.number().int(),
  /** Open conversations older than the session SLA (0 when the sector has none). */
  session_breaches: z.number().int(),
});
export type SectorSla = z.infer<typeof SectorSlaSchema>;

export const listSectorSla = route({
  method: 'GET',
  path: '/api/v1/dashboard/sectors',
  tags: ['dashboard'],
  summary: 'SLA status per sector for the omnichannel panel (flag omnichannel_dashboard).',
  response: z.object({ data: z.array(SectorSlaSchema) }),
});
