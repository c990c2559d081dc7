import { describe, expect, it } from 'vitest';
import { formatDuration, todayBounds } from './dayHistory';

// The day chat history asks for today's bounds as UTC ISO instants.
describe('todayBounds', () => {
  it('spans the local day, from midnight to the last millisecond', () => {
    const { start, end } = todayBounds(new Date(2026, 10, 22, 15, 30));
    expect(new Date(start).getTime()).toBe(new Date(2026, 10, 22).getTime());
    expect(new Date(end).getTime()).toBe(new Date(2026, 10, 23).getTime() - 1);
    expect(start).toMatch(/Z$/);
  });
});

describe('formatDuration', () => {
  it('shows hh:mm:ss', () => {
    expect(formatDuration(0)).toBe('00:00:00');
    expect(formatDuration(3725)).toBe('01:02:05');
  });
});
