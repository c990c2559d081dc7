/// <reference lib="dom" />
// The agent workstation in headless chromium: (1) initial load of /app for a
// signed-in agent: bytes transferred (JS and all) and time until the conversation list and the
// Accept session button are on screen, cold (empty cache) and warm; (2) a contact's message through
// the custom API channel (queued by the api, stored by the worker) until its text is rendered in the
// agent's open chat. Uses the e2e stack
// (e2e/start-stack.mjs: fresh database from the demo seed, built api serving apps/web/dist, worker).
// Run `pnpm build` first.
import { chromium, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { ROOT, report, summarize } from './stack';

const PORT = Number(process.env.BENCH_WEB_PORT ?? 3450);
const BASE = `http://127.0.0.1:${PORT}`;
const LOADS = Number(process.env.BENCH_LOADS ?? 10);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100);
const PACE_MS = Number(process.env.BENCH_PACE_MS ?? 100);
/**
 * Budgets, compressed JavaScript fetched before the page is usable (KB): the bench
 * prints them and exits non-zero when a route is over (CI does not run benches).
 */
const BUDGET_KB = { app: Number(process.env.BENCH_BUDGET_APP_KB ?? 300), login: Number(process.env.BENCH_BUDGET_LOGIN_KB ?? 150) };
/** The cold /app load recorded before the web app was split (1,194 KB of uncompressed JS, one bundle). */
const RECORDED_COLD_P50_MS = 973;
const RECORDED_COLD_JS_KB = 1194;

/**
 * BENCH_BASELINE_DIST: a web build to compare with in this same run (e.g. an older one,
 * built from an older commit with `vite build --outDir`); a second stack serves it and the cold loads
 * alternate between the two, so both see the same machine load.
 */
const BASELINE_DIST = process.env.BENCH_BASELINE_DIST;
/**
 * The agent's link for the cold and login loads, "Mbit/s,round-trip ms" (chromium's network
 * emulation); "none" measures loopback, where bytes cost nothing. Default: a modest office link.
 */
const LINK = (process.env.BENCH_LINK ?? '20,40').trim();
const link = LINK === 'none' ? null : { mbps: Number(LINK.split(',')[0]), rttMs: Number(LINK.split(',')[1] ?? 0) };

