import { api } from '../../api/client';
import { phrase } from '../../i18n/phrase';
import type { ReportDefinition } from './AdminReportPage';

const base = '/api/v1/reports';

/** The admin reports of spec 002 §2 and the call each makes (§7). Titles are translated phrases. */
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
    load: async (q) => (await api.conversationTrendsReport({ query: { ...q, report_type: q.report_type === 'hour' ? 'hour' : 'weekday' } })).data,
    filters: ['sector', 'agent', 'channel'],
    types: [
      { value: 'weekday', label: phrase('By weekday') },
      { value: 'hour', label: phrase('By hour') },
    ],
    chart: { value: 'sessions' },
    translated: ['weekday'],
  },
  'session-metrics': {
    title: phrase('Session metrics'),
    path: `${base}/metrics/conversations`,
    load: async (q) => (await api.conversationMetricsReport({ query: q })).data,
    filters: ['sector', 'agent', 'channel'],
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
    translated: ['outcome'],
  },
} satisfies Record<string, ReportDefinition>;

// Values of the bots report's outcome column (translated on screen).
export const BOT_OUTCOMES = [phrase('Ended'), phrase('Sent to the queue')];
