import {
  AppError,
  CampaignConfigSchema,
  DEFAULT_ACTION,
  queues,
  type BodyOf,
  type Campaign,
  type CampaignConfig,
  type createCampaign,
  type EntrypointInput,
  type listCampaigns,
  type QueryOf,
  type ReplyAction,
  type updateCampaign,
  type ErrorCode,
} from '@atende/contract';
import {
  announceCampaign,
  campaignEntrypoint,
  campaignLookups,
  isFinalCampaignState,
  presentCampaign,
  presentTemplate,
  type CampaignRow,
} from '@atende/conversations';
import { hasAnyRole, isTemplateChannel, quickReplyTexts } from '@atende/core';
import {
  campaignEntrypointChoices,
  countLiveDndLists,
  enqueue,
  findLiveDndList,
  findVisibleCampaign,
  insertCampaign,
  insertDndList,
  listVisibleCampaigns,
  liveBotInWorkspace,
  liveChannelTemplate,
  liveSectorId,
  liveWorkspaceBotId,
  liveWorkspaceChannel,
  liveWorkspaceMenu,
  liveWorkspaceSectorId,
  replaceCampaignDndLists,
  requestCampaignRun,
  requestCampaignStop,
  softDeleteCampaign,
  templateRowById,
  updateCampaignSettings,
  withTransaction,
  type CampaignChanges,
  type CampaignViewer,
  type Prisma,
} from '@atende/db';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { pageWindow } from '../../paging';

type Tx = Prisma.TransactionClient;
const fail = (code: ErrorCode, path: string, message: string, params?: Record<string, string | number>) =>
  new AppError(code, message, [{ path, message, code, params }], params);

export const START_MESSAGES = {
  notApproved: 'Você só poderá iniciar a campanha se o modelo estiver aprovado.',
  noSubscribers: 'There are no valid subscribers for this campaign',
  templateDeleted: 'Você não pode iniciar uma campanha que usa um modelo que foi deletado.',
  editDeleted: 'Você não pode editar uma campanha que usa um template que foi deletado.',
  deleteRunning: 'Você não pode deletar uma campanha que está rodando.',
  actionsOutdated: "The template's buttons changed: save the campaign's button actions again before starting it",
  /** A finished campaign starts again only as a run for newly added subscribers. */
  nothingPending: 'Every subscriber of this campaign has been sent to: add new subscribers to send again',
} as const;

export class CampaignService {
  constructor(private readonly ctx: AppContext) {}

  /** Campaigns the caller sees: their own, public ones, and every one for admins. */
  private viewer(session: Session): CampaignViewer {
    return {
      tenantId: session.tenantId,
      workspaceId: session.workspaceId,
      userId: session.userId,
      admin: hasAnyRole(session.roles, ['admin']),
    };
  }

  async row(session: Session, id: string): Promise<CampaignRow> {
    const row = await findVisibleCampaign(this.ctx.db, this.viewer(session), id);
    if (!row) throw new AppError('campaign_not_found', 'Campaign not found');
    return row;
  }

  async present(session: Session, rows: CampaignRow[]): Promise<Campaign[]> {
    // Rows are the tenant's already; the lookups go by their ids.
    const lookups = await campaignLookups(this.ctx.db, rows);
    return rows.map((r) => presentCampaign(r, lookups));
  }

  async list(session: Session, query: QueryOf<typeof listCampaigns>) {
    const filter = { onlyMine: query.only_my_campaigns, state: query.state, name: query.name };
    const { rows, total } = await listVisibleCampaigns(this.ctx.db, this.viewer(session), filter, pageWindow(query));
    return { data: await this.present(session, rows), pagination: { total, limit: query._limit, offset: query._offset } };
  }

  async get(session: Session, id: string): Promise<Campaign> {
    return (await this.present(session, [await this.row(session, id)]))[0]!;
  }

