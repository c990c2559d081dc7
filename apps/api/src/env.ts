import { parseSettings, settingsGroup, settingsSchema, unsetWhenEmpty } from '@atende/config';
import { z } from 'zod';

// The only reader of process.env in the api. Defaults work on a developer machine; the settings the
// worker reads too (PORT, PUBLIC_URL, DATABASE_URL, secrets, storage...) come from @atende/config.
// Every variable is described for .env.example (`pnpm config:example` writes it).
export const API_SETTINGS = settingsGroup(
  {
    HOST: z.string().default('0.0.0.0').describe('The address the api listens on.'),
    JWT_SECRET: z
      .string()
      .min(32)
      .default('dev-only-secret-change-me-dev-only-secret-change-me')
      .describe('Signs session tokens (at least 32 characters).'),
    SESSION_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(30 * 24 * 3600)
      .default(12 * 3600)
      .describe('How long a sign-in session lasts (seconds).'),
    COOKIE_SECURE: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true')
      .describe('Forces the Secure flag on the session cookie (and HSTS); both are on anyway when PUBLIC_URL is https.'),
    // The embed is shown only for a URL on these domains.
    VOICE_PHONE_DOMAINS: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((d) => d.trim().toLowerCase().replace(/^\.+/, ''))
          .filter(Boolean),
      )
      .describe("The voice-phone provider's domains (comma-separated; a URL on one of them or a subdomain). Empty: every https URL."),
    ALLOWED_ORIGINS: unsetWhenEmpty(z.string().optional()).describe(
      "Browser origins (comma-separated) allowed to open the realtime socket and to write with the session cookie. Unset: PUBLIC_URL's origin.",
    ),
    TENANT_DOMAIN: unsetWhenEmpty(z.string().optional()).describe("Public domain shown in the QR login payload. Unset: PUBLIC_URL's host."),
    WEB_DIST: z.string().optional().describe('Directory of the built web app the api serves. Unset: apps/web/dist.'),
    META_APP_ID: z
      .string()
      .trim()
      .regex(/^\d{1,40}$/)
      .optional()
      .describe('The Meta app the Messenger and Instagram setup screens log in with. Unset: pages are connected by pasting their tokens.'),
    META_APP_SECRET: z.string().trim().min(1).optional().describe("The Meta app's secret (with META_APP_ID)."),
    META_VERIFY_TOKEN: z
      .string()
      .trim()
      .min(1)
      .optional()
      .describe("The verify token set with the app's webhook in Meta's dashboard. Unset: each connected channel gets its own."),
    META_GRAPH_URL: z
      .url({ protocol: /^https?$/ })
      .default('https://graph.facebook.com')
      .describe("Meta's Graph API address (the Meta simulator in the demo and the tests)."),
    META_DIALOG_URL: z
      .url({ protocol: /^https?$/ })
      .default('https://www.facebook.com')
      .describe("Meta's login dialog address."),
    META_INSTAGRAM_GRAPH_URL: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe("Instagram's Graph API address. Unset: META_GRAPH_URL."),
    META_INSTAGRAM_DIALOG_URL: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe("Instagram's login dialog address. Unset: META_DIALOG_URL."),
    LIVECHAT_TOKEN_SECRET: z
      .string()
      .min(32)
      .default('dev-only-livechat-secret-change-me-dev-only')
      .describe('Signs livechat visitor tokens, the public widget sessions (at least 32 characters).'),
    LIVECHAT_TOKEN_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(300)
      .default(30 * 24 * 3600)
      .describe('How long a livechat visitor token lasts (seconds); the widget then starts a new session.'),
    API_TOKEN_DEFAULT_DAYS: z.coerce
      .number()
      .int()
      .min(1)
      .max(3650)
      .default(90)
      .describe('How long a new API token lasts when its creator does not choose (days).'),
    API_TOKEN_MAX_DAYS: z.coerce
      .number()
      .int()
      .min(1)
      .max(3650)
      .default(365)
      .describe('The longest lifetime an API token may be given (days).'),
    LOGIN_FREE_ATTEMPTS_PER_PAIR: z.coerce
      .number()
      .int()
      .min(1)
      .default(5)
      .describe('Failed sign-ins of one account from one IP before each next try waits (1 s, doubling).'),
    LOGIN_MAX_ATTEMPTS_PER_IP: z.coerce
      .number()
      .int()
      .min(1)
      .default(500)
      .describe('Failed sign-ins from one IP over all accounts before that IP is refused for the window.'),
    LOGIN_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900).describe('The window of the sign-in limits (seconds).'),
    LOGIN_MAX_DELAY_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .default(900)
      .describe('The longest wait between two tries of one account from one IP (seconds).'),
    // Trusting every peer would let any client pick its own IP and walk around the per-IP login limit.
    TRUST_PROXY: z
      .string()
      .default('false')
      .transform((v): boolean | string[] => {
        const value = v.trim();
        if (value === 'true' || value === 'false') return value === 'true';
        return value
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean);
      })
      .describe(
        "Which peers may set X-Forwarded-For: false (the api is reached directly), true, or the proxies' addresses/CIDRs, comma-separated.",
      ),
    PRESENCE_GRACE_MS: z.coerce
      .number()
      .int()
      .min(200)
      .default(60_000)
      .describe(
        'How long a signed-in user may have no connected browser before counting as offline: chats back to the queue, no distribution.',
      ),
    SMTP_URL: z
      .string()
      .trim()
      .default('')
      .refine((v) => v === '' || /^smtps?:\/\/[^/]+/.test(v), 'must be smtp://[user:pass@]host[:port] or smtps://...')
      .describe(
        'The system\'s own mail (password recovery codes): smtp://user:pass@host:587 or smtps://...:465. Empty: no "Forgot password?".',
      ),
    MAIL_FROM: z.string().trim().min(3).max(254).default('Atende <no-reply@localhost>').describe("The From of the system's mail."),
    PASSWORD_RESET_MAX_PER_EMAIL: z.coerce
      .number()
      .int()
      .min(1)
      .default(3)
      .describe('Password recovery codes one e-mail address may ask for per window (429 past it).'),
    PASSWORD_RESET_MAX_PER_IP: z.coerce
      .number()
      .int()
      .min(1)
      .default(20)
      .describe('Password recovery requests one client IP may make per window (429 past it).'),
    PASSWORD_RESET_WINDOW_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .default(900)
      .describe('The window of the password recovery limits (seconds).'),
  },
  { JWT_SECRET: 'must be set in production', LIVECHAT_TOKEN_SECRET: 'must be set in production' },
);

const EnvSchema = settingsSchema(API_SETTINGS).transform((env) => {
  // The address the app is served at decides the defaults a browser meets: the
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
  return parseSettings(EnvSchema, source);
}
