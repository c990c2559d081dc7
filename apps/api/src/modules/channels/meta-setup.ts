import { randomBytes } from 'node:crypto';
import {
  decryptSecret,
  encryptSecret,
  GRAPH_BASE_URL,
  MetaLoginClient,
  MetaLoginError,
  metaDialogUrl,
  outboundClient,
  parseSecretsKey,
  providerIdentity,
  type MetaLoginConfig,
  type MetaPage,
} from '@atende/channels';
import {
  AppError,
  type BodyOf,
  type connectMetaSetup,
  type listMetaSetupPages,
  type MetaSetupKind,
  type MetaSetupPage,
} from '@atende/contract';
import { workspaceChannelsOfPages } from '@atende/db';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { invalidState, META_SETUP_STATE_TTL_MS, readMetaSetupState, signMetaSetupState } from './meta-setup-state';
import { assertIdentityFree } from './identity';
import type { ChannelService } from './service';

/** Meta's refusal or absence during the login, as the api answers it. */
function loginFailure(error: unknown): AppError {
  if (!(error instanceof MetaLoginError)) throw error;
  if (error.kind === 'unavailable') return new AppError('channel_provider_unavailable', `Meta could not be reached: ${error.message}`);
  return new AppError('meta_login_refused', `Meta refused the login: ${error.message}`);
}

const trimmed = (url: string) => url.replace(/\/+$/, '');

/**
 * The /messenger-setup and /instagram-setup flow: start (the dialog's address and a
 * signed state whose redirect comes back to the setup screen), pages (the code exchanged on the
 * server; the pages and their tokens kept encrypted in Redis under the state's nonce, never sent to
 * the browser) and connect (the page subscribed to the app and its channel created or updated
 * through the channels service, credentials encrypted like any channel's).
 */
export class MetaSetupService {
  private readonly key: Buffer;

  constructor(
    private readonly ctx: AppContext,
    private readonly channels: ChannelService,
    private readonly fetchImpl: typeof fetch = outboundClient({ allowHosts: ctx.env.OUTBOUND_ALLOW_HOSTS }).fetch,
  ) {
    this.key = parseSecretsKey(ctx.env.CHANNEL_SECRETS_KEY);
  }

  private config(kind: MetaSetupKind): MetaLoginConfig {
    const { env } = this.ctx;
    if (!env.META_APP_ID || !env.META_APP_SECRET)
      throw new AppError(
        'meta_setup_not_configured',
        'Connecting with Facebook is not configured on this server (META_APP_ID, META_APP_SECRET)',
      );
    const instagram = kind === 'instagram';
    return {
      appId: env.META_APP_ID,
      appSecret: env.META_APP_SECRET,
      graphBaseUrl: (instagram && env.META_INSTAGRAM_GRAPH_URL) || env.META_GRAPH_URL,
      dialogBaseUrl: (instagram && env.META_INSTAGRAM_DIALOG_URL) || env.META_DIALOG_URL,
    };
  }

  /** Meta sends the browser back to the setup screen; the exchange repeats this exact address. */
  private redirectUri = (publicUrl: string, kind: MetaSetupKind) => `${publicUrl}/${kind}-setup`;
  private redisKey = (nonce: string) => `${this.ctx.env.REDIS_PREFIX}meta-setup:${nonce}`;

  private async keptPages(nonce: string): Promise<MetaPage[] | null> {
    const sealed = await this.ctx.redis.get(this.redisKey(nonce));
    return sealed ? (JSON.parse(decryptSecret(sealed, this.key)) as MetaPage[]) : null;
  }

  /** This workspace's channels of `kind` connected to these pages, by page id (the oldest when several). */
  private async connected(session: Session, kind: MetaSetupKind, pageIds: string[]): Promise<Map<string, { uuid: string; name: string }>> {
    const rows = await workspaceChannelsOfPages(this.ctx.db, session, kind, pageIds);
    const found = new Map<string, { uuid: string; name: string }>();
    for (const row of rows) {
      const pageId = (row.config as Record<string, unknown> | null)?.page_id;
      if (typeof pageId === 'string' && !found.has(pageId)) found.set(pageId, { uuid: row.id, name: row.name });
    }
    return found;
  }

  start(session: Session, kind: MetaSetupKind, publicUrl: string) {
    const config = this.config(kind);
    const state = signMetaSetupState(session, kind, this.ctx.env.JWT_SECRET);
    return { dialog_url: metaDialogUrl(config, kind, this.redirectUri(publicUrl, kind), state), state };
  }

