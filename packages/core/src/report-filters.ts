import { fieldMessage, MIN_FILTER_LENGTH, REPORT_MAX_DAYS, REPORT_MESSAGES } from '@atende/contract';
import type { FieldIssue } from './text-rules';

const DAY_MS = 86_400_000;
/** Midnight UTC of a YYYY-MM-DD day, NaN for anything else, an impossible day (2026-02-30) included. */
const asDay = (s: string) => {
  const at = /^\d{4}-\d{2}-\d{2}$/.test(s) ? Date.parse(`${s}T00:00:00Z`) : Number.NaN;
  return Number.isNaN(at) || new Date(at).toISOString().slice(0, 10) !== s ? Number.NaN : at;
};

/**
 * The rules for a report's filters, as the screens check them before asking (the api checks
 * the same): both dates, none in the future, the end not before the start, under 31 days, text
 * filters of at least 3 characters. `today` is the viewer's date, YYYY-MM-DD.
 */
export function reportFilterIssues(filters: { start: string; end: string; text?: Record<string, string> }, today: string): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const start = asDay(filters.start);
  const end = asDay(filters.end);
  const now = asDay(today);
  if (Number.isNaN(start)) issues.push({ path: 'start', message: REPORT_MESSAGES.startRequired });
  else if (start > now) issues.push({ path: 'start', message: REPORT_MESSAGES.startFuture });
  if (Number.isNaN(end)) issues.push({ path: 'end', message: REPORT_MESSAGES.endRequired });
  else if (end > now) issues.push({ path: 'end', message: REPORT_MESSAGES.endFuture });
  else if (!Number.isNaN(start) && end < start) issues.push({ path: 'end', message: REPORT_MESSAGES.order });
  else if (!Number.isNaN(start) && (end - start) / DAY_MS >= REPORT_MAX_DAYS) issues.push({ path: 'end', message: REPORT_MESSAGES.range });
  for (const [path, value] of Object.entries(filters.text ?? {})) {
    if (value && value.trim().length < MIN_FILTER_LENGTH)
      issues.push({ path, message: fieldMessage('report_filter_too_short', { filter: path, min: MIN_FILTER_LENGTH }) });
  }
  return issues;
}
