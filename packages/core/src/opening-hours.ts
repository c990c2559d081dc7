import type { OpeningHours, Weekday } from '@atende/contract';

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The weekday and 'HH:MM' wall-clock time of an instant in a time zone. */
export function wallClock(at: Date, timeZone: string): { weekday: Weekday; time: string } {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { weekday: String(parts.weekday).toLowerCase() as Weekday, time: `${parts.hour}:${parts.minute}` };
}

/**
 * Whether an instant falls inside the opening hours: its weekday is listed and its
 * wall-clock time, in the hours' time zone, is within one of that day's ranges (start inclusive,
 * end exclusive).
 */
export function isWithinOpeningHours(hours: Pick<OpeningHours, 'timezone' | 'days'>, at: Date): boolean {
  const { weekday, time } = wallClock(at, hours.timezone);
  const day = hours.days.find((d) => d.weekday === weekday);
  return day?.ranges.some((r) => r.start <= time && time < r.end) ?? false;
}

/** What a workspace has until its opening hours are first saved: off, Monday to Friday 08:00-18:00. */
export const DEFAULT_OPENING_HOURS: OpeningHours = {
  enabled: false,
  timezone: 'America/Sao_Paulo',
  days: (['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const).map((weekday) => ({
    weekday,
    ranges: [{ start: '08:00', end: '18:00' }],
  })),
  out_of_hours_message: '',
};
