import type { MetaSetupKind } from '@atende/contract';
import { ChannelDeliveryError } from '../adapter';
import { request, type HttpAnswer } from '../http';
import { GRAPH_VERSION } from './graph';

/**
 * Connecting a Facebook page (Messenger) or the Instagram account linked to one as Meta's manual
 * login flow has it: the login dialog ({dialog}/{version}/dialog/oauth), the code exchanged for a
 * user token (GET /oauth/access_token, then fb_exchange_token for a long-lived one), the user's
 * pages with their page tokens (GET /me/accounts) and the page subscribed to the app's webhook
 * (POST /{page-id}/subscribed_apps). Every call goes through the fetch given (the guarded
 * outbound client), against a configurable Graph address (the Meta simulator in tests and the demo).
 */

/** Messenger or Instagram: the contract's setup kinds. */
export type MetaLoginKind = MetaSetupKind;

export interface MetaLoginConfig {
  appId: string;
  appSecret: string;
  /** Graph API address, https://graph.facebook.com for real. */
  graphBaseUrl: string;
  /** Login dialog address, https://www.facebook.com for real. */
  dialogBaseUrl: string;
  version?: string;
}

export interface MetaPage {
  id: string;
  name: string;
  accessToken: string;
  /** The Instagram professional account linked to the page, if any. */
  instagram: { id: string; username: string } | null;
}

/** Permissions each kind asks for (Facebook Login for Business, manual flow). */
export const META_LOGIN_SCOPES: Record<MetaLoginKind, readonly string[]> = {
  messenger: ['pages_show_list', 'pages_messaging', 'pages_manage_metadata', 'business_management'],
  instagram: ['pages_show_list', 'pages_manage_metadata', 'instagram_basic', 'instagram_manage_messages', 'business_management'],
};
/** Webhook fields a connected page is subscribed to. */
const SUBSCRIBED_FIELDS: Record<MetaLoginKind, string> = {
  messenger: 'messages,messaging_postbacks,message_deliveries,message_reads',
  instagram: 'messages,messaging_postbacks',
};
const MAX_PAGE_LISTS = 5;

/** Meta refused (a used or expired code, a revoked token): the admin's to retry; or Meta could not be reached. */
export class MetaLoginError extends Error {
  constructor(
    readonly kind: 'refused' | 'unavailable',
    message: string,
  ) {
    super(message);
  }
}

const trimmed = (url: string) => url.replace(/\/+$/, '');
const versionOf = (config: MetaLoginConfig) => config.version ?? GRAPH_VERSION;

/** The login dialog's address the browser is sent to. */
export function metaDialogUrl(config: MetaLoginConfig, kind: MetaLoginKind, redirectUri: string, state: string): string {
  const query = new URLSearchParams({
    client_id: config.appId,
    redirect_uri: redirectUri,
    state,
    response_type: 'code',
    scope: META_LOGIN_SCOPES[kind].join(','),
  });
  return `${trimmed(config.dialogBaseUrl)}/${versionOf(config)}/dialog/oauth?${query.toString()}`;
}

export class MetaLoginClient {
  constructor(
    private readonly config: MetaLoginConfig,
    private readonly fetchImpl: typeof fetch,
    private readonly timeoutMs = 10_000,
  ) {}

  private get graph(): string {
    return `${trimmed(this.config.graphBaseUrl)}/${versionOf(this.config)}`;
  }

  private async call(url: string, init: { method?: 'GET' | 'POST'; token?: string } = {}): Promise<Record<string, unknown>> {
    let answer: HttpAnswer;
    try {
      answer = await request(
        this.fetchImpl,
        url,
        {
          method: init.method ?? 'GET',
          headers: { 'user-agent': 'Atende/1', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
          timeoutMs: this.timeoutMs,
        },
        'Meta',
      );
    } catch (error) {
      if (error instanceof ChannelDeliveryError) throw new MetaLoginError('unavailable', error.message);
      throw error;
    }
    const body = answer.json();
    const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    if (answer.status >= 200 && answer.status < 300) return fields;
    const error = (fields.error ?? {}) as { message?: unknown };
    const words = typeof error.message === 'string' ? error.message.slice(0, 300) : `HTTP ${answer.status}`;
    throw new MetaLoginError(answer.status >= 500 ? 'unavailable' : 'refused', words);
  }

  /** The dialog's code for a user token; then a long-lived one (about 60 days) when Meta gives it. */
  async userToken(code: string, redirectUri: string): Promise<string> {
    const { appId, appSecret } = this.config;
    const short = await this.call(
      `${this.graph}/oauth/access_token?${new URLSearchParams({ client_id: appId, client_secret: appSecret, redirect_uri: redirectUri, code }).toString()}`,
    );
    if (typeof short.access_token !== 'string' || !short.access_token) throw new MetaLoginError('refused', 'Meta answered no access token');
    const long = await this.call(
      `${this.graph}/oauth/access_token?${new URLSearchParams({ grant_type: 'fb_exchange_token', client_id: appId, client_secret: appSecret, fb_exchange_token: short.access_token }).toString()}`,
    );
    return typeof long.access_token === 'string' && long.access_token ? long.access_token : short.access_token;
  }

  /** The pages the user manages, with their page tokens and linked Instagram accounts (paging followed on Graph's own address). */
  async pages(userToken: string): Promise<MetaPage[]> {
    const pages: MetaPage[] = [];
    let url: string | null =
      `${this.graph}/me/accounts?${new URLSearchParams({ fields: 'id,name,access_token,instagram_business_account{id,username}', limit: '100' }).toString()}`;
    const origin = new URL(this.graph).origin;
    for (let i = 0; url && i < MAX_PAGE_LISTS; i++) {
      const answer = await this.call(url, { token: userToken });
      for (const item of Array.isArray(answer.data) ? (answer.data as Record<string, unknown>[]) : []) {
        if (typeof item.id !== 'string' || !/^\d{1,40}$/.test(item.id) || typeof item.access_token !== 'string') continue;
        const ig = item.instagram_business_account as { id?: unknown; username?: unknown } | undefined;
        pages.push({
          id: item.id,
          name: typeof item.name === 'string' ? item.name.slice(0, 120) : item.id,
          accessToken: item.access_token,
          instagram:
            ig && typeof ig.id === 'string' ? { id: ig.id, username: typeof ig.username === 'string' ? ig.username : ig.id } : null,
        });
      }
      const next = (answer.paging as { next?: unknown } | undefined)?.next;
      url = typeof next === 'string' && URL.canParse(next) && new URL(next).origin === origin ? next : null;
    }
    return pages;
  }

  /** Subscribes the page to the app's webhook (messages, deliveries, reads). */
  async subscribe(kind: MetaLoginKind, page: Pick<MetaPage, 'id' | 'accessToken'>): Promise<void> {
    const answer = await this.call(
      `${this.graph}/${encodeURIComponent(page.id)}/subscribed_apps?${new URLSearchParams({ subscribed_fields: SUBSCRIBED_FIELDS[kind] }).toString()}`,
      { method: 'POST', token: page.accessToken },
    );
    if (answer.success !== true) throw new MetaLoginError('refused', 'Meta did not subscribe the page');
  }
}
