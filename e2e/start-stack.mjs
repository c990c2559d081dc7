// Starts the built stack for the end-to-end tests (playwright.config.ts webServer): drops and
// recreates the database atende_e2e, runs the migrations and the demo seed, then runs the BUILT api
// (which serves apps/web/dist) and the built worker (it stores every contact message, the custom API
// channel's too). Stays in the foreground until killed; SIGTERM/SIGINT are passed on to the
// children. Assumes `pnpm build` already ran.
// On E2E_PORT + 3 it answers POST /api/restart, which kills the api (SIGKILL, as a crash) and starts
// it again, for the specs of what clients do when the api goes away (socket-recovery.spec.ts), and
// GET /api/mails: the mails the demo mail provider took (the SMTP catcher of password recovery).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { demoMetaEnv } from '../scripts/demo-meta-env.mjs';
import { API_NODE_FLAGS, NODE_FLAGS, processEnv } from '../scripts/node-flags.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const port = process.env.E2E_PORT ?? '3100';
const database = process.env.E2E_DATABASE ?? 'atende_e2e';
const server = process.env.E2E_POSTGRES ?? 'postgresql://postgres@127.0.0.1:5432';
const redisPrefix = process.env.E2E_REDIS_PREFIX ?? 'atende-e2e:';
const env = {
  ...process.env,
  DATABASE_URL: `${server}/${database}`,
  REDIS_PREFIX: redisPrefix,
  PORT: port,
  HOST: '127.0.0.1',
  // The api and the worker share one public address: the one the specs browse.
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  ALLOWED_ORIGINS: `http://127.0.0.1:${port},http://localhost:${port}`,
  TENANT_DOMAIN: `127.0.0.1:${port}`,
  // Bot HTTP nodes, the demo simulators and the specs' receivers listen on this machine.
  OUTBOUND_ALLOW_HOSTS: '127.0.0.1,localhost',
  // The demo contact system (agent replies of the demo API channel go there) listens next to the app.
  DEMO_WEBHOOK_PORT: process.env.DEMO_WEBHOOK_PORT ?? String(Number(port) + 1),
  // The demo WhatsApp provider (360dialog simulator) of the demo "WhatsApp" channel; specs steer it over HTTP.
  DEMO_WHATSAPP_PORT: process.env.DEMO_WHATSAPP_PORT ?? String(Number(port) + 2),
  DEMO_WHATSAPP_WEBHOOK_URL: `http://127.0.0.1:${port}/api/v1/channels/3600d1a1-0000-4000-8000-000000000360/webhook`,
  // The demo Telegram Bot API (simulator) of the demo "Telegram" channel; specs steer it over HTTP.
  DEMO_TELEGRAM_PORT: process.env.DEMO_TELEGRAM_PORT ?? String(Number(port) + 4),
  DEMO_WHATSAPP_SECOND_PORT: process.env.DEMO_WHATSAPP_SECOND_PORT ?? String(Number(port) + 10),
  // The demo SMS provider (Twilio simulator) of the demo "SMS" channel; specs steer it over HTTP.
  DEMO_SMS_PORT: process.env.DEMO_SMS_PORT ?? String(Number(port) + 5),
  DEMO_SMS_WEBHOOK_URL: `http://127.0.0.1:${port}/api/v1/channels/5e5e9a00-0000-4000-8000-000000004014/webhook`,
  // The demo Meta (Messenger simulator) of the demo "Messenger" channel; specs steer it over HTTP.
  DEMO_META_PORT: process.env.DEMO_META_PORT ?? String(Number(port) + 6),
  // The same demo Meta playing Instagram messaging (the Instagram story sets its webhook over HTTP).
  DEMO_INSTAGRAM_PORT: process.env.DEMO_INSTAGRAM_PORT ?? String(Number(port) + 9),
  // The demo mail provider (SMTP simulator) of the demo "E-mail" channel, and the worker's inbound
  // SMTP listener that forwarding addresses reach; specs mail the listener directly.
  DEMO_EMAIL_SMTP_PORT: process.env.DEMO_EMAIL_SMTP_PORT ?? String(Number(port) + 7),
  EMAIL_INBOUND_SMTP_PORT: process.env.EMAIL_INBOUND_SMTP_PORT ?? String(Number(port) + 8),
  // E-mail channels reading a mailbox by IMAP (email-imap.spec.ts): a new channel is picked up within a second.
  EMAIL_IMAP_POLL_MS: process.env.EMAIL_IMAP_POLL_MS ?? '1000',
};
// The channel setup screens (/messenger-setup, /instagram-setup) log in to those demo Metas.
Object.assign(env, demoMetaEnv(process.env, env.DEMO_META_PORT, env.DEMO_INSTAGRAM_PORT));
// The system's mail (password recovery codes) goes to the same demo mail provider,
// which writes every mail it takes to a file; specs read it at GET /api/mails on the control port.
env.SMTP_URL = `smtp://suporte%40demo.atende.test:demo-smtp-password@127.0.0.1:${env.DEMO_EMAIL_SMTP_PORT}`;
env.MAIL_FROM = 'Atende <no-reply@demo.atende.test>';
env.DEMO_EMAIL_OUTBOX_FILE = join(tmpdir(), `${database}-mails.jsonl`);
rmSync(env.DEMO_EMAIL_OUTBOX_FILE, { force: true });

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`e2e stack: ${command} ${args.join(' ')} failed (${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}

const api = `${root}apps/api/dist/server.js`;
const worker = `${root}apps/worker/dist/worker.js`;
if (!existsSync(api) || !existsSync(worker) || !existsSync(`${root}apps/web/dist/index.html`)) {
  console.error('e2e stack: apps/api/dist, apps/worker/dist or apps/web/dist is missing; run `pnpm build` first');
  process.exit(1);
}

// A fresh database each run, so every spec starts from the demo seed.
run('psql', [
  `${server}/postgres`,
  '-v',
  'ON_ERROR_STOP=1',
  '-q',
  '-c',
  `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`,
  '-c',
  `CREATE DATABASE "${database}"`,
]);
// Forget realtime and rate-limit state of earlier runs under this prefix.
run('sh', ['-c', `redis-cli -h 127.0.0.1 --scan --pattern '${redisPrefix}*' | xargs -r redis-cli -h 127.0.0.1 del > /dev/null`]);
run('pnpm', ['--filter', '@atende/db', 'migrate']);
run('pnpm', ['--filter', '@atende/simulators', 'seed']);

let stopping = false;
let killedOnPurpose = null;
const children = [];
function watch(child) {
  child.on('exit', (code, signal) => {
    if (!stopping && child !== killedOnPurpose) {
      console.error(`e2e stack: a process ended (${code ?? signal}); stopping`);
      stop(code || 1);
    }
  });
  return child;
}

let apiProcess = watch(spawn(process.execPath, [...API_NODE_FLAGS, api], { cwd: root, env: processEnv(env), stdio: 'inherit' }));
// The demo channel's contact system, on its own port per stack; specs steer it over HTTP.
children.push(
  watch(spawn('pnpm', ['exec', 'tsx', 'packages/simulators/src/custom/demo-receiver.ts'], { cwd: root, env, stdio: 'inherit' })),
);
children.push(
  watch(spawn('pnpm', ['exec', 'tsx', 'packages/simulators/src/whatsapp/demo-provider.ts'], { cwd: root, env, stdio: 'inherit' })),
);
children.push(
  watch(spawn('pnpm', ['exec', 'tsx', 'packages/simulators/src/telegram/demo-provider.ts'], { cwd: root, env, stdio: 'inherit' })),
);
children.push(watch(spawn('pnpm', ['exec', 'tsx', 'packages/simulators/src/sms/demo-provider.ts'], { cwd: root, env, stdio: 'inherit' })));
children.push(watch(spawn('pnpm', ['exec', 'tsx', 'packages/simulators/src/meta/demo-provider.ts'], { cwd: root, env, stdio: 'inherit' })));
children.push(
  watch(spawn('pnpm', ['exec', 'tsx', 'packages/simulators/src/email/demo-provider.ts'], { cwd: root, env, stdio: 'inherit' })),
);
children.push(watch(spawn(process.execPath, [...NODE_FLAGS, worker], { cwd: root, env: processEnv(env), stdio: 'inherit' })));

/** Kills the api without letting it close anything (no socket.io session is saved), starts it again and waits until it answers. */
async function restartApi() {
  const old = apiProcess;
  killedOnPurpose = old;
  if (old.exitCode === null && old.signalCode === null) {
    const gone = new Promise((done) => old.once('exit', done));
    old.kill('SIGKILL');
    await gone;
  }
  apiProcess = watch(spawn(process.execPath, [...API_NODE_FLAGS, api], { cwd: root, env: processEnv(env), stdio: 'inherit' }));
  for (const until = Date.now() + 60_000; Date.now() < until; await new Promise((r) => setTimeout(r, 200))) {
    const res = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null);
    if (res?.ok) return;
  }
  throw new Error('the api did not answer within 60 s');
}

const controlPort = Number(process.env.E2E_CONTROL_PORT ?? Number(port) + 3);
const control = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/api/mails') {
    const lines = existsSync(env.DEMO_EMAIL_OUTBOX_FILE)
      ? readFileSync(env.DEMO_EMAIL_OUTBOX_FILE, 'utf8').split('\n').filter(Boolean)
      : [];
    res.writeHead(200, { 'content-type': 'application/json' }).end(`[${lines.join(',')}]`);
    return;
  }
  if (req.method !== 'POST' || req.url !== '/api/restart') {
    res.writeHead(404).end();
    return;
  }
  restartApi().then(
    () => res.writeHead(204).end(),
    (error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)),
  );
});
// Only the restart specs need it: a busy port fails those, not the whole stack.
control.on('error', (error) => console.error(`e2e stack: no restart control on port ${controlPort} (${error.message})`));
control.listen(controlPort, '127.0.0.1');

function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  control.close();
  const all = [apiProcess, ...children];
  for (const child of all) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 5000).unref();
  Promise.all(all.map((child) => (child.exitCode === null ? new Promise((done) => child.once('exit', done)) : null))).then(() =>
    process.exit(code),
  );
}
process.on('SIGTERM', () => stop(0));
process.on('SIGINT', () => stop(0));
