/** Today's bounds, as UTC ISO instants (day chat history). */
export function todayBounds(now = new Date()): { start: string; end: string } {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const end = new Date(start.getFullYear(), start.getMonth(), start.getDate() + 1, 0, 0, 0, -1);
  return { start: start.toISOString(), end: end.toISOString() };
}

export { formatHms as formatDuration } from '@atende/core';
