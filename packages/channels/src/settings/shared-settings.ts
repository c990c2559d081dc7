import { refineStorageEnv, StorageEnvSchema } from '@atende/storage';
import { z } from 'zod';
import { DEV_FILE_LINK_SECRET } from '../file-link';
import { DEV_CHANNEL_SECRETS_KEY, parseSecretsKey } from '../secrets';

/** An empty variable (`VAR=` or compose's `${VAR:-}`) counts as unset, so its default applies. */
export const unsetWhenEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema);

/**
 * The settings the api and the worker both read, each with one default (issue 29 item 5). Each app's
 * env.ts (its only reader of process.env) extends this with its own settings: a setting both read
 * lives here, so the two processes cannot disagree on a default (the worker once sent Twilio status
 * callbacks and Meta attachment links to http://localhost:3000 while the api served another port).
 */
export const SHARED_SETTINGS = {
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** The port the api serves; the worker reads it too, for the default PUBLIC_URL. */
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /**
   * The api's address as providers and browsers reach it, e.g. https://atende.example.com: channel
   * webhook addresses, Twilio's signatures and status callbacks, and the signed file links sent to
   * channels are built on it. Required in production; elsewhere http://localhost:<PORT>.
   */
  PUBLIC_URL: unsetWhenEmpty(z.url({ protocol: /^https?$/, error: 'must be an http(s) address such as https://atende.example.com' }).optional()),
  DATABASE_URL: z.string().url().default('postgresql://postgres@127.0.0.1:5432/atende'),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  /** Prefix of every Redis key, so test runs on one Redis never meet. */
  REDIS_PREFIX: z.string().default('atende:'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Encrypts channel credentials at rest (32 bytes, base64). Required in production. */
  CHANNEL_SECRETS_KEY: z
    .string()
    .default(DEV_CHANNEL_SECRETS_KEY)
    .refine((v) => {
      try {
        return parseSecretsKey(v).length === 32;
      } catch {
        return false;
      }
    }, 'must be 32 bytes encoded in base64 (openssl rand -base64 32)'),
  /** Signs the time-limited file links given to channel receivers. Required in production. */
  FILE_LINK_SECRET: z.string().min(32).default(DEV_FILE_LINK_SECRET),
  /**
   * Private addresses server-side requests to user-given URLs may reach (issue 12 item 1): comma-separated
   * host names, IPs and CIDRs. Empty: public addresses only (production); the demo sets 127.0.0.1,localhost.
   */
  OUTBOUND_ALLOW_HOSTS: z.string().default(''),
  /**
   * The mail domain routed to the worker's inbound SMTP listener (EMAIL_INBOUND_SMTP_PORT, issue 15
   * item 3): an e-mail channel's forwarding address is `<channel>.<token>@` this domain.
   */
  EMAIL_INBOUND_DOMAIN: z.string().trim().min(1).max(253).default('localhost'),
  /** Where files are kept (uploads, media of contacts' messages). */
  ...StorageEnvSchema.shape,
};

type SharedInput = z.infer<z.ZodObject<typeof SHARED_SETTINGS>>;

/** The address used when PUBLIC_URL is unset (development, tests): the api's own port on this machine. */
export const defaultPublicUrl = (port: number): string => `http://localhost:${port}`;

/** Rules over several shared settings: production refuses the development secrets and a missing PUBLIC_URL. */
function refineShared(env: SharedInput, ctx: z.RefinementCtx): void {
  refineStorageEnv(env, ctx);
  if (env.NODE_ENV !== 'production') return;
  if (!env.PUBLIC_URL) {
    ctx.addIssue({ code: 'custom', path: ['PUBLIC_URL'], message: 'must be set in production: the https address providers and browsers reach the api at (e.g. https://atende.example.com)' });
  }
  if (env.CHANNEL_SECRETS_KEY === DEV_CHANNEL_SECRETS_KEY) ctx.addIssue({ code: 'custom', path: ['CHANNEL_SECRETS_KEY'], message: 'must be set in production' });
  if (env.FILE_LINK_SECRET === DEV_FILE_LINK_SECRET) ctx.addIssue({ code: 'custom', path: ['FILE_LINK_SECRET'], message: 'must be set in production' });
}

/**
 * An app's settings schema: the shared settings plus its own. PUBLIC_URL comes out always set
 * (without a trailing slash), so no code falls back to a request's Host header.
 */
export function settingsSchema<Own extends z.ZodRawShape>(own: Own) {
  return z
    .object({ ...SHARED_SETTINGS, ...own })
    .superRefine((env, ctx) => refineShared(env as SharedInput, ctx))
    .transform((env) => {
      const { PUBLIC_URL, PORT } = env as SharedInput;
      return { ...env, PUBLIC_URL: (PUBLIC_URL ?? defaultPublicUrl(PORT)).replace(/\/+$/, '') };
    });
}

/** Parses the settings or throws one readable message naming every bad variable. */
export function parseSettings<T>(schema: z.ZodType<T>, source: Record<string, string | undefined>): T {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  return parsed.data;
}
