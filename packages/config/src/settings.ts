import { z } from 'zod';
import { DEV_CHANNEL_SECRETS_KEY, DEV_FILE_LINK_SECRET, parseSecretsKey } from './secrets';
import { refineStorageSettings, STORAGE_SETTINGS, type StorageSettings } from './storage-settings';

/** An empty variable (`VAR=` or compose's `${VAR:-}`) counts as unset, so its default applies. */
export const unsetWhenEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema);

/**
 * A group of settings: each variable's schema (with its default and a one-line `.describe()`), and
 * the variables production must set, each with the message given when it is missing or still holds
 * its development default.
 */
export interface SettingsGroup<Shape extends z.ZodRawShape = z.ZodRawShape> {
  shape: Shape;
  productionRequired: Partial<Record<keyof Shape & string, string>>;
}

export function settingsGroup<Shape extends z.ZodRawShape>(
  shape: Shape,
  productionRequired: SettingsGroup<Shape>['productionRequired'] = {},
): SettingsGroup<Shape> {
  return { shape, productionRequired };
}

const MUST_BE_SET = 'must be set in production';

/**
 * The settings the api and the worker both read, each with one default: a setting both read lives
 * here, so the two processes cannot disagree on it (the worker once sent Twilio status callbacks and
 * Meta attachment links to http://localhost:3000 while the api served another port). Each app's
 * env.ts, its only reader of process.env, adds its own group.
 */
export const SHARED_SETTINGS = settingsGroup(
  {
    NODE_ENV: z
      .enum(['development', 'production', 'test'])
      .default('development')
      .describe('development, test or production; production refuses the development secrets.'),
    PORT: z.coerce
      .number()
      .int()
      .min(1)
      .max(65535)
      .default(3000)
      .describe('The port the api serves; the worker reads it too, for the default PUBLIC_URL.'),
    PUBLIC_URL: unsetWhenEmpty(
      z.url({ protocol: /^https?$/, error: 'must be an http(s) address such as https://atende.example.com' }).optional(),
    ).describe(
      "The api's address as providers and browsers reach it (webhook addresses, Twilio signatures, signed file links). Unset: http://localhost:<PORT>.",
    ),
    DATABASE_URL: z.string().url().default('postgresql://postgres@127.0.0.1:5432/atende').describe('The Postgres database.'),
    REDIS_URL: z
      .string()
      .url()
      .default('redis://127.0.0.1:6379')
      .describe('The Redis server (queues, realtime fan-out, rate limits, presence).'),
    REDIS_PREFIX: z
      .string()
      .default('atende:')
      .describe('Prefix of every Redis key, so several installations or test runs can share one Redis.'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('pino log level.'),
    CHANNEL_SECRETS_KEY: z
      .string()
      .default(DEV_CHANNEL_SECRETS_KEY)
      .refine((v) => {
        try {
          return parseSecretsKey(v).length === 32;
        } catch {
          return false;
        }
      }, 'must be 32 bytes encoded in base64 (openssl rand -base64 32)')
      .describe('Encrypts channel credentials at rest: 32 bytes in base64 (openssl rand -base64 32), the same in the api and the worker.'),
    FILE_LINK_SECRET: z
      .string()
      .min(32)
      .default(DEV_FILE_LINK_SECRET)
      .describe('Signs the time-limited file links given to channel receivers (at least 32 characters).'),
    OUTBOUND_ALLOW_HOSTS: z
      .string()
      .default('')
      .describe(
        'Private host names, IPs and CIDRs (comma-separated) that requests to user-given URLs may reach. Empty: public addresses only.',
      ),
    EMAIL_INBOUND_DOMAIN: unsetWhenEmpty(z.string().trim().min(1).max(253).optional()).describe(
      "Mail domain routed to the worker's inbound SMTP listener: an e-mail channel's forwarding address is <channel>.<token>@ this domain. Unset: the host of PUBLIC_URL.",
    ),
    EMAIL_OAUTH_GOOGLE_CLIENT_ID: unsetWhenEmpty(z.string().trim().min(1).max(500).optional()).describe(
      "OAuth client id (Google Cloud) that e-mail channels with oauth_provider google exchange their refresh token with, for Gmail's SMTP and IMAP. Unset: no Google OAuth.",
    ),
    EMAIL_OAUTH_GOOGLE_CLIENT_SECRET: unsetWhenEmpty(z.string().trim().min(1).max(500).optional()).describe(
      'The client secret of EMAIL_OAUTH_GOOGLE_CLIENT_ID.',
    ),
    EMAIL_OAUTH_MICROSOFT_CLIENT_ID: unsetWhenEmpty(z.string().trim().min(1).max(500).optional()).describe(
      "OAuth client (application) id in Microsoft Entra that e-mail channels with oauth_provider microsoft exchange their refresh token with, for Microsoft 365's SMTP and IMAP. Unset: no Microsoft OAuth.",
    ),
    EMAIL_OAUTH_MICROSOFT_CLIENT_SECRET: unsetWhenEmpty(z.string().trim().min(1).max(500).optional()).describe(
      'The client secret of EMAIL_OAUTH_MICROSOFT_CLIENT_ID.',
    ),
    EMAIL_OAUTH_MICROSOFT_TENANT: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9.-]{1,100}$/, 'must be a tenant id, a domain, common or organizations')
      .default('common')
      .describe("The Microsoft Entra tenant of the token endpoint: common, organizations, or the tenant's id or domain."),
    ...STORAGE_SETTINGS,
  },
  {
    PUBLIC_URL: `${MUST_BE_SET}: the https address providers and browsers reach the api at (e.g. https://atende.example.com)`,
    CHANNEL_SECRETS_KEY: MUST_BE_SET,
    FILE_LINK_SECRET: MUST_BE_SET,
  },
);

