import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  ChannelDeliveryError,
  channelAdapters,
  channelDefinition,
  decryptCredentials,
  encryptCredentials,
  isProviderAdapter,
  outboundClient,
  parseSecretsKey,
  providerIdentity,
  type ChannelDefinition,
  type ProviderChannelAdapter,
  WhatsAppWebAdapter,
} from '@atende/channels';
import {
  AppError,
  CHANNEL_SECRET_FIELDS,
  channelTypeFacts,
  missingChannelSettings,
  CHANNEL_SETTING_FIELDS,
  DEFAULT_LIVECHAT_APPEARANCE,
  LivechatAppearanceSchema,
  Uuid,
  type BodyOf,
  type Channel,
  type createChannel,
  type LivechatAppearance,
  type listChannels,
  type QueryOf,
  type updateChannel,
  type WhatsAppWebConnection,
} from '@atende/contract';
import { allows, channelKind, livechatAppearanceProblems } from '@atende/core';
import {
  entryPointExists,
  entryPointNames,
  findStoredFile,
  insertChannel,
  listWorkspaceChannels,
  softDeleteChannel,
  updateChannelRow,
  workspaceChannel,
  type Prisma,
} from '@atende/db';
import type { AppContext } from '../../context';
import { forgetInboundChannel } from '../channels-inbound/service';
import { assertOutboundHost, assertOutboundUrl } from '../../outbound-url';
import { channelAvailability } from './availability';
import { assertIdentityFree, writingIdentity } from './identity';
import type { Session } from '../session/session';
import { pageWindow } from '../../paging';

type ChannelRow = Prisma.ChannelGetPayload<object>;
type Fields = Record<string, string>;

/** A livechat channel's appearance as stored in Channel.config (theme_data, widget_settings, custom_fields), defaults filling gaps. */
export function appearanceOf(config: unknown): LivechatAppearance {
  const c = (config ?? {}) as Record<string, unknown>;
  const parsed = LivechatAppearanceSchema.safeParse({
    theme_data: c.theme_data ?? DEFAULT_LIVECHAT_APPEARANCE.theme_data,
    widget_settings: c.widget_settings ?? DEFAULT_LIVECHAT_APPEARANCE.widget_settings,
    custom_fields: c.custom_fields ?? [],
  });
  return parsed.success ? parsed.data : DEFAULT_LIVECHAT_APPEARANCE;
}

/** Settings the type's adapter would refuse (an e-mail channel's SMTP settings): 422 on the first bad one. */
function checkTypeSettings(definition: ChannelDefinition | null, settings: Fields): void {
  const issue = definition?.settingsIssue?.(settings);
  if (issue) throw new AppError('validation_failed', issue.message, [issue]);
}

