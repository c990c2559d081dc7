// `pnpm start`: migrate, seed the demo tenant, build, then run api (serving the web app) and worker.
// `pnpm dev`: the same with hot reload (api and worker restart on change, web rebuilds on change).
import { readFileSync } from 'node:fs';
import { API_NODE_FLAGS, NODE_FLAGS, processEnv } from './node-flags.mjs';
import { demoMetaEnv } from './demo-meta-env.mjs';
import { background, checkServices, pnpm, pnpmBackground, root, waitForHttp } from './lib.mjs';

const dev = process.argv.includes('--dev');
const env = {
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/atende',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  PORT: process.env.PORT ?? '3000',
};
// One public address for the api and the worker: webhook addresses, Twilio's
// signatures and status callbacks and the file links sent to channels are built on it.
env.PUBLIC_URL = (process.env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
// The demo SMS provider (Twilio simulator) signs the address it posts to, as Twilio does: PUBLIC_URL's.
env.DEMO_SMS_WEBHOOK_URL =
  process.env.DEMO_SMS_WEBHOOK_URL ?? `${env.PUBLIC_URL}/api/v1/channels/5e5e9a00-0000-4000-8000-000000004014/webhook`;
// The demo WhatsApp provider (360dialog simulator) posts its webhooks to the demo channel here.
env.DEMO_WHATSAPP_WEBHOOK_URL =
  process.env.DEMO_WHATSAPP_WEBHOOK_URL ?? `http://127.0.0.1:${env.PORT}/api/v1/channels/3600d1a1-0000-4000-8000-000000000360/webhook`;
// The demo simulators listen on this machine; production lists no private host.
env.OUTBOUND_ALLOW_HOSTS = process.env.OUTBOUND_ALLOW_HOSTS ?? '127.0.0.1,localhost';
// The worker's inbound SMTP listener: the demo "E-mail" channel's forwarding address arrives here.
env.EMAIL_INBOUND_SMTP_PORT = process.env.EMAIL_INBOUND_SMTP_PORT ?? '4017';
// The channel setup screens log in to the demo Meta (Messenger 4015, Instagram 4018).
Object.assign(env, demoMetaEnv(process.env, process.env.DEMO_META_PORT ?? '4015', process.env.DEMO_INSTAGRAM_PORT ?? '4018'));
// The system's mail (password recovery codes) goes to the demo mail provider, which
// prints each mail: the code appears in this console.
env.SMTP_URL =
  process.env.SMTP_URL ?? `smtp://suporte%40demo.atende.test:demo-smtp-password@127.0.0.1:${process.env.DEMO_EMAIL_SMTP_PORT ?? '4016'}`;
env.MAIL_FROM = process.env.MAIL_FROM ?? 'Atende <no-reply@demo.atende.test>';
const url = env.PUBLIC_URL;

await checkServices(env.DATABASE_URL, env.REDIS_URL);
function prepare(args) {
  try {
    pnpm(args, { env });
  } catch (error) {
    console.error(`\nCould not start Atende: ${error.message}`);
    process.exit(error.exitCode ?? 1);
  }
}
prepare(['--filter', '@atende/db', 'migrate']);
prepare(['--filter', '@atende/simulators', 'seed']);

const children = [];
if (dev) {
  prepare(['--filter', '@atende/web', 'build']);
  children.push(pnpmBackground('web', ['--filter', '@atende/web', 'exec', 'vite', 'build', '--watch'], env));
  children.push(pnpmBackground('api', ['--filter', '@atende/api', 'dev'], env));
  children.push(pnpmBackground('worker', ['--filter', '@atende/worker', 'dev'], env));
} else {
  prepare(['build']);
  children.push(background('api', process.execPath, [...API_NODE_FLAGS, 'apps/api/dist/server.js'], processEnv(env)));
  children.push(background('worker', process.execPath, [...NODE_FLAGS, 'apps/worker/dist/worker.js'], processEnv(env)));
}

// The demo's contact system: receives the demo channel's agent replies (signed webhooks). Not
// essential: if its port is taken, replies in the demo channel show as failed and Atende runs on.
const demoContact = pnpmBackground('demo-contact', ['exec', 'tsx', 'packages/simulators/src/custom/demo-receiver.ts'], env);
demoContact.once('exit', (code) => {
  if (!stopping && code)
    console.error(`\ndemo contact system stopped (${code}); agent replies in the demo API channel will fail delivery.`);
});

// The demo WhatsApp provider: the demo "WhatsApp" channel submits templates to it; it approves
// them on request (POST http://127.0.0.1:4011/_simulator/templates/status). Not essential either.
const demoProvider = pnpmBackground('demo-whatsapp', ['exec', 'tsx', 'packages/simulators/src/whatsapp/demo-provider.ts'], env);
demoProvider.once('exit', (code) => {
  if (!stopping && code) console.error(`\ndemo WhatsApp provider stopped (${code}); templates of the demo WhatsApp channel stay PENDING.`);
});

// The demo Telegram Bot API (simulator, port 4013) of the demo "Telegram" channel: play a Telegram
// contact with POST http://127.0.0.1:4013/_simulator/inbound (docs/channels.md). Not essential either.
const demoTelegram = pnpmBackground('demo-telegram', ['exec', 'tsx', 'packages/simulators/src/telegram/demo-provider.ts'], env);
demoTelegram.once('exit', (code) => {
  if (!stopping && code) console.error(`\ndemo Telegram Bot API stopped (${code}); the demo Telegram channel receives and sends nothing.`);
});

// The demo SMS provider (Twilio simulator, port 4014) of the demo "SMS" channel: play an SMS contact
// with POST http://127.0.0.1:4014/_simulator/inbound (docs/channels.md). Not essential either.
const demoSms = pnpmBackground('demo-sms', ['exec', 'tsx', 'packages/simulators/src/sms/demo-provider.ts'], env);
demoSms.once('exit', (code) => {
  if (!stopping && code) console.error(`\ndemo SMS provider stopped (${code}); the demo SMS channel receives and sends nothing.`);
});

// The demo Meta (Messenger simulator, port 4015) of the demo "Messenger" channel: play a Messenger
// contact with POST http://127.0.0.1:4015/_simulator/inbound (docs/channels.md). Not essential either.
const demoMeta = pnpmBackground('demo-meta', ['exec', 'tsx', 'packages/simulators/src/meta/demo-provider.ts'], env);
demoMeta.once('exit', (code) => {
  if (!stopping && code) console.error(`\ndemo Meta stopped (${code}); the demo Messenger channel receives and sends nothing.`);
});

// The demo mail provider (SMTP simulator, port 4016) of the demo "E-mail" channel: agents' replies are
// printed here; play an e-mail contact by mailing the forwarding address on port 4017 (docs/channels.md). Not essential either.
const demoEmail = pnpmBackground('demo-email', ['exec', 'tsx', 'packages/simulators/src/email/demo-provider.ts'], env);
demoEmail.once('exit', (code) => {
  if (!stopping && code) console.error(`\ndemo mail provider stopped (${code}); replies in the demo E-mail channel fail delivery.`);
});

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const c of [...children, demoContact, demoProvider, demoTelegram, demoSms, demoMeta, demoEmail])
    if (c.exitCode === null) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 2000).unref();
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null))).then(() => process.exit(code));
}
for (const c of children) {
  c.once('exit', (code, signal) => {
    if (!stopping) {
      console.error(`\n${c.name} stopped (${code ?? signal}); stopping everything.`);
      stop(code || 1);
    }
  });
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

await waitForHttp(`http://127.0.0.1:${env.PORT}/api/health`, 120_000);
const demo = JSON.parse(readFileSync(`${root}prisma/demo-users.json`, 'utf8'));
console.log(`
  Atende is running at ${url}   (API docs: ${url}/api/docs)
  Demo livechat widget: ${url}/livechat/517e0c4a-0000-4000-8000-00000000c4a7

  Demo logins (password ${demo.password}):
${Object.entries(demo.users)
  .map(([local, roles]) => `    ${`${local}@${demo.domain}`.padEnd(30)} ${roles.join(', ')}`)
  .join('\n')}

  Ctrl+C stops it.
`);
