import { useSyncExternalStore } from 'react';

/** A date as YYYY-MM-DD in the browser's zone (what date inputs and the report filters hold). */
export const localDay = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** The local day `days` days before `day` (YYYY-MM-DD), counted in calendar days. */
export function daysBefore(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return localDay(new Date(y, m - 1, d - days));
}

// Today is re-read every minute, so a screen left open past midnight moves on with the clock.
const TODAY_CHECK_MS = 60_000;
const subscribe = (changed: () => void) => {
  const timer = setInterval(changed, TODAY_CHECK_MS);
  return () => clearInterval(timer);
};
const today = () => localDay(new Date());

/**
 * Today in the browser's zone (YYYY-MM-DD), read from the clock as an outside value rather than
 * during render, so the component stays pure; it re-renders when the day changes.
 */
export function useToday(): string {
  return useSyncExternalStore(subscribe, today);
}
