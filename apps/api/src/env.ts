import { DEV_CHANNEL_SECRETS_KEY, DEV_FILE_LINK_SECRET, parseSecretsKey } from '@atende/channels';
import { refineStorageEnv, StorageEnvSchema } from '@atende/storage';
import { z } from 'zod';

// The only reader of process.env in the api. Defaults work on a developer machine.
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().default('postgresql://postgres@127.0.0.1:5432/atende'),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  /** Secret that signs session tokens. Required in production. */
  JWT_SECRET: z.string().min(32).default('dev-only-secret-change-me-dev-only-secret-change-me'),
  SESSION_TTL_SECONDS: z.coerce.number().int().min(60).max(30 * 24 * 3600).default(12 * 3600),
  COOKIE_SECURE: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  /** Origins allowed to open the realtime socket, comma separated; the api's own origin is always allowed. */
  /**
   * The voice-phone provider's domains (comma-separated; a URL on one of them or a subdomain). Empty:
   * any https URL. The embed is shown only for a URL on them (spec 000 §2).
   */
  VOICE_PHONE_DOMAINS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((d) => d.trim().toLowerCase().replace(/^\.+/, '')).filter(Boolean)),
  ALLOWED_ORIGINS: z.string().default('http://localhost:3000,http://127.0.0.1:3000,http://localhost:5173'),
  /** Public domain shown in the QR login payload. */
  TENANT_DOMAIN: z.string().default('localhost:3000'),
  WEB_DIST: z.string().optional(),
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
  ...StorageEnvSchema.shape,
  /** Encrypts channel credentials at rest (same value as the worker's). Required in production. */
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
  /** The api's address as providers and browsers reach it: channel webhook addresses are built on it. */
  PUBLIC_URL: z.string().url().optional(),
  /**
   * The Meta app the /messenger-setup and /instagram-setup screens log in with (Facebook Login,
   * manual flow). Unset: pages are connected only by pasting their tokens in the channels screen.
   */
  META_APP_ID: z.string().trim().regex(/^\d{1,40}$/).optional(),
  META_APP_SECRET: z.string().trim().min(1).optional(),
  /** The verify token set with the app's webhook in Meta's dashboard; unset: each connected channel gets its own. */
  META_VERIFY_TOKEN: z.string().trim().min(1).optional(),
  /** Graph API and login dialog addresses (the Meta simulator in the demo and the tests); Instagram's default to these. */
  META_GRAPH_URL: z.url({ protocol: /^https?$/ }).default('https://graph.facebook.com'),
  META_DIALOG_URL: z.url({ protocol: /^https?$/ }).default('https://www.facebook.com'),
  META_INSTAGRAM_GRAPH_URL: z.url({ protocol: /^https?$/ }).optional(),
  META_INSTAGRAM_DIALOG_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Signs the time-limited file links given to channel receivers (same value as the worker's). Required in production. */
  FILE_LINK_SECRET: z.string().min(32).default(DEV_FILE_LINK_SECRET),
  /** Signs livechat visitor tokens (public widget sessions). Required in production. */
  LIVECHAT_TOKEN_SECRET: z.string().min(32).default('dev-only-livechat-secret-change-me-dev-only'),
  /** How long a livechat visitor token lasts (the widget then starts a new session). */
  LIVECHAT_TOKEN_TTL_SECONDS: z.coerce.number().int().min(300).default(30 * 24 * 3600),
  /** How long a new API token lasts when its creator does not choose (days). */
  API_TOKEN_DEFAULT_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** The longest lifetime an API token may be given (days). */
  API_TOKEN_MAX_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Failed sign-ins of one account from one IP before each next try waits (1 s, doubling). */
  LOGIN_FREE_ATTEMPTS_PER_PAIR: z.coerce.number().int().min(1).default(5),
  /** Failed sign-ins from one IP over all accounts before that IP is refused for the window. */
  LOGIN_MAX_ATTEMPTS_PER_IP: z.coerce.number().int().min(1).default(500),
  LOGIN_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  /** The longest wait between two tries of one account from one IP. */
  LOGIN_MAX_DELAY_SECONDS: z.coerce.number().int().min(1).default(900),
  /**
   * Which peers may set X-Forwarded-For (Fastify trustProxy): 'false' (default: the api is reached
   * directly), 'true', or a comma-separated list of the proxies' addresses/CIDRs (e.g. the nginx
   * load balancer's network).
   * Trusting everybody would let any client pick its own IP and walk around the per-IP login limit.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v): boolean | string[] => {
      const value = v.trim();
      if (value === 'true' || value === 'false') return value === 'true';
      return value.split(',').map((p) => p.trim()).filter(Boolean);
    }),
  /**
   * How long a signed-in user may have no connected browser before they count as offline: chats
   * back to the queue, no distribution, offline on the dashboard (issue 16 item 1).
   */
  PRESENCE_GRACE_MS: z.coerce.number().int().min(200).default(60_000),
  /**
   * The system's own mail (issue 16 item 11: password recovery codes), e.g.
   * smtp://user:pass@smtp.example.com:587 or smtps://...:465. Empty: no system mail, and the sign-in
   * page offers no "Forgot password?".
   */
  SMTP_URL: z.string().trim().default('').refine((v) => v === '' || /^smtps?:\/\/[^/]+/.test(v), 'must be smtp://[user:pass@]host[:port] or smtps://...'),
  /** The From of the system's mail. */
  MAIL_FROM: z.string().trim().min(3).max(254).default('Atende <no-reply@localhost>'),
  /** Password recovery codes one e-mail address, and one client IP, may ask for per window (429 past it). */
  PASSWORD_RESET_MAX_PER_EMAIL: z.coerce.number().int().min(1).default(3),
  PASSWORD_RESET_MAX_PER_IP: z.coerce.number().int().min(1).default(20),
  PASSWORD_RESET_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  /** Prefix of every Redis key, so test runs on one Redis never meet. */
  REDIS_PREFIX: z.string().default('atende:'),
})
  .superRefine(refineStorageEnv);
export type Env = z.infer<typeof EnvSchema>;

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  if (parsed.data.NODE_ENV === 'production' && parsed.data.JWT_SECRET.startsWith('dev-only-secret')) {
    throw new Error('Invalid configuration:\n  JWT_SECRET: must be set in production');
  }
  if (parsed.data.NODE_ENV === 'production' && parsed.data.CHANNEL_SECRETS_KEY === DEV_CHANNEL_SECRETS_KEY) {
    throw new Error('Invalid configuration:\n  CHANNEL_SECRETS_KEY: must be set in production');
  }
  if (parsed.data.NODE_ENV === 'production' && parsed.data.LIVECHAT_TOKEN_SECRET.startsWith('dev-only-')) {
    throw new Error('Invalid configuration:\n  LIVECHAT_TOKEN_SECRET: must be set in production');
  }
  if (parsed.data.NODE_ENV === 'production' && parsed.data.FILE_LINK_SECRET === DEV_FILE_LINK_SECRET) {
    throw new Error('Invalid configuration:\n  FILE_LINK_SECRET: must be set in production');
  }
  return parsed.data;
}
