import { decryptCredentials, encryptCredentials, parseSecretsKey } from '@atende/channels';
import {
  AppError,
  type BodyOf,
  type createOAuthToken,
  type Integrations,
  type listOAuthTokens,
  type OAuthToken,
  type QueryOf,
  type updateIntegrations,
} from '@atende/contract';
import {
  findUnrevokedApiToken,
  insertApiToken,
  listLiveApiTokens,
  revokeApiToken,
  storeWorkspaceIntegrations,
  usernamesOf,
  workspaceIntegrations,
  type ApiTokenRow as TokenRow,
  type Prisma,
} from '@atende/db';
import type { AppContext } from '../../context';
import { assertOutboundUrl } from '../../outbound-url';
import { hashApiToken, newApiToken } from '../session/api-tokens';
import type { Session } from '../session/session';

/** How Workspace.integrations is stored: flags and the voice-phone URL in clear, the tokens sealed together. */
interface StoredIntegrations {
  droz?: { enabled?: boolean };
  zapier?: { enabled?: boolean };
  voice_phone?: { enabled?: boolean; url?: string | null };
  /** AES-256-GCM sealed { droz?: token, zapier?: token } (the channel credentials' key). */
  sealed_tokens?: string;
}
const TOKEN_INTEGRATIONS = ['droz', 'zapier'] as const;

/** Whether a URL's host is one of the provider's domains or under one (with no domains set, every host passes). */
export function onVoiceDomains(url: string, domains: readonly string[]): boolean {
  if (domains.length === 0) return true;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return domains.some((d) => host === d || host.endsWith(`.${d}`));
}

/**
 * A voice-phone URL the browser may embed: absolute https (http only for localhost outside
 * production), on the provider's domains, and not a loopback/private address.
 */
export async function checkVoiceUrl(url: string, env: AppContext['env']): Promise<void> {
  const domains = env.VOICE_PHONE_DOMAINS;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError('url_invalid', 'Invalid URL', [{ path: 'voice_phone.url', message: 'Invalid URL' }]);
  }
  const local = parsed.hostname === 'localhost' || parsed.hostname === '127.0.0.1';
  if (parsed.protocol !== 'https:' && !(local && parsed.protocol === 'http:' && env.NODE_ENV !== 'production')) {
    throw new AppError('url_https_required', 'The URL must start with https://', [
      { path: 'voice_phone.url', message: 'The URL must start with https://' },
    ]);
  }
  if (!onVoiceDomains(url, domains)) {
    const message = `The URL must be on the voice-phone provider's domains: ${domains.join(', ')}`;
    throw new AppError(
      'integration_url_domain',
      message,
      [{ path: 'voice_phone.url', message, code: 'integration_url_domain', params: { domains: domains.join(', ') } }],
      { domains: domains.join(', ') },
    );
  }
  await assertOutboundUrl(url, env.OUTBOUND_ALLOW_HOSTS, 'voice_phone.url');
}

const present = (value: StoredIntegrations, tokens: Record<string, string>): Integrations => ({
  droz: { enabled: value.droz?.enabled === true, token_set: !!tokens.droz },
  zapier: { enabled: value.zapier?.enabled === true, token_set: !!tokens.zapier },
  voice_phone: { enabled: value.voice_phone?.enabled === true, url: value.voice_phone?.url ?? null },
});

/** The workspace's integrations (their tokens sealed at rest, the voice-phone URL checked) and its API tokens. */
export class IntegrationService {
  /** Read when the routes are set up, so a malformed CHANNEL_SECRETS_KEY stops the server at start. */
  private readonly key: Buffer;

  constructor(private readonly ctx: AppContext) {
    this.key = parseSecretsKey(ctx.env.CHANNEL_SECRETS_KEY);
  }

  /** How long new API tokens last unless asked, and at most. */
  get tokenLifetime(): { default_days: number; max_days: number } {
    return { default_days: this.ctx.env.API_TOKEN_DEFAULT_DAYS, max_days: this.ctx.env.API_TOKEN_MAX_DAYS };
  }

  private async presentTokens(session: Session, rows: TokenRow[]): Promise<OAuthToken[]> {
    const users = await usernamesOf(
      this.ctx.db,
      session.tenantId,
      rows.map((r) => r.userId),
    );
    return rows.map((r) => ({
      uuid: r.id,
      client_name: r.clientName,
      client_id: r.clientId,
      token_prefix: r.tokenPrefix,
      roles: r.roles,
      created_by: users.find((u) => u.id === r.userId) ?? null,
      created_at: r.createdAt.toISOString(),
      last_used_at: r.lastUsedAt?.toISOString() ?? null,
      expires_at: r.expiresAt.toISOString(),
    }));
  }

