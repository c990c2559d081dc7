import {
  agentsProductivityReport,
  botsReport,
  chatHistoryReport,
  conversationMetricsReport,
  conversationSummaryReport,
  conversationTrendsReport,
  loginHistoryReport,
} from '@atende/contract';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import { reportRange } from './export';
import {
  agentsProductivity,
  botOutcomes,
  chatHistory,
  conversationMetrics,
  conversationSummary,
  conversationTrends,
  loginHistory,
  reportFilter,
} from './service';
import { answerReport } from './table';

/**
 * Admin reports (reports, calls; filter rules). Each is one SQL query over
 * indexed columns; the screen gets a table, `format` turns the same rows into a CSV, Excel or JSON
 * download. Supervisor-level roles; login history needs manager; session metrics its flag.
 */
export function adminReportRoutes(app: FastifyInstance, ctx: AppContext): void {
  bind(app, agentsProductivityReport, 'reports', async ({ session, query, request, reply }) => {
    const period = reportRange(query);
    return answerReport(
      request,
      reply,
      query,
      'agents-productivity',
      [
        { key: 'agent', label: 'Agent' },
        { key: 'answered', label: 'Answered sessions' },
        { key: 'closed', label: 'Closed sessions' },
        { key: 'avg_first_response', label: 'Average first response time' },
        { key: 'avg_session', label: 'Average session time' },
        { key: 'messages', label: 'Messages sent' },
      ],
      (limit) => agentsProductivity(ctx.db, reportFilter(session, query), period, limit),
    );
  });

  bind(app, conversationSummaryReport, 'reports', async ({ session, query, request, reply }) => {
    const period = reportRange(query);
    const tail = [
      { key: 'new_sessions', label: 'New sessions' },
      { key: 'answered', label: 'Answered' },
      { key: 'closed', label: 'Closed sessions' },
      { key: 'unanswered', label: 'Closed without answer' },
      { key: 'answer_rate', label: 'Answer rate' },
    ];
    const f = reportFilter(session, query);
    if (query.report_type === 'agent') {
      return answerReport(request, reply, query, 'session-rate-by-agent', [{ key: 'agent', label: 'Agent' }, ...tail], (limit) =>
        conversationSummary(ctx.db, f, period, period.zone, 'agent', limit),
      );
    }
    return answerReport(request, reply, query, 'session-rate', [{ key: 'day', label: 'Day' }, ...tail], (limit) =>
      conversationSummary(ctx.db, f, period, period.zone, 'day', limit),
    );
  });

  bind(app, conversationTrendsReport, 'reports', async ({ session, query, request, reply }) => {
    const period = reportRange(query);
    const byHour = query.report_type === 'hour';
    const key = byHour ? 'hour' : 'weekday';
    return answerReport(
      request,
      reply,
      query,
      `session-volume-by-${key}`,
      [
        { key, label: byHour ? 'Hour' : 'Weekday', translated: !byHour },
        { key: 'sessions', label: 'Sessions' },
        { key: 'share', label: 'Share' },
      ],
      () => conversationTrends(ctx.db, reportFilter(session, query), period, period.zone, key),
    );
  });

  bind(app, conversationMetricsReport, 'reports.session_metrics', async ({ session, query, request, reply }) => {
    const period = reportRange(query);
    return answerReport(
      request,
      reply,
      query,
      'session-metrics',
      [
        { key: 'day', label: 'Day' },
        { key: 'sessions', label: 'Sessions' },
        { key: 'avg_wait', label: 'Average wait' },
        { key: 'max_wait', label: 'Longest wait' },
        { key: 'avg_first_response', label: 'Average first response time' },
        { key: 'avg_session', label: 'Average session time' },
      ],
      (limit) => conversationMetrics(ctx.db, reportFilter(session, query), period, period.zone, limit),
    );
  });

  bind(app, loginHistoryReport, 'reports.login_history', async ({ session, query, request, reply }) => {
    const period = reportRange(query);
    return answerReport(
      request,
      reply,
      query,
      'login-history',
      [
        { key: 'at', label: 'Date' },
        { key: 'user', label: 'User' },
        { key: 'email', label: 'Email' },
        { key: 'event', label: 'Event' },
        { key: 'ip', label: 'IP address' },
      ],
      (limit) => loginHistory(ctx.db, reportFilter(session, { user_id: query.user_id }), period, limit),
    );
  });

  bind(app, chatHistoryReport, 'reports', async ({ session, query, request, reply }) => {
    const period = reportRange(query, { contact: query.contact });
    return answerReport(
      request,
      reply,
      query,
      'chat-history',
      [
        { key: 'ticket', label: 'Ticket' },
        { key: 'contact', label: 'Contact' },
        { key: 'phone', label: 'Phone' },
        { key: 'agent', label: 'Agent' },
        { key: 'sector', label: 'Sector' },
        { key: 'channel', label: 'Channel' },
        { key: 'started_at', label: 'Start' },
        { key: 'closed_at', label: 'End' },
        { key: 'duration', label: 'Duration' },
        { key: 'ended_by', label: 'Ended by' },
        { key: 'reason', label: 'Finish reason' },
        { key: 'conversation_uuid', label: 'Conversation' },
      ],
      (limit, after) => chatHistory(ctx.db, reportFilter(session, query), period, query.contact, after, limit),
      true,
    );
  });

  bind(app, botsReport, 'reports.bots', async ({ session, query, request, reply }) => {
    const period = reportRange(query);
    return answerReport(
      request,
      reply,
      query,
      'bots',
      [
        { key: 'menu', label: 'Menu' },
        { key: 'answer', label: 'Answer' },
        { key: 'outcome', label: 'Outcome', translated: true },
        { key: 'conversations', label: 'Conversations' },
      ],
      (limit) => botOutcomes(ctx.db, reportFilter(session, query), period, limit),
    );
  });
}
