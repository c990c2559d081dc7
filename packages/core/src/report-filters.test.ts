import { REPORT_MESSAGES } from '@atende/contract';
import { describe, expect, it } from 'vitest';
import { reportFilterIssues } from './report-filters';

const today = '2026-11-23';
const messages = (start: string, end: string, text?: Record<string, string>) =>
  reportFilterIssues({ start, end, text }, today).map((i) => i.message);

describe('reportFilterIssues', () => {
  it('accepts a range of up to 31 days ending today', () => {
    expect(messages('2026-10-24', '2026-11-23')).toEqual([]);
  });
  it('wants both dates, none in the future, in order, under 31 days', () => {
    expect(messages('', '')).toEqual([REPORT_MESSAGES.startRequired, REPORT_MESSAGES.endRequired]);
    expect(messages('2026-11-24', '2026-11-25')).toEqual([REPORT_MESSAGES.startFuture, REPORT_MESSAGES.endFuture]);
    expect(messages('2026-11-20', '2026-11-19')).toEqual([REPORT_MESSAGES.order]);
    expect(messages('2026-10-23', '2026-11-23')).toEqual([REPORT_MESSAGES.range]);
    // An impossible day is no date at all (JavaScript would roll it over to March).
    expect(messages('2026-02-30', '2026-03-01')).toEqual([REPORT_MESSAGES.startRequired]);
  });
  it('wants text filters of 3 characters or none', () => {
    expect(messages('2026-11-20', '2026-11-21', { contact: 'ab' })).toEqual(['Filter contact should have at least 3 characters']);
    expect(messages('2026-11-20', '2026-11-21', { contact: '' })).toEqual([]);
  });
});