  /** What the wizard offers as entry points, grouped by type, by name. */
  async entrypoints(session: Session): Promise<{ uuid: string; name: string; type: 'sector' | 'menu' | 'bot'; enabled: boolean }[]> {
    const { sectors, menus, bots } = await campaignEntrypointChoices(this.ctx.db, session);
    return [
      ...sectors.map((x) => ({ uuid: x.id, name: x.name, type: 'sector' as const, enabled: true })),
      ...menus.map((x) => ({ uuid: x.id, name: x.name, type: 'menu' as const, enabled: x.enabled })),
      ...bots.map((x) => ({ uuid: x.id, name: x.name, type: 'bot' as const, enabled: true })),
    ];
  }

  /** One action per quick-reply button of the template, each pointing at things that exist. */
  private async checkConfig(tx: Tx, session: Session, config: CampaignConfig, buttons: string[]): Promise<void> {
    const unknown = Object.keys(config.reply_actions).filter((k) => !buttons.includes(k));
    if (unknown.length)
      throw fail('campaign_reply_action_unknown_buttons', 'config.reply_actions', `The template has no button ${unknown.join(', ')}`, {
        buttons: unknown.join(', '),
      });
    for (const button of buttons)
      if (!config.reply_actions[button])
        throw fail('campaign_reply_action_required', `config.reply_actions.${button}`, 'Action is required');
    const actions: [string, ReplyAction][] = [[DEFAULT_ACTION, config.default_action], ...Object.entries(config.reply_actions)];
    for (const [key, action] of actions) {
      if (action.action === 'chatbot_outbound') {
        const bot = await liveBotInWorkspace(tx, session.workspaceId, action.bot_uuid);
        if (!bot) throw fail('bot_unknown', `config.${key}.bot_uuid`, 'Bot not found');
      }
      if (action.action === 'transfer_to_sector') {
        const sector = await liveSectorId(tx, session.tenantId, action.sector_uuid);
        if (!sector) throw fail('sector_unknown', `config.${key}.sector_uuid`, 'Sector not found');
      }
      if (action.action === 'end_dnd') {
        const found = await countLiveDndLists(tx, session.tenantId, action.dnd_list);
        if (found !== new Set(action.dnd_list).size)
          throw fail('dnd_list_unknown', `config.${key}.dnd_list`, 'Do not disturb list not found');
      }
    }
  }

  /** "At least one DND list is required (where the campaign uses DND)": a campaign with an end_dnd action consults one. */
  private requireDnd(config: CampaignConfig, lists: unknown[]): void {
    const usesDnd = [config.default_action, ...Object.values(config.reply_actions)].some((a) => a.action === 'end_dnd');
    if (usesDnd && lists.length === 0) {
      throw new AppError('dnd_list_required', 'At least one DND list is required', [
        { path: 'dnd_list', message: 'At least one DND list is required' },
      ]);
    }
  }

  /** The payload's DND lists: existing ones checked, new ones (uuid null) created. */
  private async dndLists(tx: Tx, session: Session, lists: { uuid: string | null; name: string }[]): Promise<string[]> {
    const ids: string[] = [];
    for (const list of lists) {
      if (list.uuid) {
        const found = await findLiveDndList(tx, session.tenantId, list.uuid);
        if (!found) throw fail('dnd_list_unknown', 'dnd_list', 'Do not disturb list not found');
        ids.push(found.id);
      } else {
        ids.push((await insertDndList(tx, session.tenantId, list.name)).id);
      }
    }
    return [...new Set(ids)];
  }

