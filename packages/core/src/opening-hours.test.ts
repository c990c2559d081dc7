import { OpeningHoursInputSchema } from '@atende/contract';
import { describe, expect, it } from 'vitest';
import { isWithinOpeningHours, wallClock } from './opening-hours';

const hours = {
  timezone: 'America/Sao_Paulo',
  days: [
    {
      weekday: 'monday' as const,
      ranges: [
        { start: '08:00', end: '12:00' },
        { start: '13:00', end: '18:00' },
      ],
    },
    { weekday: 'saturday' as const, ranges: [{ start: '09:00', end: '24:00' }] },
  ],
};

describe('opening hours', () => {
  it('reads the wall clock in the time zone of the hours', () => {
    // 2026-11-23 is a Monday; 11:30 UTC is 08:30 in São Paulo (UTC-3).
    expect(wallClock(new Date('2026-11-23T11:30:00Z'), 'America/Sao_Paulo')).toEqual({ weekday: 'monday', time: '08:30' });
    expect(wallClock(new Date('2026-11-23T02:00:00Z'), 'America/Sao_Paulo')).toEqual({ weekday: 'sunday', time: '23:00' });
  });

  it('is open inside a range, start inclusive and end exclusive', () => {
    expect(isWithinOpeningHours(hours, new Date('2026-11-23T11:00:00Z'))).toBe(true); // Mon 08:00
    expect(isWithinOpeningHours(hours, new Date('2026-11-23T14:59:00Z'))).toBe(true); // Mon 11:59
    expect(isWithinOpeningHours(hours, new Date('2026-11-23T15:00:00Z'))).toBe(false); // Mon 12:00, lunch
    expect(isWithinOpeningHours(hours, new Date('2026-11-23T21:00:00Z'))).toBe(false); // Mon 18:00
    expect(isWithinOpeningHours(hours, new Date('2026-11-29T02:30:00Z'))).toBe(true); // Sat 23:30, until 24:00
  });

  it('is closed on a weekday that is not listed', () => {
    expect(isWithinOpeningHours(hours, new Date('2026-11-24T14:00:00Z'))).toBe(false); // Tuesday
  });

  it('validates with the spec messages: at least one weekday, message required', () => {
    const base = { enabled: true, timezone: 'America/Sao_Paulo', days: hours.days, out_of_hours_message: 'Closed' };
    const issues = (value: unknown) => OpeningHoursInputSchema.safeParse(value).error?.issues.map((i) => i.message) ?? [];
    expect(issues(base)).toEqual([]);
    expect(issues({ ...base, days: [] })).toEqual(['Select at least one weekday']);
    expect(issues({ ...base, out_of_hours_message: '  ' })).toEqual(['Message is required']);
    expect(issues({ ...base, timezone: 'Mars/Olympus' })).toEqual(['Invalid time zone']);
    expect(issues({ ...base, days: [{ weekday: 'monday', ranges: [{ start: '10:00', end: '09:00' }] }] })).toEqual([
      'The end must be after the start',
    ]);
    expect(
      issues({
        ...base,
        days: [
          {
            weekday: 'monday',
            ranges: [
              { start: '08:00', end: '12:00' },
              { start: '11:00', end: '13:00' },
            ],
          },
        ],
      }),
    ).toEqual(['Time ranges must not overlap']);
    expect(issues({ ...base, days: [{ weekday: 'monday', ranges: [{ start: '8:00', end: '12:00' }] }] })).toEqual(['Use the format HH:MM']);
  });
});
