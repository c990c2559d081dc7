import { createHash } from 'node:crypto';
import { ChannelDeliveryError } from '../adapter';
import { isOutboundRefused } from '../outbound-address';
import { outboundClient, type OutboundClient } from '../outbound';
import type { EmailOAuthProvider } from './settings';

/**
 * OAuth 2.0 for e-mail channels whose mailbox takes no password (Google Workspace, Microsoft 365):
 * the channel keeps a refresh token (its refresh_token secret); before SMTP or IMAP logs in, the
 * token is exchanged at the provider's token endpoint, with the install's own OAuth client
 * (EMAIL_OAUTH_* settings), for an access token used as XOAUTH2. Access tokens are kept in memory
 * until shortly before they expire.
 */
export interface EmailOAuthClient {
  clientId: string;
  clientSecret: string;
  /** The provider's token endpoint; tests point it at a local server. */
  tokenUrl?: string;
}
export type EmailOAuthClients = Partial<Record<EmailOAuthProvider, EmailOAuthClient>>;

export const EMAIL_OAUTH_TOKEN_URLS: Record<EmailOAuthProvider, (tenant: string) => string> = {
  google: () => 'https://oauth2.googleapis.com/token',
  microsoft: (tenant) => `https://login.microsoftonline.com/${encodeURIComponent(tenant)}/oauth2/v2.0/token`,
};

/** The clients the install configured (EMAIL_OAUTH_* settings); a provider without both id and secret is left out. */
export function emailOAuthClients(settings: {
  EMAIL_OAUTH_GOOGLE_CLIENT_ID?: string;
  EMAIL_OAUTH_GOOGLE_CLIENT_SECRET?: string;
  EMAIL_OAUTH_MICROSOFT_CLIENT_ID?: string;
  EMAIL_OAUTH_MICROSOFT_CLIENT_SECRET?: string;
  EMAIL_OAUTH_MICROSOFT_TENANT?: string;
}): EmailOAuthClients {
  const clients: EmailOAuthClients = {};
  if (settings.EMAIL_OAUTH_GOOGLE_CLIENT_ID && settings.EMAIL_OAUTH_GOOGLE_CLIENT_SECRET)
    clients.google = { clientId: settings.EMAIL_OAUTH_GOOGLE_CLIENT_ID, clientSecret: settings.EMAIL_OAUTH_GOOGLE_CLIENT_SECRET };
  if (settings.EMAIL_OAUTH_MICROSOFT_CLIENT_ID && settings.EMAIL_OAUTH_MICROSOFT_CLIENT_SECRET)
    clients.microsoft = {
      clientId: settings.EMAIL_OAUTH_MICROSOFT_CLIENT_ID,
      clientSecret: settings.EMAIL_OAUTH_MICROSOFT_CLIENT_SECRET,
      tokenUrl: EMAIL_OAUTH_TOKEN_URLS.microsoft(settings.EMAIL_OAUTH_MICROSOFT_TENANT ?? 'common'),
    };
  return clients;
}

/** Renewed this long before the provider's expiry, so a token never runs out between fetch and login. */
const EXPIRY_MARGIN_MS = 2 * 60_000;

/** Access tokens by channel refresh token, exchanged at most once at a time each. */
export class EmailAccessTokens {
  private readonly cache = new Map<string, { token: string; expiresAt: number }>();
  private readonly pending = new Map<string, Promise<string>>();
  private readonly fetch: typeof fetch;

  constructor(
    private readonly clients: EmailOAuthClients = {},
    outbound?: OutboundClient,
    private readonly now: () => number = Date.now,
  ) {
    // The token endpoints are public addresses: the guarded client's policy applies to them like to any other.
    this.fetch = (outbound ?? outboundClient()).fetch;
  }

  /** An access token for the refresh token; a ChannelDeliveryError when none can be had (permanent: the admin must act). */
  async get(provider: EmailOAuthProvider, refreshToken: string): Promise<string> {
    const key = cacheKey(provider, refreshToken);
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt > this.now()) return cached.token;
    let exchange = this.pending.get(key);
    if (!exchange) {
      exchange = this.exchange(provider, refreshToken, key).finally(() => this.pending.delete(key));
      this.pending.set(key, exchange);
    }
    return exchange;
  }

  /** Drops the kept token (a server refused it): the next login exchanges the refresh token again. */
  forget(provider: EmailOAuthProvider, refreshToken: string): void {
    this.cache.delete(cacheKey(provider, refreshToken));
  }

  private async exchange(provider: EmailOAuthProvider, refreshToken: string, key: string): Promise<string> {
    const client = this.clients[provider];
    if (!client) {
      const name = `EMAIL_OAUTH_${provider.toUpperCase()}_CLIENT_ID`;
      throw new ChannelDeliveryError('permanent', `OAuth for ${provider} mailboxes is not configured on this server (${name})`);
    }
    let response: Response;
    try {
      response = await this.fetch(client.tokenUrl ?? EMAIL_OAUTH_TOKEN_URLS[provider]('common'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          client_id: client.clientId,
          client_secret: client.clientSecret,
        }).toString(),
      });
    } catch (error) {
      if (isOutboundRefused(error)) throw new ChannelDeliveryError('permanent', error.message);
      throw new ChannelDeliveryError('transient', `The ${provider} token endpoint was not reached`);
    }
    const body = (await response.json().catch(() => null)) as { access_token?: unknown; expires_in?: unknown; error?: unknown } | null;
    if (!response.ok || typeof body?.access_token !== 'string') {
      // invalid_grant: the refresh token was revoked or expired; the admin must connect the mailbox again.
      const code = typeof body?.error === 'string' ? body.error.slice(0, 60) : `HTTP ${response.status}`;
      const kind = response.status >= 500 || response.status === 429 ? 'transient' : 'permanent';
      throw new ChannelDeliveryError(kind, `The ${provider} token endpoint refused the refresh token (${code})`, 401);
    }
    const seconds = typeof body.expires_in === 'number' ? body.expires_in : Number(body.expires_in ?? 3600) || 3600;
    this.cache.set(key, { token: body.access_token, expiresAt: this.now() + Math.max(0, seconds * 1000 - EXPIRY_MARGIN_MS) });
    return body.access_token;
  }
}

const cacheKey = (provider: string, refreshToken: string) => createHash('sha256').update(`${provider}\n${refreshToken}`).digest('hex');
