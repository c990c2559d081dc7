// `pnpm test`: typecheck, lint, formatting, unit + integration tests (vitest, real Postgres and Redis), build, then
// end-to-end tests (Playwright in Debian's chromium against the started stack). Ends with one line
// "N passed, N failed" summing both runners.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { checkServices, pnpm, root, run } from './lib.mjs';

const results = `${root}test-results`;
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

await checkServices(
  process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
);

/**
 * A Debian package the tests need, installed when missing and the run may (root with apt-get): the
 * end-to-end tests' chromium, the IMAP tests' dovecot. Without it the run stops and says which.
 */
function ensureDebianPackage(binary, pkg, why) {
  if (existsSync(binary)) return;
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    console.log(`Installing Debian ${pkg} for ${why}...`);
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    const r = spawnSync('apt-get', ['install', '-y', '-qq', pkg], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (r.status === 0 && existsSync(binary)) return;
  }
  console.error(`\n${why} need Debian's ${pkg} (${binary}): apt-get install ${pkg}\n`);
  process.exit(1);
}
const ensureChromium = () => ensureDebianPackage('/usr/bin/chromium', 'chromium', 'The end-to-end tests');
// The e-mail mailbox tests (unit, integration and end-to-end) start a real IMAP server.
ensureDebianPackage('/usr/sbin/dovecot', 'dovecot-imapd', 'The IMAP mailbox tests');

const tally = { passed: 0, failed: 0, skipped: 0 };
let failedStep = null;
function step(name, fn) {
  if (failedStep) return;
  console.log(`\n=== ${name} ===`);
  try {
    fn();
  } catch (error) {
    failedStep = name;
    console.error(`\n${name} failed: ${error.message}`);
  }
}
function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

step('typecheck', () => pnpm(['typecheck']));
step('lint', () => pnpm(['lint']));
step('format (prettier --check)', () => pnpm(['format:check']));
step('unit and integration tests (vitest)', () =>
  pnpm(['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${results}/vitest.json`]),
);
const vitest = readJson(`${results}/vitest.json`);
if (vitest) {
  tally.passed += vitest.numPassedTests;
  tally.failed += vitest.numFailedTests;
  tally.skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
}
step('build', () => pnpm(['build']));
step('no simulator or demo code in the production bundles', () => run(process.execPath, ['scripts/check-bundles.mjs']));
step('end-to-end tests (playwright)', () => {
  ensureChromium();
  pnpm(['exec', 'playwright', 'test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'], {
    env: { PLAYWRIGHT_JSON_OUTPUT_FILE: `${results}/playwright.json` },
  });
});
const pw = readJson(`${results}/playwright.json`);
if (pw?.stats) {
  tally.passed += pw.stats.expected ?? 0;
  tally.failed += (pw.stats.unexpected ?? 0) + (pw.stats.flaky ?? 0);
  tally.skipped += pw.stats.skipped ?? 0;
}

if (failedStep && tally.failed === 0) tally.failed = 1; // a step that failed outside any test still fails the run
console.log(
  `\n${failedStep ? `failed at: ${failedStep}\n` : ''}${tally.passed} passed, ${tally.failed} failed${tally.skipped ? `, ${tally.skipped} skipped` : ''}`,
);
process.exit(failedStep ? 1 : 0);
