import { DEV_CHANNEL_SECRETS_KEY, DEV_FILE_LINK_SECRET, FILE_LINK_TTL_SECONDS, parseSecretsKey } from '@atende/channels';
import { refineStorageEnv, StorageEnvSchema } from '@atende/storage';
import { z } from 'zod';

// The only reader of process.env in the worker. Defaults work on a developer machine.
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z.string().url().default('postgresql://postgres@127.0.0.1:5432/atende'),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  REDIS_PREFIX: z.string().default('atende:'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  /** Sessions that ended longer ago than this are deleted by the maintenance job. */
  SESSION_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  /** 32 bytes, base64: decrypts Channel.credentialsEncrypted (same value as the api's). */
  CHANNEL_SECRETS_KEY: z
    .string()
    .default(DEV_CHANNEL_SECRETS_KEY)
    .refine((v) => {
      try {
        parseSecretsKey(v);
        return true;
      } catch {
        return false;
      }
    }, 'must be 32 bytes encoded in base64 (openssl rand -base64 32)'),
  /** Campaign sends per second per channel number (provider limit; 0 = no limit), shared by every worker. */
  CAMPAIGN_RATE_PER_SECOND: z.coerce.number().min(0).max(10_000).default(80),
  /** Campaign sends in flight at once per running campaign (issue 13 item 4). */
  CAMPAIGN_SEND_CONCURRENCY: z.coerce.number().int().min(1).max(512).default(32),
  /** Campaign subscribers claimed, and their outcomes written, per statement (with a rate limit, at most one second's worth). */
  CAMPAIGN_BATCH_SIZE: z.coerce.number().int().min(1).max(5000).default(500),
  /** Provider webhooks processed at once (queue channel-inbound, separate from campaign sending). */
  INBOUND_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(8),
  /**
   * Private addresses server-side requests to user-given URLs may reach (issue 12 item 1): comma-separated
   * host names, IPs and CIDRs. Empty: public addresses only (production); the demo sets 127.0.0.1,localhost.
   */
  OUTBOUND_ALLOW_HOSTS: z.string().default(''),
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
  /** The api's address as seen from outside, for links sent to channels (annex urls). */
  PUBLIC_URL: z.string().url().default('http://localhost:3000'),
  /** Signs the annex links given to channel receivers (same value as the api's). Required in production. */
  FILE_LINK_SECRET: z.string().min(32).default(DEV_FILE_LINK_SECRET),
  /** How long an annex link stays valid. */
  FILE_LINK_TTL_SECONDS: z.coerce.number().int().min(60).max(30 * 24 * 3600).default(FILE_LINK_TTL_SECONDS),
  /** Where media of contacts' messages is kept: the same storage settings as the api's. */
  ...StorageEnvSchema.shape,
}).superRefine(refineStorageEnv);
export type WorkerEnv = z.infer<typeof EnvSchema>;

export function loadEnv(source: Record<string, string | undefined> = process.env): WorkerEnv {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    throw new Error(`Invalid configuration:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  }
  if (parsed.data.NODE_ENV === 'production' && parsed.data.CHANNEL_SECRETS_KEY === DEV_CHANNEL_SECRETS_KEY) {
    throw new Error('Invalid configuration:\n  CHANNEL_SECRETS_KEY: must be set in production');
  }
  if (parsed.data.NODE_ENV === 'production' && parsed.data.FILE_LINK_SECRET === DEV_FILE_LINK_SECRET) {
    throw new Error('Invalid configuration:\n  FILE_LINK_SECRET: must be set in production');
  }
  return parsed.data;
}