type SharedShape = typeof SHARED_SETTINGS.shape;
type SharedInput = z.infer<z.ZodObject<SharedShape>>;

/** The address used when PUBLIC_URL is unset (development, tests): the api's own port on this machine. */
export const defaultPublicUrl = (port: number): string => `http://localhost:${port}`;

/** The value a variable takes when unset, as it would be written in the environment; undefined when it has none. */
export function defaultOf(schema: z.ZodType): unknown {
  const def = schema._zod.def as { type: string; defaultValue?: unknown; innerType?: z.ZodType; in?: z.ZodType; out?: z.ZodType };
  if (def.type === 'default' || def.type === 'prefault') return def.defaultValue;
  if (def.type === 'pipe') return defaultOf(def.in!) ?? defaultOf(def.out!);
  if (def.innerType) return defaultOf(def.innerType);
  return undefined;
}

/**
 * Production refuses a required variable that is unset, still holds its development default, or holds
 * a value marked as a development one (`dev-only-...`, the spelling of the development text secrets).
 */
function refineProduction(env: Record<string, unknown>, ctx: z.RefinementCtx, groups: SettingsGroup[]): void {
  if (env.NODE_ENV !== 'production') return;
  for (const { shape, productionRequired } of groups) {
    for (const [name, message] of Object.entries(productionRequired) as [string, string][]) {
      const value = env[name];
      const devDefault = defaultOf(shape[name] as z.ZodType);
      const development = value === undefined || value === devDefault || (typeof value === 'string' && value.startsWith('dev-only-'));
      if (development) ctx.addIssue({ code: 'custom', path: [name], message });
    }
  }
}

/**
 * An app's settings schema: the shared settings plus its own group. PUBLIC_URL comes out always set
 * (without a trailing slash), so no code falls back to a request's Host header, and so does
 * EMAIL_INBOUND_DOMAIN (PUBLIC_URL's host when unset).
 */
export function settingsSchema<Own extends z.ZodRawShape>(own: SettingsGroup<Own>) {
  return z
    .object({ ...SHARED_SETTINGS.shape, ...own.shape })
    .superRefine((env, ctx) => {
      refineStorageSettings(env as StorageSettings, ctx);
      refineProduction(env as Record<string, unknown>, ctx, [SHARED_SETTINGS as SettingsGroup, own as SettingsGroup]);
    })
    .transform((env) => {
      const { PUBLIC_URL, PORT, EMAIL_INBOUND_DOMAIN } = env as SharedInput;
      const publicUrl = (PUBLIC_URL ?? defaultPublicUrl(PORT)).replace(/\/+$/, '');
      // Forwarding addresses are on the api's own host unless the operator routes another mail domain.
      return { ...env, PUBLIC_URL: publicUrl, EMAIL_INBOUND_DOMAIN: EMAIL_INBOUND_DOMAIN ?? new URL(publicUrl).hostname };
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

/**
 * A few shared settings, each validated and defaulted as the apps do, for the command-line tools
 * (migrations, the seed) that need only those: they read the same variables with the same defaults.
 */
export function readSharedSettings<K extends keyof SharedShape>(
  names: readonly K[],
  source: Record<string, string | undefined>,
): z.infer<z.ZodObject<Pick<SharedShape, K>>> {
  const shape = Object.fromEntries(names.map((name) => [name, SHARED_SETTINGS.shape[name]])) as Pick<SharedShape, K>;
  return parseSettings(z.object(shape), source) as z.infer<z.ZodObject<Pick<SharedShape, K>>>;
}
