import { defineConfig } from '@playwright/test';
import { fileURLToPath } from 'node:url';

const PORT = Number(process.env.E2E_PORT ?? 3100);
const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * End-to-end tests in Debian's chromium against the built stack that start-stack.mjs starts on a
 * fresh database. Run `pnpm build` first. One worker, no retries: a test passes or it fails.
 */
export default defineConfig({
  testDir: './specs',
  // Per stack port, so runs on other ports (parallel work) never clear each other's artifacts.
  outputDir: PORT === 3100 ? './artifacts/results' : `./artifacts/results-${PORT}`,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // Generous: a loaded CI machine runs the stack and the browser on two cores.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    viewport: { width: 1366, height: 768 },
    locale: 'en-US',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: 'node e2e/start-stack.mjs',
    cwd: root,
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    env: { E2E_PORT: String(PORT) },
  },
});
