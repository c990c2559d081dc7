// The demo's mail provider: the e-mail simulator that `pnpm start` and the e2e stack run as the SMTP
// server of the demo tenant's "E-mail" channel (packages/simulators/src/demo/demo-email.ts). Agents' replies
// arrive here and are printed; a contact writes to the forwarding address through the worker's
// inbound listener (docs/channels.md, E-mail).
import {
  DEMO_EMAIL_FORWARDING_ADDRESS,
  DEMO_EMAIL_FROM_ADDRESS,
  DEMO_EMAIL_INBOUND_PORT_DEFAULT,
  DEMO_EMAIL_PASSWORD_DEFAULT,
  DEMO_EMAIL_SMTP_PORT_DEFAULT,
} from './demo-defaults';
import { appendFileSync } from 'node:fs';
import { startEmailSimulator } from './simulator';

// A demo process, not the product: it reads its environment here (DEMO_* variables, the api's port),
// outside the settings of packages/config, which hold what the api and the worker read.
// The e2e stack reads the mails taken (password recovery codes) from this file, one JSON object a line.
const outbox = process.env.DEMO_EMAIL_OUTBOX_FILE;

const simulator = await startEmailSimulator({
  port: Number(process.env.DEMO_EMAIL_SMTP_PORT ?? DEMO_EMAIL_SMTP_PORT_DEFAULT),
  host: '127.0.0.1',
  username: DEMO_EMAIL_FROM_ADDRESS,
  password: process.env.DEMO_EMAIL_PASSWORD ?? DEMO_EMAIL_PASSWORD_DEFAULT,
  inbound: { host: '127.0.0.1', port: Number(process.env.EMAIL_INBOUND_SMTP_PORT ?? DEMO_EMAIL_INBOUND_PORT_DEFAULT) },
  onMail: (mail) => {
    console.warn(
      `demo mail provider: "${mail.subject ?? ''}" to ${mail.envelopeTo.join(', ')} (In-Reply-To ${mail.inReplyTo ?? 'none'}):\n${mail.text}`,
    );
    if (outbox)
      appendFileSync(outbox, `${JSON.stringify({ to: mail.envelopeTo, from: mail.from, subject: mail.subject, text: mail.text })}\n`);
  },
});
console.warn(
  `demo mail provider (SMTP simulator) listening at 127.0.0.1:${simulator.port}; contacts write to ${DEMO_EMAIL_FORWARDING_ADDRESS}`,
);
const stop = () => void simulator.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
