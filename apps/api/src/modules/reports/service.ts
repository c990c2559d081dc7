import { formatHms } from '@atende/core';
import {
  agentProductivityRows,
  botOutcomeRows,
  chatHistoryRows,
  conversationCountsByAgent,
  conversationCountsByDay,
  conversationMetricsByDay,
  conversationVolume,
  loginHistoryRows,
  surveyAnswerRows,
  surveyCountsByAgent,
  surveyCountsByDay,
  surveyCountsByOption,
  surveyCountsBySurvey,
  type ConversationCountRow,
  type Db,
  type ReportFilter,
  type ReportPeriod,
  type SurveyReportFilter,
} from '@atende/db';
import type { Session } from '../session/session';
import { n, rate, type Row } from './table';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const duration = (seconds: number | null): string | null => (seconds === null ? null : formatHms(seconds));
/** A number in the files too (Excel numbers as numbers), two decimals; null without numeric answers. */
const score = (v: number | null): number | null => (v === null ? null : Math.round(v * 100) / 100);

/** The filters a report query may carry. */
export interface ReportQueryFilter {
  sector_uuid?: string | undefined;
  user_id?: number | undefined;
  channel_uuid?: string | undefined;
}

/** The conversations a report covers: the caller's workspace and the optional sector, agent and channel. */
export function reportFilter(session: Session, q: ReportQueryFilter): ReportFilter {
  return {
    tenantId: session.tenantId,
    workspaceId: session.workspaceId,
    sectorId: q.sector_uuid ?? null,
    userId: q.user_id ?? null,
    channelId: q.channel_uuid ?? null,
  };
}

export async function agentsProductivity(db: Db, f: ReportFilter, period: ReportPeriod, limit: number): Promise<Row[]> {
  const rows = await agentProductivityRows(db, f, period, limit);
  return rows.map((r) => ({
    agent: r.agent,
    answered: n(r.answered),
    closed: n(r.closed),
    avg_first_response: duration(r.afr),
    avg_session: duration(r.ast),
    messages: n(r.messages),
  }));
}

/** Conversations started, answered, closed and closed unanswered, per agent or per day (`key` is then the column's name). */
export async function conversationSummary(
  db: Db,
  f: ReportFilter,
  period: ReportPeriod,
  zone: string,
  by: 'agent' | 'day',
  limit: number,
): Promise<Row[]> {
  const rows: ConversationCountRow[] =
    by === 'agent' ? await conversationCountsByAgent(db, f, period, limit) : await conversationCountsByDay(db, f, period, zone, limit);
  return rows.map((r) => ({
    [by]: r.key,
    new_sessions: n(r.created),
    answered: n(r.answered),
    closed: n(r.closed),
    unanswered: n(r.unanswered),
    answer_rate: rate(n(r.answered), n(r.created)),
  }));
}

/** Conversations per hour or weekday, every one of them, empty ones too: a trend needs its zeros. */
export async function conversationTrends(
  db: Db,
  f: ReportFilter,
  period: ReportPeriod,
  zone: string,
  by: 'hour' | 'weekday',
): Promise<Row[]> {
  const rows = await conversationVolume(db, f, period, zone, by);
  const total = rows.reduce((sum, r) => sum + n(r.sessions), 0);
  const byHour = by === 'hour';
  const buckets = byHour ? Array.from({ length: 24 }, (_, h) => h) : [1, 2, 3, 4, 5, 6, 7];
  return buckets.map((b) => {
    const sessions = n(rows.find((r) => r.bucket === b)?.sessions);
    return { [by]: byHour ? `${String(b).padStart(2, '0')}:00` : WEEKDAYS[b - 1]!, sessions, share: rate(sessions, total) };
  });
}

export async function conversationMetrics(db: Db, f: ReportFilter, period: ReportPeriod, zone: string, limit: number): Promise<Row[]> {
  const rows = await conversationMetricsByDay(db, f, period, zone, limit);
  return rows.map((r) => ({
    day: r.day,
    sessions: n(r.sessions),
    avg_wait: duration(r.wait),
    max_wait: duration(r.maxWait),
    avg_first_response: duration(r.afr),
    avg_session: duration(r.ast),
  }));
}

export async function loginHistory(db: Db, f: ReportFilter, period: ReportPeriod, limit: number): Promise<Row[]> {
  const rows = await loginHistoryRows(db, f, period, limit);
  return rows.map((r) => ({ ...r, at: r.at.toISOString() }));
}