  /**
   * The columns of the payload's entry point (a sector, a menu or a bot of this
   * workspace); exactly one is set, null clears all, undefined changes nothing. A bare uuid is a sector.
   */
  private async entrypoint(
    tx: Tx,
    session: Session,
    input: EntrypointInput | null | undefined,
  ): Promise<{ entrySectorId: string | null; entryMenuId: string | null; entryBotId: string | null } | undefined> {
    if (input === undefined) return undefined;
    if (input === null) return { entrySectorId: null, entryMenuId: null, entryBotId: null };
    const { uuid, type } = typeof input === 'string' ? { uuid: input, type: 'sector' as const } : input;
    const notFound = () =>
      new AppError('entrypoint_not_found', 'Entry point not found', [{ path: 'inbound_entrypoint', message: 'Entry point not found' }]);
    if (type === 'menu') {
      const menu = await liveWorkspaceMenu(tx, session, uuid);
      if (!menu) throw notFound();
      if (!menu.enabled)
        throw new AppError('entrypoint_disabled', 'This menu is disabled', [
          { path: 'inbound_entrypoint', message: 'This menu is disabled' },
        ]);
      return { entrySectorId: null, entryMenuId: menu.id, entryBotId: null };
    }
    if (type === 'bot') {
      const bot = await liveWorkspaceBotId(tx, session, uuid);
      if (!bot) throw notFound();
      return { entrySectorId: null, entryMenuId: null, entryBotId: bot };
    }
    const sector = await liveWorkspaceSectorId(tx, session, uuid);
    if (!sector) throw notFound();
    return { entrySectorId: sector, entryMenuId: null, entryBotId: null };
  }

  private startAt(value: string | null | undefined): Date | null | undefined {
    if (value === undefined || value === null) return value;
    const at = new Date(value);
    if (at.getTime() <= Date.now()) throw fail('campaign_schedule_past', 'start_at', 'The schedule must be in the future');
    return at;
  }

  async create(session: Session, body: BodyOf<typeof createCampaign>): Promise<Campaign> {
    const id = await withTransaction(this.ctx.db, async (tx) => {
      const channel = await liveWorkspaceChannel(tx, session, body.channel_uuid);
      if (!channel || !isTemplateChannel(channel.type)) throw fail('campaign_channel_required', 'channel_uuid', 'Channel is required');
      const templateRow = await liveChannelTemplate(tx, channel.id, body.whatsapp_template_uuid);
      if (!templateRow) throw fail('campaign_template_choice_required', 'whatsapp_template_uuid', 'Please, select a template');
      const template = presentTemplate(templateRow);
      if (template.config.status !== 'APPROVED')
        throw fail('campaign_template_choice_unapproved', 'whatsapp_template_uuid', START_MESSAGES.notApproved);
      await this.checkConfig(tx, session, body.config, quickReplyTexts(template.config.components));
      this.requireDnd(body.config, body.dnd_list);
      const dnd = await this.dndLists(tx, session, body.dnd_list);
      const startAt = this.startAt(body.start_at) ?? null;
      return insertCampaign(tx, {
        tenantId: session.tenantId,
        workspaceId: session.workspaceId,
        name: body.name,
        mode: body.mode,
        channelId: channel.id,
        templateId: templateRow.id,
        ...(await this.entrypoint(tx, session, body.inbound_entrypoint)),
        config: body.config,
        isPublic: body.public,
        startAt,
        state: startAt ? 'scheduled' : 'stopped',
        desiredState: startAt ? 'scheduled' : 'stopped',
        createdById: session.userId,
        dndListIds: dnd,
      });
    });
    await announceCampaign(this.ctx, id);
    return this.get(session, id);
  }

