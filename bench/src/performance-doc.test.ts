import { describe, expect, it } from 'vitest';
import { END, figure, renderPerformance, replaceBetweenMarkers, START } from './performance-doc';
import type { Summary } from './summary';

const summary: Summary = {
  generated_at: '2026-11-27T03:07:20.817Z',
  scale: 'small',
  benches: [
    {
      name: 'message-send',
      status: 'ok',
      seconds: 4.8,
      load_average_before: 1.69,
      load_average_after: 1.64,
      settings: { BENCH_SENDS: '1000' },
      results: { 'message-send': { http_errors: 0, sends_per_s: 473.91, post_latency: { p50_ms: 31.15, p99_ms: 73.744, count: 1000 } } },
    },
    { name: 'idle', status: 'failed (exit 1)', seconds: 2, load_average_before: 1, load_average_after: 1, settings: {}, results: {} },
  ],
};

describe('the performance page writer', () => {
  it('writes one overview row per benchmark and one row per measured case, with units', () => {
    const text = renderPerformance(summary);
    expect(text).toContain('| `message-send` | BENCH_SENDS=1000 | ok | 4.8 s | 1.69 → 1.64 |');
    expect(text).toContain('| `idle` | defaults | failed (exit 1) | 2 s | 1 → 1 |');
    expect(text).toContain('| run | http errors 0, sends 473.91/s |');
    // Counts are not headline figures; numbers keep two decimals at most.
    expect(text).toContain('| post latency | p50 31.15 ms, p99 73.74 ms |');
    expect(text).toContain('#### `idle`\n\nNo results written.');
  });

  it('says figures as a reader does', () => {
    expect(figure('p50_ms', '6.7')).toBe('p50 6.7 ms');
    expect(figure('api_rss_peak_mb', '149')).toBe('api rss peak 149 MB');
    expect(figure('connect_seconds', '1.9')).toBe('connect 1.9 s');
    expect(figure('seconds', '0.51')).toBe('0.51 s');
    expect(figure('within_budget', 'true')).toBe('within budget true');
  });

  it('replaces only what lies between the markers, and refuses a page without them', () => {
    const page = `# Performance\n\nintro\n\n${START}\nold table\n${END}\n\nhand-kept table\n`;
    expect(replaceBetweenMarkers(page, 'new table\n')).toBe(`# Performance\n\nintro\n\n${START}\nnew table\n${END}\n\nhand-kept table\n`);
    expect(replaceBetweenMarkers('# Performance\n', 'new table')).toBeNull();
    expect(replaceBetweenMarkers(`${END}\n${START}\n`, 'new table')).toBeNull();
  });
});
