// Preloaded into the api by bench/src/stack.ts (`node --import`): watches the api's own event loop,
// GC and HTTP request durations (request received to response finished) from inside. On SIGUSR2 it writes what it saw since the previous signal to
// BENCH_PROBE_FILE and starts over, so a bench can bracket exactly its measured phase.
import { subscribe } from 'node:diagnostics_channel';
import { Session } from 'node:inspector';
import { renameSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

const file = process.env.BENCH_PROBE_FILE;
if (file) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let gc = { count: 0, total_ms: 0, max_ms: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count++;
      gc.total_ms += entry.duration;
      gc.max_ms = Math.max(gc.max_ms, entry.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  const started = new WeakMap();
  let requests = [];
  subscribe('http.server.request.start', ({ request }) => started.set(request, performance.now()));
  subscribe('http.server.response.finish', ({ request }) => {
    const t0 = started.get(request);
    if (t0 !== undefined) requests.push(performance.now() - t0);
  });
  const percentile = (sorted, p) =>
    sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] * 100) / 100 : 0;
  // BENCH_PROBE_CPU_PROFILE=<dir>: a CPU profile of each span between two probes (the bench's
  // measured phase alone), written as <dir>/probe-<n>.cpuprofile.
  const profileDir = process.env.BENCH_PROBE_CPU_PROFILE;
  const inspector = profileDir ? new Session() : null;
  let profiles = 0;
  const post = (method) =>
    new Promise((resolve, reject) => inspector.post(method, (error, result) => (error ? reject(error) : resolve(result))));
  if (inspector) {
    inspector.connect();
    await post('Profiler.enable');
    await post('Profiler.start');
  }
  let since = performance.now();
  let cpuBefore = process.cpuUsage();
  // The histogram holds whole intervals between 10 ms samples; the figures are the delay beyond that.
  const ms = (ns) => Math.max(0, Math.round((ns - 10e6) / 1e4) / 100);
  process.on('SIGUSR2', async () => {
    if (inspector) {
      const { profile } = await post('Profiler.stop');
      writeFileSync(`${profileDir}/probe-${++profiles}.cpuprofile`, JSON.stringify(profile));
      await post('Profiler.start');
    }
    const memory = process.memoryUsage();
    const sorted = requests.sort((a, b) => a - b);
    const snapshot = {
      seconds: Math.round(performance.now() - since) / 1000,
      event_loop_delay: { p50_ms: ms(delay.percentile(50)), p99_ms: ms(delay.percentile(99)), max_ms: ms(delay.max) },
      gc: { count: gc.count, total_ms: Math.round(gc.total_ms * 10) / 10, max_ms: Math.round(gc.max_ms * 10) / 10 },
      http_requests: {
        count: sorted.length,
        p50_ms: percentile(sorted, 50),
        p99_ms: percentile(sorted, 99),
        max_ms: percentile(sorted, 100),
      },
      cpu_ms: Math.round((process.cpuUsage(cpuBefore).user + process.cpuUsage(cpuBefore).system) / 1000),
      rss_mb: Math.round(memory.rss / 1048576),
      heap_used_mb: Math.round(memory.heapUsed / 1048576),
      external_mb: Math.round(memory.external / 1048576),
      array_buffers_mb: Math.round(memory.arrayBuffers / 1048576),
    };
    // Written aside and renamed, so the bench never reads half a file.
    writeFileSync(`${file}.tmp`, JSON.stringify(snapshot));
    renameSync(`${file}.tmp`, file);
    delay.reset();
    gc = { count: 0, total_ms: 0, max_ms: 0 };
    requests = [];
    since = performance.now();
    cpuBefore = process.cpuUsage();
  });
}