  async pages(
    session: Session,
    body: BodyOf<typeof listMetaSetupPages>,
    publicUrl: string,
  ): Promise<{ kind: MetaSetupKind; pages: MetaSetupPage[] }> {
    const { kind, nonce } = readMetaSetupState(body.state, session, this.ctx.env.JWT_SECRET);
    // A reload of the screen brings the used code again: the login already made answers it.
    let pages = await this.keptPages(nonce);
    if (!pages) {
      const client = new MetaLoginClient(this.config(kind), this.fetchImpl);
      try {
        const userToken = await client.userToken(body.code, this.redirectUri(publicUrl, kind));
        pages = (await client.pages(userToken)).filter((p) => kind === 'messenger' || p.instagram);
      } catch (error) {
        throw loginFailure(error);
      }
      if (!pages.length) {
        throw new AppError(
          'meta_no_pages',
          kind === 'instagram'
            ? 'None of your Facebook pages has an Instagram professional account linked'
            : 'Your Facebook account manages no page',
        );
      }
      await this.ctx.redis.set(this.redisKey(nonce), encryptSecret(JSON.stringify(pages), this.key), 'PX', META_SETUP_STATE_TTL_MS);
    }
    const channels = await this.connected(
      session,
      kind,
      pages.map((p) => p.id),
    );
    return {
      kind,
      pages: pages.map((p) => ({
        id: p.id,
        name: p.name,
        instagram_username: p.instagram?.username ?? null,
        channel: channels.get(p.id) ?? null,
      })),
    };
  }

  async connect(session: Session, body: BodyOf<typeof connectMetaSetup>, publicUrl: string) {
    const { kind, nonce } = readMetaSetupState(body.state, session, this.ctx.env.JWT_SECRET);
    const pages = await this.keptPages(nonce);
    if (!pages) throw invalidState();
    const page = pages.find((p) => p.id === body.page_id && (kind === 'messenger' || p.instagram));
    if (!page)
      throw new AppError('meta_page_not_chosen', 'Choose one of the pages of your Facebook login', [
        { path: 'page_id', message: 'Choose one of the pages of your Facebook login' },
      ]);
    // The Instagram account's id: Meta's webhooks to the app name it, not the page (webhooks.ts).
    const account = kind === 'instagram' && page.instagram ? { instagram_account_id: page.instagram.id } : {};
    const existing = (await this.connected(session, kind, [page.id])).get(page.id);
    // A page (an Instagram account) is one channel's: its webhooks could not tell two apart. Asked
    // before subscribing the page to our app; the channels service's write, under the unique index
    // on the identity, is the guarantee.
    await assertIdentityFree(
      this.ctx.db,
      providerIdentity({ id: existing?.uuid ?? '', type: kind, config: { page_id: page.id, ...account }, credentials: null }),
      existing?.uuid ?? null,
    );
    const config = this.config(kind);
    try {
      await new MetaLoginClient(config, this.fetchImpl).subscribe(kind, page);
    } catch (error) {
      throw loginFailure(error);
    }
    const baseUrl = trimmed(config.graphBaseUrl) === GRAPH_BASE_URL ? '' : trimmed(config.graphBaseUrl);
    const credentials = {
      access_token: page.accessToken,
      app_secret: config.appSecret,
      ...(this.ctx.env.META_VERIFY_TOKEN ? { verify_token: this.ctx.env.META_VERIFY_TOKEN } : {}),
    };
    const entry = body.entry_point === undefined ? {} : { entry_point: body.entry_point || null, entry_point_type: body.entry_point_type };
    if (existing) {
      const data = await this.channels.update(
        session,
        existing.uuid,
        { settings: { page_id: page.id, base_url: baseUrl, ...account }, credentials, ...entry },
        publicUrl,
      );
      return { data, created: false };
    }
    const name = (kind === 'instagram' && page.instagram ? `@${page.instagram.username}` : page.name).slice(0, 120);
    const { data } = await this.channels.create(
      session,
      {
        name,
        type: kind,
        page_id: page.id,
        ...account,
        ...(baseUrl ? { base_url: baseUrl } : {}),
        verify_token: randomBytes(18).toString('base64url'),
        ...credentials,
        ...(body.entry_point ? { entry_point: body.entry_point, entry_point_type: body.entry_point_type } : {}),
      },
      publicUrl,
    );
    return { data, created: true };
  }
}
