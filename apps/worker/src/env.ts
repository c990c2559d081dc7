import { FILE_LINK_TTL_SECONDS } from '@atende/channels';
import { parseSettings, settingsSchema } from '@atende/channels/settings';
import { z } from 'zod';

// The only reader of process.env in the worker. Defaults work on a developer machine; the settings the
// api reads too (PORT and PUBLIC_URL, DATABASE_URL, secrets, storage...) come from the shared module.
const EnvSchema = settingsSchema({
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  /** Sessions that ended longer ago than this are deleted by the maintenance job. */
  SESSION_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  /** Campaign sends per second per channel number (provider limit; 0 = no limit), shared by every worker. */
  CAMPAIGN_RATE_PER_SECOND: z.coerce.number().min(0).max(10_000).default(80),
  /** Campaign sends in flight at once per running campaign (issue 13 item 4). */
  CAMPAIGN_SEND_CONCURRENCY: z.coerce.number().int().min(1).max(512).default(32),
  /** Campaign subscribers claimed, and their outcomes written, per statement (with a rate limit, at most one second's worth). */
  CAMPAIGN_BATCH_SIZE: z.coerce.number().int().min(1).max(5000).default(500),
  /** Provider webhooks processed at once (queue channel-inbound, separate from campaign sending). */
  INBOUND_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(8),
  /**
   * E-mail channels' inbound SMTP listener (issue 15 item 3): mail forwarded to a channel's forwarding
   * address arrives here. 0 (the default) runs no listener; the demo uses 4017.
   */
  EMAIL_INBOUND_SMTP_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** The address the listener binds to; 0.0.0.0 to take mail from other machines (an MX or a relay). */
  EMAIL_INBOUND_SMTP_HOST: z.string().default('127.0.0.1'),
  /** Bot steps run at once (queue bot-step; each may wait on an HTTP node's timeout). */
  BOT_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(8),
  /** How often the outbox dispatcher looks for new rows when no NOTIFY woke it. */
  OUTBOX_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(250),
  /** How long an annex link stays valid. */
  FILE_LINK_TTL_SECONDS: z.coerce.number().int().min(60).max(30 * 24 * 3600).default(FILE_LINK_TTL_SECONDS),
});
export type WorkerEnv = z.infer<typeof EnvSchema>;

export function loadEnv(source: Record<string, string | undefined> = process.env): WorkerEnv {
  return parseSettings(EnvSchema, source);
}
