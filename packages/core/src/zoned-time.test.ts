import { describe, expect, it } from 'vitest';
import { ISO_INSTANT, zonedText } from './zoned-time';

describe('zonedText', () => {
  it('writes the wall-clock time of the zone, 24-hour, across midnight and daylight saving', () => {
    expect(zonedText('2026-11-25T02:30:05.000Z', 'America/Sao_Paulo')).toBe('2026-11-24 23:30:05');
    expect(zonedText('2026-11-25T02:30:05.000Z', 'UTC')).toBe('2026-11-25 02:30:05');
    // New York: EDT (UTC-4) in July, EST (UTC-5) in January.
    expect(zonedText('2026-07-01T12:00:00.000Z', 'America/New_York')).toBe('2026-07-01 08:00:00');
    expect(zonedText('2026-01-01T12:00:00.000Z', 'America/New_York')).toBe('2026-01-01 07:00:00');
    expect(zonedText('2026-11-25T23:59:59.999Z', 'Asia/Kolkata')).toBe('2026-11-26 05:29:59');
  });

  it('recognises only instants as the api writes them', () => {
    expect(ISO_INSTANT.test('2026-11-25T02:30:05.000Z')).toBe(true);
    expect(ISO_INSTANT.test('2026-11-25')).toBe(false);
    expect(ISO_INSTANT.test('00:01:30')).toBe(false);
    expect(ISO_INSTANT.test('2026-11-25T02:30:05+03:00')).toBe(false);
  });
});
