import { api } from '../../api/client';
import { phrase } from '../../i18n/phrase';
import type { ReportDefinition } from './AdminReportPage';

const base = '/api/v1/reports';
const SURVEY_TYPES = [
  { value: 'survey', label: phrase('By survey') },
  { value: 'option', label: phrase('By answer') },
  { value: 'agent', label: phrase('By agent') },
  { value: 'day', label: phrase('By day') },
  { value: 'answers', label: phrase('Answers') },
] as const;

/** The admin reports and the call each makes. Titles are translated phrases. */
export const REPORT_DEFINITIONS = {
  'chat-history': {
    title: phrase('Chat history'),
    path: `${base}/chat_history`,
    load: async (q) => (await api.chatHistoryReport({ query: q })).data,
    filters: ['sector', 'agent', 'channel', 'contact'],
  },
  'agents-productivity': {
    title: phrase('Agents productivity'),
    path: `${base}/agents/productivity`,
    load: async (q) => (await api.agentsProductivityReport({ query: q })).data,
    filters: ['sector', 'agent', 'channel'],
  },
  'session-rate': {
    title: phrase('Session rate'),
    path: `${base}/summary/conversations`,
    load: async (q) => (await api.conversationSummaryReport({ query: { ...q, report_type: 'trend' } })).data,
    filters: ['sector', 'agent', 'channel'],
    chart: { value: 'new_sessions' },
  },
  'session-rate-by-agent': {
    title: phrase('Session rate by agent'),
    path: `${base}/summary/conversations`,
    load: async (q) => (await api.conversationSummaryReport({ query: { ...q, report_type: 'agent' } })).data,
    filters: ['sector', 'channel'],
    types: [{ value: 'agent', label: phrase('By agent') }],
  },
  'session-volume-trends': {
    title: phrase('Session volume trends'),
    path: `${base}/trends/conversations`,
    load: async (q) =>
      (await api.conversationTrendsReport({ query: { ...q, report_type: q.report_type === 'hour' ? 'hour' : 'weekday' } })).data,
    filters: ['sector', 'agent', 'channel'],
    types: [
      { value: 'weekday', label: phrase('By weekday') },
      { value: 'hour', label: phrase('By hour') },
    ],
    chart: { value: 'sessions' },
  },
  'session-metrics': {
    title: phrase('Session metrics'),
    path: `${base}/metrics/conversations`,
    load: async (q) => (await api.conversationMetricsReport({ query: q })).data,
    filters: ['sector', 'agent', 'channel'],
    chart: { value: 'sessions' },
  },
  'login-history': {
    title: phrase('Login history'),
    path: `${base}/login_history`,
    load: async (q) => (await api.loginHistoryReport({ query: q })).data,
    filters: ['agent'],
  },
  bots: {
    title: phrase('Bots'),
    path: `${base}/bots`,
    load: async (q) => (await api.botsReport({ query: q })).data,
    filters: ['sector', 'channel'],
    // Conversations per menu answer or bot: where the flows send people.
    chart: { value: 'conversations' },
  },
  surveys: {
    title: phrase('Surveys'),
    path: `${base}/surveys`,
    load: async (q) =>
      (await api.surveysReport({ query: { ...q, report_type: SURVEY_TYPES.find((o) => o.value === q.report_type)?.value ?? 'survey' } }))
        .data,
    filters: ['survey', 'sector', 'agent', 'channel'],
    types: [...SURVEY_TYPES],
    chart: { value: 'answered', types: ['day'] },
  },
} satisfies Record<string, ReportDefinition>;