/** Closed conversations, newest first; `after` is the last row read (keyset paging). */
export async function chatHistory(
  db: Db,
  f: ReportFilter,
  period: ReportPeriod,
  contact: string | undefined,
  after: Row | null,
  limit: number,
): Promise<Row[]> {
  const key = after ? { closedAt: new Date(String(after.closed_at)), id: String(after.conversation_uuid) } : null;
  const rows = await chatHistoryRows(db, f, period, contact, key, limit);
  return rows.map((r) => ({
    ticket: r.ticket,
    contact: r.contact,
    phone: r.phone,
    agent: r.agent,
    sector: r.sector,
    channel: r.channel,
    started_at: r.createdAt.toISOString(),
    closed_at: r.closedAt.toISOString(),
    duration: formatHms((r.closedAt.getTime() - r.createdAt.getTime()) / 1000),
    ended_by: r.endedBy,
    reason: r.reason,
    conversation_uuid: r.id,
  }));
}

export async function botOutcomes(db: Db, f: ReportFilter, period: ReportPeriod, limit: number): Promise<Row[]> {
  const rows = await botOutcomeRows(db, f, period, limit);
  return rows.map((r) => ({
    menu: r.menu,
    answer: r.answer,
    outcome: r.type === 'closed' ? 'Ended' : 'Sent to the queue',
    conversations: n(r.conversations),
  }));
}

export async function surveysBySurvey(db: Db, f: SurveyReportFilter, period: ReportPeriod, limit: number): Promise<Row[]> {
  const rows = await surveyCountsBySurvey(db, f, period, limit);
  return rows.map((r) => ({
    survey: r.survey,
    question: r.question,
    sent: n(r.sent),
    answered: n(r.answered),
    waiting: n(r.waiting),
    no_answer: n(r.sent) - n(r.answered) - n(r.waiting),
    answer_rate: rate(n(r.answered), n(r.sent)),
    average_score: score(r.score),
    repeated: n(r.repeated),
  }));
}

export async function surveysByOption(db: Db, f: SurveyReportFilter, period: ReportPeriod, limit: number): Promise<Row[]> {
  const rows = await surveyCountsByOption(db, f, period, limit);
  return rows.map((r) => ({
    survey: r.survey,
    question: r.question,
    option: r.option,
    answers: n(r.answers),
    share: rate(n(r.answers), n(r.total)),
    repeated: n(r.repeated),
  }));
}

export async function surveysByAgent(db: Db, f: SurveyReportFilter, period: ReportPeriod, limit: number): Promise<Row[]> {
  const rows = await surveyCountsByAgent(db, f, period, limit);
  return rows.map((r) => ({
    agent: r.agent,
    survey: r.survey,
    sent: n(r.sent),
    answered: n(r.answered),
    answer_rate: rate(n(r.answered), n(r.sent)),
    average_score: score(r.score),
    repeated: n(r.repeated),
  }));
}

export async function surveysByDay(db: Db, f: SurveyReportFilter, period: ReportPeriod, zone: string, limit: number): Promise<Row[]> {
  const rows = await surveyCountsByDay(db, f, period, zone, limit);
  return rows.map((r) => ({
    day: r.day,
    sent: n(r.sent),
    answered: n(r.answered),
    answer_rate: rate(n(r.answered), n(r.sent)),
    average_score: score(r.score),
    repeated: n(r.repeated),
  }));
}

/** Survey answers one by one, newest first; `after` is the last row read (keyset paging). */
export async function surveyAnswers(db: Db, f: SurveyReportFilter, period: ReportPeriod, after: Row | null, limit: number): Promise<Row[]> {
  const key = after ? { answeredAt: new Date(String(after.answered_at)), conversationId: String(after.conversation_uuid) } : null;
  const rows = await surveyAnswerRows(db, f, period, key, limit);
  return rows.map((r) => ({
    answered_at: r.answeredAt.toISOString(),
    survey: r.survey,
    question: r.question,
    answer: r.answer,
    score: score(r.score),
    repeated: r.repeated ? 'Yes' : 'No',
    contact: r.contact,
    phone: r.phone,
    agent: r.agent,
    sector: r.sector,
    channel: r.channel,
    ticket: r.ticket,
    conversation_uuid: r.conversationId,
  }));
}