  async update(session: Session, id: string, body: BodyOf<typeof updateCampaign>): Promise<Campaign> {
    if (body.campaignUuid && body.campaignUuid !== id)
      throw fail('campaign_body_mismatch', 'campaignUuid', 'The campaign in the body is not the one in the path');
    const current = await this.row(session, id);
    if (current.template.deletedAt) throw new AppError('campaign_template_deleted_edit', START_MESSAGES.editDeleted);
    await withTransaction(this.ctx.db, async (tx) => {
      const template = presentTemplate(await templateRowById(tx, current.templateId));
      if (body.config) await this.checkConfig(tx, session, body.config, quickReplyTexts(template.config.components));
      const config = body.config ?? CampaignConfigSchema.safeParse(current.config).data;
      if (config && (body.config || body.dnd_list)) this.requireDnd(config, body.dnd_list ?? current.dndLists);
      // Saved against the template's current buttons: the flag of a template change is cleared.
      const data: CampaignChanges = {
        mode: body.mode,
        isPublic: body.public,
        ...(body.config ? { config: body.config, actionsOutdated: false } : {}),
      };
      // The entry point it already has is kept as is, even if switched off since: only a change is checked.
      if (!sameEntrypoint(current, body.inbound_entrypoint))
        Object.assign(data, await this.entrypoint(tx, session, body.inbound_entrypoint));
      if (body.start_at !== undefined) {
        // Once started, the schedule is settled.
        if (current.startedAt) throw fail('campaign_schedule_locked', 'start_at', 'The schedule cannot change once the campaign started');
        const startAt = this.startAt(body.start_at);
        data.startAt = startAt;
        if (current.state !== 'running')
          Object.assign(data, startAt ? { state: 'scheduled', desiredState: 'scheduled' } : { state: 'stopped', desiredState: 'stopped' });
      }
      if (body.dnd_list) {
        const dnd = await this.dndLists(tx, session, body.dnd_list);
        await replaceCampaignDndLists(tx, id, dnd);
      }
      await updateCampaignSettings(tx, id, data);
    });
    await announceCampaign(this.ctx, id);
    return this.get(session, id);
  }

  async remove(session: Session, id: string): Promise<void> {
    const current = await this.row(session, id);
    if (current.state === 'running' || current.desiredState === 'running')
      throw new AppError('campaign_running_delete', START_MESSAGES.deleteRunning);
    await softDeleteCampaign(this.ctx.db, session.tenantId, current.id);
  }

  /** Start rules; the worker's dispatcher does the sending, stop takes effect within seconds. */
  async setDesiredState(session: Session, id: string, desired: 'running' | 'stopped'): Promise<Campaign> {
    const current = await this.row(session, id);
    if (desired === 'running') {
      if (current.template.deletedAt) throw new AppError('campaign_template_deleted', START_MESSAGES.templateDeleted);
      if (current.template.status.toUpperCase() !== 'APPROVED')
        throw new AppError('campaign_template_not_approved', START_MESSAGES.notApproved);
      if (current.actionsOutdated) throw new AppError('campaign_actions_outdated', START_MESSAGES.actionsOutdated);
      const [campaign] = await this.present(session, [current]);
      if (!campaign || campaign.valid_subscriber_count === 0) throw new AppError('campaign_no_subscribers', START_MESSAGES.noSubscribers);
      if (isFinalCampaignState(current.state) && campaign.progress.remaining === 0)
        throw new AppError('campaign_nothing_pending', START_MESSAGES.nothingPending);
    } else if (isFinalCampaignState(current.state) && current.desiredState === current.state) {
      // Nothing runs to stop: a finished campaign keeps its final state (a new run being started is
      // stopped as any run is, and the campaign is then 'stopped' with its pending subscribers).
      return this.get(session, id);
    }
    await withTransaction(this.ctx.db, async (tx) => {
      if (desired === 'running') {
        const run = await requestCampaignRun(tx, id);
        await enqueue(tx, queues.campaignDispatch.name, { tenant_uuid: session.tenantId, campaign_uuid: id, run });
      } else {
        await requestCampaignStop(tx, id, current.state === 'running');
      }
    });
    await announceCampaign(this.ctx, id);
    return this.get(session, id);
  }
}

function sameEntrypoint(current: CampaignRow, input: EntrypointInput | null | undefined): boolean {
  if (!input) return false;
  const { uuid, type } = typeof input === 'string' ? { uuid: input, type: 'sector' as const } : input;
  const entry = campaignEntrypoint(current);
  return entry !== null && entry.id === uuid && entry.type === type;
}
