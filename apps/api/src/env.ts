import { parseSettings, settingsSchema, unsetWhenEmpty } from '@atende/channels/settings';
import { z } from 'zod';

// The only reader of process.env in the api. Defaults work on a developer machine; the settings the
// worker reads too (PORT, PUBLIC_URL, DATABASE_URL, secrets, storage...) come from the shared module.
const EnvSchema = settingsSchema({
  HOST: z.string().default('0.0.0.0'),
  /** Secret that signs session tokens. Required in production. */
  JWT_SECRET: z.string().min(32).default('dev-only-secret-change-me-dev-only-secret-change-me'),
  SESSION_TTL_SECONDS: z.coerce.number().int().min(60).max(30 * 24 * 3600).default(12 * 3600),
  /** Forces the Secure flag on the session cookie (and HSTS); both are on anyway when PUBLIC_URL is https. */
  COOKIE_SECURE: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  /**
   * The voice-phone provider's domains (comma-separated; a URL on one of them or a subdomain). Empty:
   * any https URL. The embed is shown only for a URL on them (spec 000 §2).
   */
  VOICE_PHONE_DOMAINS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((d) => d.trim().toLowerCase().replace(/^\.+/, '')).filter(Boolean)),
  /**
   * Browser origins allowed to open the realtime socket and to write with the session cookie, comma
   * separated; the api's own origin always is. Unset: PUBLIC_URL's origin, the address the app is served at.
   */
  ALLOWED_ORIGINS: unsetWhenEmpty(z.string().optional()),
  /** Public domain shown in the QR login payload. Unset: PUBLIC_URL's host. */
  TENANT_DOMAIN: unsetWhenEmpty(z.string().optional()),
  WEB_DIST: z.string().optional(),
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
  /** Signs livechat visitor tokens (public widget sessions). Required in production. */
  LIVECHAT_TOKEN_SECRET: z.string().min(32).default('dev-only-livechat-secret-change-me-dev-only'),
  /** How long a livechat visitor token lasts (the widget then starts a new session). */
  LIVECHAT_TOKEN_TTL_SECONDS: z.coerce.number().int().min(300).default(30 * 24 * 3600),
  /** How long a new API token lasts when its creator does not choose (days). */
  API_TOKEN_DEFAULT_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** The longest lifetime an API token may be given (days). */
  API_TOKEN_MAX_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
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
}).transform((env) => {
  // The address the app is served at decides the defaults a browser meets (issue 29, Low): the
  // origins allowed to write with the session cookie, and Secure cookies + HSTS behind https.
  const served = new URL(env.PUBLIC_URL);
  return {
    ...env,
    ALLOWED_ORIGINS: env.ALLOWED_ORIGINS ?? served.origin,
    TENANT_DOMAIN: env.TENANT_DOMAIN ?? served.host,
    COOKIE_SECURE: env.COOKIE_SECURE || served.protocol === 'https:',
  };
});
export type Env = z.infer<typeof EnvSchema>;

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const env = parseSettings(EnvSchema, source);
  if (env.NODE_ENV === 'production' && env.JWT_SECRET.startsWith('dev-only-secret')) {
    throw new Error('Invalid configuration:\n  JWT_SECRET: must be set in production');
  }
  if (env.NODE_ENV === 'production' && env.LIVECHAT_TOKEN_SECRET.startsWith('dev-only-')) {
    throw new Error('Invalid configuration:\n  LIVECHAT_TOKEN_SECRET: must be set in production');
  }
  return env;
}
