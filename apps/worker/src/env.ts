import { FILE_LINK_TTL_SECONDS } from '@atende/channels';
import { parseSettings, settingsGroup, settingsSchema } from '@atende/config';
import { z } from 'zod';

// The only reader of process.env in the worker. Defaults work on a developer machine; the settings the
// api reads too (PORT and PUBLIC_URL, DATABASE_URL, secrets, storage...) come from @atende/config.
// Every variable is described for .env.example (`pnpm config:example` writes it).
export const WORKER_SETTINGS = settingsGroup({
  WORKER_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(256)
    .default(8)
    .describe('Outgoing channel messages (queue channel-delivery) delivered at once.'),
  SESSION_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .default(30)
    .describe('Sessions that ended longer ago than this are deleted by the maintenance job (days).'),
  CAMPAIGN_RATE_PER_SECOND: z.coerce
    .number()
    .min(0)
    .max(10_000)
    .default(80)
    .describe('Campaign sends per second per channel number (provider limit; 0 = no limit), shared by every worker.'),
  CAMPAIGN_SEND_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(512)
    .default(32)
    .describe('Campaign sends in flight at once per running campaign.'),
  CAMPAIGN_BATCH_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(5000)
    .default(500)
    .describe("Campaign subscribers claimed, and their outcomes written, per statement (with a rate limit, at most one second's worth)."),
  INBOUND_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(200)
    .default(8)
    .describe('Provider webhooks processed at once (queue channel-inbound, apart from campaign sending).'),
  EMAIL_INBOUND_SMTP_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .default(0)
    .describe(
      "Port of the e-mail channels' inbound SMTP listener (mail forwarded to a channel's address). 0: no listener; the demo uses 4017.",
    ),
  EMAIL_INBOUND_SMTP_HOST: z
    .string()
    .default('127.0.0.1')
    .describe('The address the inbound SMTP listener binds to; 0.0.0.0 to take mail from other machines (an MX or a relay).'),
  EMAIL_IMAP_POLL_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(3_600_000)
    .default(60_000)
    .describe(
      "How often the worker looks for new mail in e-mail channels' IMAP mailboxes without IDLE, and for channels created, changed or removed (milliseconds).",
    ),
  BOT_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(200)
    .default(8)
    .describe("Bot steps run at once (queue bot-step; each may wait on an HTTP node's timeout)."),
  OUTBOX_POLL_MS: z.coerce
    .number()
    .int()
    .min(10)
    .max(60_000)
    .default(250)
    .describe('How often the outbox dispatcher looks for new rows when no NOTIFY woke it (milliseconds).'),
  FILE_LINK_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 24 * 3600)
    .default(FILE_LINK_TTL_SECONDS)
    .describe('How long a signed file link sent to a channel stays valid (seconds).'),
});

const EnvSchema = settingsSchema(WORKER_SETTINGS);
export type WorkerEnv = z.infer<typeof EnvSchema>;

export function loadEnv(source: Record<string, string | undefined> = process.env): WorkerEnv {
  return parseSettings(EnvSchema, source);
}