function startStack(port: number, name: string, webDist?: string) {
  const child = spawn('node', ['e2e/start-stack.mjs'], {
    cwd: ROOT,
    env: {
      ...process.env,
      E2E_PORT: String(port),
      E2E_DATABASE: `atende_bench_${name}`,
      E2E_REDIS_PREFIX: `atende-bench-${name}:`,
      LOG_LEVEL: 'error',
      ...(webDist ? { WEB_DIST: webDist } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = () =>
    new Promise<void>((done) => (child.exitCode !== null ? done() : (child.once('exit', () => done()), child.kill('SIGTERM'))));
  return { base: `http://127.0.0.1:${port}`, stop };
}
async function waitHealthy(base: string) {
  for (let i = 0; ; i++) {
    if (i > 240) throw new Error(`the stack at ${base} did not start`);
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 500));
  }
}
const stacks = [startStack(PORT, 'web')];
if (BASELINE_DIST) stacks.push(startStack(PORT + 10, 'web_baseline', BASELINE_DIST));
const stopStack = async () => {
  await Promise.all(stacks.map((s) => s.stop()));
};
for (const s of stacks) await waitHealthy(s.base);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  // A session cookie for the agent, reused by every load.
  async function signIn(base: string) {
    const login = await browser.newContext();
    const loginPage = await login.newPage();
    await loginPage.goto(`${base}/login`);
    await loginPage.getByLabel('Email').fill('agent@demo.atende.dev');
    await loginPage.getByLabel('Password', { exact: true }).fill('atende123');
    await loginPage.getByRole('button', { name: 'Sign in' }).click();
    await loginPage.waitForURL(/\/app/);
    const state = await login.storageState();
    await login.close();
    return state;
  }
  const storageState = await signIn(BASE);
  const baselineState = BASELINE_DIST ? await signIn(stacks[1]!.base) : null;

  type Load = { ms: number; jsBytes: number; totalBytes: number };
  /** Opens `url` and waits for `usable`; time, and bytes from CDP (as sent, compressed), over the emulated link unless told not to. */
  async function measure(page: Page, url: string, usable: () => Promise<void>, emulateLink: boolean): Promise<Load> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    if (link && emulateLink) {
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: link.rttMs,
        downloadThroughput: (link.mbps * 1e6) / 8,
        uploadThroughput: (link.mbps * 1e6) / 8,
      });
    }
    const types = new Map<string, string>();
    let jsBytes = 0;
    let totalBytes = 0;
    cdp.on('Network.responseReceived', (e) => types.set(e.requestId, e.type));
    cdp.on('Network.loadingFinished', (e) => {
      totalBytes += e.encodedDataLength;
      if (types.get(e.requestId) === 'Script') jsBytes += e.encodedDataLength;
    });
    const start = Date.now();
    await page.goto(url);
    await usable();
    const ms = Date.now() - start;
    await cdp.detach();
    return { ms, jsBytes, totalBytes };
  }
  /** /app until the workstation is usable: the conversation list and the Accept session button. */
  const load = (page: Page, base = BASE, emulateLink = true) =>
    measure(
      page,
      `${base}/app`,
      async () => {
        await page.getByRole('listbox', { name: 'Conversations' }).waitFor();
        await page.getByRole('button', { name: 'Accept session' }).waitFor();
      },
      emulateLink,
    );
  /** The login page, signed out, until its form is usable. */
  const loadLogin = (page: Page) => measure(page, `${BASE}/login`, () => page.getByRole('button', { name: 'Sign in' }).waitFor(), true);
  const loginLoads: { ms: number; jsBytes: number; totalBytes: number }[] = [];
  for (let i = 0; i < LOADS; i++) {
    const context = await browser.newContext();
    loginLoads.push(await loadLogin(await context.newPage()));
    await context.close();
  }

  const cold: { ms: number; jsBytes: number; totalBytes: number }[] = [];
  const baselineCold: { ms: number; jsBytes: number; totalBytes: number }[] = [];
  for (let i = 0; i < LOADS; i++) {
    if (baselineState) {
      const context = await browser.newContext({ storageState: baselineState });
      baselineCold.push(await load(await context.newPage(), stacks[1]!.base));
      await context.close();
    }
    const context = await browser.newContext({ storageState });
    cold.push(await load(await context.newPage()));
    await context.close();
  }
  const warmContext = await browser.newContext({ storageState });
  const warmPage = await warmContext.newPage();
  await load(warmPage, BASE, false);
  const warm: { ms: number; jsBytes: number; totalBytes: number }[] = [];
  for (let i = 0; i < LOADS; i++) warm.push(await load(warmPage, BASE, false));

  // (2) contact message -> rendered in the agent's open chat.
  const page = warmPage;
  await page.getByRole('button', { name: 'Accept session' }).click();
  await page.getByTestId('chat-contact-name').waitFor();
  const offered = (await (await page.request.get(`${BASE}/api/v1/conversations/offered/me`)).json()) as {
    data: { channel: { uuid: string }; contact: { phone_number: string } }[];
  };
  const conversation = offered.data[0]!;
  // A MutationObserver stamps when each text appears, so polling latency is not measured.
  await page.evaluate(() => {
    const seen = new Map<string, number>();
    (window as unknown as { __seen: Map<string, number> }).__seen = seen;
    new MutationObserver(() => {
      for (const el of Array.from(document.querySelectorAll('[data-bindable-text="true"]'))) {
        const text = el.textContent ?? '';
        if (text.startsWith('bench-') && !seen.has(text)) seen.set(text, performance.timeOrigin + performance.now());
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  const sentAt = new Map<string, number>();
  for (let i = 0; i < MESSAGES; i++) {
    const text = `bench-${i}-${Date.now()}`;
    sentAt.set(text, Date.now());
    const res = await fetch(`${BASE}/api/v1/channels/droz/${conversation.channel.uuid}/messages`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-api-channel-token', 'content-type': 'application/json' },
      body: JSON.stringify({ contact: { phone: conversation.contact.phone_number }, message: { id: text, content: text } }),
    });
    if (res.status !== 202) throw new Error(`inbound answered ${res.status}`);
    await new Promise((r) => setTimeout(r, PACE_MS));
  }
  await page.waitForFunction((n) => (window as unknown as { __seen: Map<string, number> }).__seen.size >= n, MESSAGES, { timeout: 30_000 });
  const seen = new Map(await page.evaluate(() => [...(window as unknown as { __seen: Map<string, number> }).__seen.entries()]));
  const render = [...sentAt].map(([text, at]) => seen.get(text)! - at);

  const kb = (n: number) => Math.round(n / 1024);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const coldSummary = summarize(cold.map((c) => c.ms));
  const budgets = {
    app: { js_kb: kb(median(cold.map((c) => c.jsBytes))), budget_kb: BUDGET_KB.app },
    login: { js_kb: kb(median(loginLoads.map((c) => c.jsBytes))), budget_kb: BUDGET_KB.login },
  };
  const over = Object.entries(budgets)
    .filter(([, b]) => b.js_kb > b.budget_kb)
    .map(([route]) => route);
  report('workstation-web', {
    link: link ? { mbps: link.mbps, rtt_ms: link.rttMs, applies_to: 'cold and login loads' } : 'loopback',
    budgets: Object.fromEntries(Object.entries(budgets).map(([route, b]) => [route, { ...b, within: b.js_kb <= b.budget_kb }])),
    initial_load_cold: {
      ...coldSummary,
      js_kb: kb(median(cold.map((c) => c.jsBytes))),
      total_kb: kb(median(cold.map((c) => c.totalBytes))),
      // Against the baseline build loaded in this run when one is given, else the figure recorded before the split.
      ...(baselineCold.length
        ? {
            baseline: {
              ...summarize(baselineCold.map((c) => c.ms)),
              js_kb: kb(median(baselineCold.map((c) => c.jsBytes))),
              dist: BASELINE_DIST,
            },
            speedup_vs_baseline: Math.round((summarize(baselineCold.map((c) => c.ms)).p50_ms / coldSummary.p50_ms) * 100) / 100,
          }
        : {}),
      speedup_vs_recorded: Math.round((RECORDED_COLD_P50_MS / coldSummary.p50_ms) * 100) / 100,
      recorded_before: { p50_ms: RECORDED_COLD_P50_MS, js_kb: RECORDED_COLD_JS_KB },
    },
    login_cold: {
      ...summarize(loginLoads.map((c) => c.ms)),
      js_kb: kb(median(loginLoads.map((c) => c.jsBytes))),
      total_kb: kb(median(loginLoads.map((c) => c.totalBytes))),
    },
    initial_load_warm: {
      ...summarize(warm.map((c) => c.ms)),
      js_kb: kb(median(warm.map((c) => c.jsBytes))),
      total_kb: kb(median(warm.map((c) => c.totalBytes))),
    },
    contact_message_to_render: { ...summarize(render), messages: MESSAGES, pace_ms: PACE_MS },
  });
  if (over.length > 0) {
    process.stderr.write(
      `workstation-web: over the JavaScript budget: ${over.map((r) => `${r} ${budgets[r as keyof typeof budgets].js_kb} KB > ${budgets[r as keyof typeof budgets].budget_kb} KB`).join(', ')}\n`,
    );
    process.exitCode = 1;
  }
} finally {
  await browser.close();
  await stopStack();
}