  async listTokens(session: Session, query: QueryOf<typeof listOAuthTokens>): Promise<OAuthToken[]> {
    const rows = await listLiveApiTokens(this.ctx.db, session, { clientName: query.client_name, clientId: query.client_id });
    return this.presentTokens(session, rows);
  }

  /** A new API token with the caller's roles; its secret is shown this once. */
  async createToken(session: Session, body: BodyOf<typeof createOAuthToken>): Promise<{ token: OAuthToken; secret: string }> {
    const env = this.ctx.env;
    if (session.apiToken) throw new AppError('api_token_creates_token', 'API tokens cannot create API tokens');
    const days = body.expires_in_days ?? Math.min(env.API_TOKEN_DEFAULT_DAYS, env.API_TOKEN_MAX_DAYS);
    if (days > env.API_TOKEN_MAX_DAYS) {
      const message = `A token can last at most ${env.API_TOKEN_MAX_DAYS} days`;
      throw new AppError('api_token_lifetime_too_long', message, [{ path: 'expires_in_days', message }], {
        max_days: env.API_TOKEN_MAX_DAYS,
      });
    }
    const { token, clientId } = newApiToken();
    const row = await insertApiToken(this.ctx.db, session, {
      userId: session.userId,
      clientName: body.client_name,
      clientId,
      tokenHash: hashApiToken(token),
      tokenPrefix: token.slice(0, 10),
      roles: session.roles,
      expiresAt: new Date(Date.now() + days * 86_400_000),
    });
    return { token: (await this.presentTokens(session, [row]))[0]!, secret: token };
  }

  /** Revokes one live token of the workspace; returns its id. */
  async revokeToken(session: Session, id: string): Promise<string> {
    const row = await findUnrevokedApiToken(this.ctx.db, session, id);
    if (!row) throw new AppError('api_token_not_found', 'Token not found');
    await revokeApiToken(this.ctx.db, session.tenantId, row.id);
    return row.id;
  }

  private async stored(session: Session): Promise<{ id: string; value: StoredIntegrations; tokens: Record<string, string> }> {
    const ws = await workspaceIntegrations(this.ctx.db, session);
    const value = (ws.integrations && typeof ws.integrations === 'object' ? ws.integrations : {}) as StoredIntegrations;
    const tokens = value.sealed_tokens ? (decryptCredentials(value.sealed_tokens, this.key) as Record<string, string>) : {};
    return { id: ws.id, value, tokens };
  }

  async get(session: Session): Promise<Integrations> {
    const { value, tokens } = await this.stored(session);
    return present(value, tokens);
  }

  /** The voice phone as the header shows it: the domains are checked again (they may have changed since). */
  async voicePhone(session: Session): Promise<{ enabled: boolean; url: string | null }> {
    const phone = (await this.stored(session)).value.voice_phone;
    const url = phone?.url ?? null;
    const enabled = phone?.enabled === true && url !== null && onVoiceDomains(url, this.ctx.env.VOICE_PHONE_DOMAINS);
    return { enabled, url: enabled ? url : null };
  }

  /** Applies the changes given: a token integration turned on needs its token, the voice phone its URL. */
  async update(session: Session, body: BodyOf<typeof updateIntegrations>): Promise<Integrations> {
    const current = await this.stored(session);
    const tokens = { ...current.tokens };
    const next: StoredIntegrations = { ...current.value };
    for (const name of TOKEN_INTEGRATIONS) {
      const change = body[name];
      if (!change) continue;
      if (change.token !== undefined) {
        if (change.token === '') delete tokens[name];
        else tokens[name] = change.token;
      }
      const enabled = change.enabled ?? next[name]?.enabled === true;
      if (enabled && !tokens[name]) {
        const message = 'Enter the API token to turn this integration on';
        throw new AppError('integration_token_required', message, [{ path: `${name}.token`, message, code: 'integration_token_required' }]);
      }
      next[name] = { enabled };
    }
    if (body.voice_phone) {
      const url = body.voice_phone.url === undefined ? (next.voice_phone?.url ?? null) : body.voice_phone.url || null;
      if (url) await checkVoiceUrl(url, this.ctx.env);
      const enabled = body.voice_phone.enabled ?? next.voice_phone?.enabled === true;
      if (enabled && !url)
        throw new AppError('integration_url_required', 'Enter the URL to turn this integration on', [
          { path: 'voice_phone.url', message: 'Enter the URL to turn this integration on' },
        ]);
      next.voice_phone = { enabled, url };
    }
    next.sealed_tokens = Object.keys(tokens).length ? encryptCredentials(tokens, this.key) : undefined;
    await storeWorkspaceIntegrations(this.ctx.db, session, JSON.parse(JSON.stringify(next)) as Prisma.InputJsonValue);
    return present(next, tokens);
  }
}