/** Whether an update changes what the provider was set up with (definition setUpAgainOn: Telegram's token or address). */
function setUpChanged(
  definition: ChannelDefinition | null,
  change: { given: Fields; stored: Fields; bodySettings: Record<string, unknown>; settings: Fields; config: Record<string, unknown> },
): boolean {
  const on = definition?.setUpAgainOn;
  if (!on) return false;
  const secretChanged = (on.secrets ?? []).some((key) => change.given[key] !== undefined && change.given[key] !== change.stored[key]);
  const settingChanged = (on.settings ?? []).some(
    (key) => change.bodySettings[key] !== undefined && change.settings[key] !== (change.config[key] ?? undefined),
  );
  return secretChanged || settingChanged;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const newSecret = () => randomBytes(24).toString('base64url');

function pick(source: Record<string, unknown>, keys: readonly string[]): Fields {
  const out: Fields = {};
  for (const key of keys) {
    const value = source[key];
    if (typeof value === 'string' && value.trim() !== '') out[key] = value.trim();
  }
  return out;
}

function checkUrl(settings: Fields, key: 'base_url' | 'webhook_url'): void {
  const value = settings[key];
  if (value === undefined) return;
  let ok = false;
  try {
    const url = new URL(value);
    ok = (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
  } catch {
    ok = false;
  }
  if (!ok) throw new AppError('url_invalid', 'Invalid URL', [{ path: key, message: 'Invalid URL' }]);
}

const SWITCH_VALUES: Record<string, 'true' | 'false'> = {
  true: 'true',
  on: 'true',
  '1': 'true',
  false: 'false',
  off: 'false',
  '0': 'false',
};

/** A switch setting (mms_enabled) stored as 'true' or 'false'; anything else is refused. */
function normalizeSwitch(settings: Fields, key: 'mms_enabled'): void {
  const value = settings[key];
  if (value === undefined) return;
  const normalized = SWITCH_VALUES[value.toLowerCase()];
  if (!normalized) throw new AppError('boolean_required', 'Use true or false', [{ path: key, message: 'Use true or false' }]);
  settings[key] = normalized;
}

/** Every provider field present, or a 422 naming the first missing ones. */
function checkComplete(type: string, settings: Fields, secrets: Fields): void {
  const missing = missingChannelSettings(type, (k) => Boolean(settings[k] ?? secrets[k])).map((anyOf) => anyOf.join(' or '));
  if (missing.length) {
    throw new AppError(
      'channel_settings_missing',
      `Missing channel settings: ${missing.join(', ')}`,
      missing.map((m) => ({ path: m.split(' or ')[0]!, message: 'This field is required', code: 'field_required' })),
      { settings: missing.join(', ') },
    );
  }
}

/**
 * A provider's refusal while a channel is set up (or its state read), as the api answers it:
 * credentials refused (a bad bot token or API key, named by `field`) is the admin's to fix; anything
 * else is the provider's answer, or its absence.
 */
function setUpFailure(error: unknown, field: string): AppError {
  if (!(error instanceof ChannelDeliveryError)) throw error;
  if (error.httpStatus === 401 || error.httpStatus === 403 || error.httpStatus === 404) {
    return new AppError('channel_credentials_refused', `The provider refused the channel's credentials: ${error.message}`, [
      { path: field, message: 'The provider refused this token', code: 'channel_token_refused' },
    ]);
  }
  if (error.kind === 'permanent')
    return new AppError('channel_setup_refused', `The provider refused to set the channel up: ${error.message}`, undefined, {
      reason: error.message.slice(0, 300),
    });
  return new AppError('channel_provider_unavailable', `The provider could not be reached to set the channel up: ${error.message}`);
}

export class ChannelService {
  private readonly key: Buffer;

  constructor(
    private readonly ctx: AppContext,
    /** Provider adapters, for channels set up from our side (Telegram setWebhook). */
    private readonly adapters = channelAdapters({ outbound: outboundClient({ allowHosts: ctx.env.OUTBOUND_ALLOW_HOSTS }) }),
  ) {
    this.key = parseSecretsKey(ctx.env.CHANNEL_SECRETS_KEY);
  }

  private providerAdapter(type: string): ProviderChannelAdapter | null {
    const adapter = this.adapters.get(channelKind(type));
    return adapter && isProviderAdapter(adapter) ? adapter : null;
  }

  /**
   * Providers configured from our side check the credentials and get the channel's webhook address
   * and secret now (Telegram getMe + setWebhook), before anything is stored.
   */
  private async setUpAtProvider(id: string, type: string, settings: Fields, secrets: Fields, publicUrl: string): Promise<void> {
    const adapter = this.providerAdapter(type);
    if (!adapter?.setUp) return;
    const url = this.webhookUrl(publicUrl, { id, type });
    if (!url || !secrets.webhook_secret) return;
    try {
      await adapter.setUp({ uuid: id, type, config: settings, credentials: secrets }, { url, secret: secrets.webhook_secret });
    } catch (error) {
      throw setUpFailure(error, channelDefinition(type)?.setUpAgainOn?.secrets?.[0] ?? 'bot_token');
    }
  }

  /** The server calls these addresses (deliveries, provider API): refused ones answer 400 now. */
  private async checkAddresses(settings: Fields, keys: ReadonlyArray<'base_url' | 'webhook_url'>): Promise<void> {
    for (const key of keys) {
      const value = settings[key];
      if (value) await assertOutboundUrl(value, this.ctx.env.OUTBOUND_ALLOW_HOSTS, key);
    }
  }

  /** Servers the channel connects to by host name (definition hostSettings: smtp_host): refused ones answer 400 now. */
  private async checkHosts(definition: ChannelDefinition | null, settings: Fields, changed: (key: string) => boolean): Promise<void> {
    for (const key of definition?.hostSettings ?? []) {
      const value = settings[key];
      if (value && changed(key)) await assertOutboundHost(value, this.ctx.env.OUTBOUND_ALLOW_HOSTS, key);
    }
  }

  /** The secret-bearing address of ours a channel's contacts write to (e-mail's forwarding address), if its type has one. */
  private inboundAddress(row: ChannelRow): string | null {
    const definition = channelDefinition(row.type);
    if (!definition?.inboundAddress || !row.credentialsEncrypted) return null;
    let secrets: Record<string, unknown>;
    try {
      secrets = decryptCredentials(row.credentialsEncrypted, this.key);
    } catch {
      // Credentials sealed with another key cannot be read: the address is not known, the rest of the channel still is.
      return null;
    }
    return definition.inboundAddress({ id: row.id, secrets, emailInboundDomain: this.ctx.env.EMAIL_INBOUND_DOMAIN });
  }

  /** The address providers post their webhooks to. */
  webhookUrl(publicUrl: string, row: Pick<ChannelRow, 'id' | 'type'>): string | null {
    const inbound = channelTypeFacts(row.type)?.inbound;
    if (inbound === 'provider_webhook') return `${publicUrl}/api/v1/channels/${row.id}/webhook`;
    if (inbound === 'token') return `${publicUrl}/api/v1/channels/droz/${row.id}/messages`;
    return null;
  }

  private async present(session: Session, rows: ChannelRow[], publicUrl: string): Promise<Channel[]> {
    const sectorIds = [...new Set(rows.map((r) => r.entrySectorId).filter((v): v is string => v !== null))];
    const menuIds = [...new Set(rows.map((r) => r.entryMenuId).filter((v): v is string => v !== null))];
    const botIds = [...new Set(rows.map((r) => r.entryBotId).filter((v): v is string => v !== null))];
    const [sectors, menus, bots] = await entryPointNames(this.ctx.db, session.tenantId, { sectorIds, menuIds, botIds });
    const availability = await channelAvailability(this.ctx.db, session.tenantId, session.workspaceId, rows);
    const manager = allows(session.roles, 'settings.channels.write');
    return rows.map((row, index) => {
      const config = (row.config ?? {}) as Record<string, unknown>;
      const definition = channelDefinition(row.type);
      const sector = sectors.find((s) => s.id === row.entrySectorId);
      const menu = menus.find((m) => m.id === row.entryMenuId);
      const bot = bots.find((b) => b.id === row.entryBotId);
      return {
        uuid: row.id,
        name: row.name,
        type: row.type,
        enabled: row.enabled,
        availability: availability[index]!,
        template_required_on_outbound_start: row.templateRequiredOnOutboundStart,
        entry_point: menu
          ? { uuid: menu.id, name: menu.name, type: 'menu' as const }
          : bot
            ? { uuid: bot.id, name: bot.name, type: 'bot' as const }
            : sector
              ? { uuid: sector.id, name: sector.name, type: 'sector' as const }
              : null,
        settings: pick(config, CHANNEL_SETTING_FIELDS),
        credentials_set: Array.isArray(config.credentials_set)
          ? config.credentials_set.filter((v): v is string => typeof v === 'string')
          : [],
        api_version: definition?.apiVersionOf?.(config) ?? null,
        webhook_url: this.webhookUrl(publicUrl, row),
        inbound_address: manager ? this.inboundAddress(row) : null,
        appearance: definition?.hasAppearance ? appearanceOf(row.config) : null,
        created_at: row.createdAt.toISOString(),
      };
    });
  }

  private async row(session: Session, id: string): Promise<ChannelRow> {
    const row = await workspaceChannel(this.ctx.db, session, id);
    if (!row) throw new AppError('channel_not_found', 'Channel not found');
    return row;
  }

  /**
   * The columns an entry point sets: a sector (and no menu or bot), or an enabled automated menu or
   * a bot (the sector stays as it was, for whom they hand over); null or '' clears all; undefined
   * changes nothing.
   */
  private async entryPoint(
    session: Session,
    uuid: string | null | undefined,
    type: 'sector' | 'menu' | 'bot' = 'sector',
  ): Promise<{ entrySectorId?: string | null; entryMenuId?: string | null; entryBotId?: string | null }> {
    if (uuid === undefined) return {};
    if (uuid === null || uuid === '') return { entrySectorId: null, entryMenuId: null, entryBotId: null };
    const notFound = () =>
      new AppError('entry_point_unknown', 'Entry point not found', [{ path: 'entry_point', message: 'Entry point not found' }]);
    if (!(await entryPointExists(this.ctx.db, session, type, uuid))) throw notFound();
    if (type === 'menu') return { entryMenuId: uuid, entryBotId: null };
    if (type === 'bot') return { entryBotId: uuid, entryMenuId: null };
    return { entrySectorId: uuid, entryMenuId: null, entryBotId: null };
  }

  async list(session: Session, query: QueryOf<typeof listChannels>, publicUrl: string) {
    const types = query.type
      ?.split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const { rows, total } = await listWorkspaceChannels(this.ctx.db, session, { types, enabled: query.enabled }, pageWindow(query));
    return { data: await this.present(session, rows, publicUrl), pagination: { total, limit: query._limit, offset: query._offset } };
  }

  async get(session: Session, id: string, publicUrl: string): Promise<Channel> {
    return (await this.present(session, [await this.row(session, id)], publicUrl))[0]!;
  }

  async create(session: Session, body: BodyOf<typeof createChannel>, publicUrl: string) {
    // Only types with a definition can carry messages: a channel of another type would accept nothing and send nothing.
    const definition = channelDefinition(body.type);
    if (!definition)
      throw new AppError('channel_type_not_creatable', 'This channel type cannot be created yet', [
        { path: 'type', message: 'This channel type cannot be created yet' },
      ]);
    const settings = pick(body, CHANNEL_SETTING_FIELDS);
    const secrets = pick(body, CHANNEL_SECRET_FIELDS);
    normalizeSwitch(settings, 'mms_enabled');
    checkUrl(settings, 'base_url');
    checkUrl(settings, 'webhook_url');
    await this.checkAddresses(settings, ['base_url', 'webhook_url']);
    const id = randomUUID();
    // The secrets of ours the type needs (webhook_secret), and what the admin is shown once (360dialog's token, e-mail's forwarding address).
    const shownOnce =
      definition.onCreate?.({ id, settings, secrets, newSecret, emailInboundDomain: this.ctx.env.EMAIL_INBOUND_DOMAIN }) ?? null;
    checkComplete(channelKind(body.type), settings, secrets);
    checkTypeSettings(definition, settings);
    await this.checkHosts(definition, settings, () => true);
    const inboundToken = channelTypeFacts(body.type)?.inbound === 'token' ? newSecret() : null;
    const entry = await this.entryPoint(session, body.entry_point, body.entry_point_type);
    // Last before storing: every check of ours has passed, so the provider is not pointed at a channel that will not exist.
    // One page, number or bot, one live channel: refused before the provider is pointed here.
    const identity = providerIdentity({ id, type: body.type, config: settings, credentials: secrets });
    await assertIdentityFree(this.ctx.db, identity, null);
    await this.setUpAtProvider(id, body.type, settings, secrets, publicUrl);
    const row = await writingIdentity(identity, () =>
      insertChannel(this.ctx.db, {
        id,
        tenantId: session.tenantId,
        workspaceId: session.workspaceId,
        name: body.name,
        type: body.type,
        enabled: body.enabled ?? true,
        templateRequiredOnOutboundStart: body.template_required_on_outbound_start ?? false,
        entrySectorId: entry.entrySectorId ?? null,
        entryMenuId: entry.entryMenuId ?? null,
        entryBotId: entry.entryBotId ?? null,
        config: {
          ...settings,
          credentials_set: Object.keys(secrets).sort(),
          ...definition.initialConfig?.({ name: body.name }),
        },
        inboundTokenHash: inboundToken ? hashToken(inboundToken) : null,
        credentialsEncrypted: Object.keys(secrets).length ? encryptCredentials(secrets, this.key) : null,
        providerIdentity: identity?.identity ?? null,
      }),
    );
    return { data: (await this.present(session, [row], publicUrl))[0]!, inbound_token: inboundToken ?? shownOnce };
  }

  async update(session: Session, id: string, body: BodyOf<typeof updateChannel>, publicUrl: string): Promise<Channel> {
    const row = await this.row(session, id);
    const config = { ...((row.config ?? {}) as Record<string, unknown>) };
    const settings = { ...pick(config, CHANNEL_SETTING_FIELDS), ...pick(body.settings ?? {}, CHANNEL_SETTING_FIELDS) };
    // An empty setting removes it.
    for (const [k, v] of Object.entries(body.settings ?? {})) if (v === '') delete settings[k];
    normalizeSwitch(settings, 'mms_enabled');
    checkUrl(settings, 'base_url');
    checkUrl(settings, 'webhook_url');
    // Only the addresses this change sets: the connect-time check guards the stored ones.
    await this.checkAddresses(
      settings,
      (['base_url', 'webhook_url'] as const).filter((k) => body.settings?.[k]),
    );
    const stored = row.credentialsEncrypted ? pick(decryptCredentials(row.credentialsEncrypted, this.key), CHANNEL_SECRET_FIELDS) : {};
    const given = pick(body.credentials ?? {}, CHANNEL_SECRET_FIELDS);
    const definition = channelDefinition(row.type);
    const adapter = this.providerAdapter(row.type);
    // Our webhook secret is not the admin's to set; a new token or address sets the webhook again, with a new secret.
    if (definition?.ownsWebhookSecret) delete given.webhook_secret;
    const secrets = { ...stored, ...given };
    checkComplete(channelKind(row.type), settings, secrets);
    checkTypeSettings(definition, settings);
    // Only the hosts this change sets, like the addresses above.
    await this.checkHosts(definition, settings, (key) => Boolean(body.settings?.[key as keyof typeof body.settings]));
    const changed = setUpChanged(definition, { given, stored, bodySettings: body.settings ?? {}, settings, config });
    const entry = await this.entryPoint(session, body.entry_point, body.entry_point_type);
    if (body.appearance) Object.assign(config, await this.checkedAppearance(session, row, body.appearance));
    const identity = providerIdentity({ id: row.id, type: row.type, config: settings, credentials: secrets });
    await assertIdentityFree(this.ctx.db, identity, row.id);
    if (adapter?.setUp && changed) {
      secrets.webhook_secret = newSecret();
      await this.setUpAtProvider(row.id, row.type, settings, secrets, publicUrl);
    }
    for (const key of CHANNEL_SETTING_FIELDS) delete config[key];
    const updated = await writingIdentity(identity, () =>
      updateChannelRow(this.ctx.db, session.tenantId, row.id, {
        name: body.name,
        enabled: body.enabled,
        templateRequiredOnOutboundStart: body.template_required_on_outbound_start,
        ...entry,
        config: { ...config, ...settings, credentials_set: Object.keys(secrets).sort() },
        ...(body.credentials || secrets.webhook_secret !== stored.webhook_secret
          ? { credentialsEncrypted: Object.keys(secrets).length ? encryptCredentials(secrets, this.key) : null }
          : {}),
        providerIdentity: identity?.identity ?? null,
      }),
    );
    // After the change: an inbound call meanwhile re-reads the stored row.
    forgetInboundChannel(row.id);
    return (await this.present(session, [updated], publicUrl))[0]!;
  }

  /** Only livechat channels have an appearance; its images are files of this tenant or https addresses. */
  private async checkedAppearance(session: Session, row: ChannelRow, appearance: LivechatAppearance): Promise<LivechatAppearance> {
    if (!channelDefinition(row.type)?.hasAppearance)
      throw new AppError('appearance_livechat_only', 'Only livechat channels have an appearance', [
        { path: 'appearance', message: 'Only livechat channels have an appearance' },
      ]);
    const problems = livechatAppearanceProblems(appearance);
    if (problems.length > 0) {
      throw new AppError(
        'validation_failed',
        problems[0]!.message,
        problems.map((p) => ({ path: `appearance.${p.path}`, message: p.message })),
      );
    }
    const images = (['logo', 'avatar', 'background_image'] as const).filter((k) => {
      const value = appearance.widget_settings[k];
      return value !== null && Uuid.safeParse(value).success;
    });
    for (const key of images) {
      const file = await findStoredFile(this.ctx.db, session.tenantId, appearance.widget_settings[key]!);
      if (!file || !file.contentType.startsWith('image/')) {
        throw new AppError('uploaded_image_required', 'Use an uploaded image', [
          { path: `appearance.widget_settings.${key}`, message: 'Use an uploaded image' },
        ]);
      }
    }
    return appearance;
  }

  /** 360dialog on-premise → Cloud API: the adapter then uses the Cloud API paths. Idempotent. */
  async toCloudApi(session: Session, id: string, publicUrl: string): Promise<Channel> {
    const row = await this.row(session, id);
    if (!channelDefinition(row.type)?.apiVersionOf)
      throw new AppError('channel_migration_not_360dialog', 'Only 360dialog channels can move to the Cloud API');
    const config = { ...((row.config ?? {}) as Record<string, unknown>), api_version: 'cloud' };
    const updated = await updateChannelRow(this.ctx.db, session.tenantId, row.id, { config });
    return (await this.present(session, [updated], publicUrl))[0]!;
  }

  /** A WhatsApp Web channel's phone link and QR code, read from its bridge through the guarded client. */
  async whatsAppWebConnection(session: Session, id: string): Promise<WhatsAppWebConnection> {
    const row = await this.row(session, id);
    const adapter = this.adapters.get(channelKind(row.type));
    if (!(adapter instanceof WhatsAppWebAdapter))
      throw new AppError('channel_not_whatsapp_web', 'Only WhatsApp Web channels have a phone to link');
    const credentials = row.credentialsEncrypted ? decryptCredentials(row.credentialsEncrypted, this.key) : null;
    try {
      return await adapter.connection({ uuid: row.id, type: row.type, config: row.config, credentials });
    } catch (error) {
      throw setUpFailure(error, 'api_key');
    }
  }

  /** Soft delete: conversations and messages of the channel stay readable. */
  async remove(session: Session, id: string): Promise<void> {
    const row = await this.row(session, id);
    await softDeleteChannel(this.ctx.db, session.tenantId, row.id);
    forgetInboundChannel(row.id);
  }
}
