import {
  CampaignConfigSchema,
  FINAL_CAMPAIGN_STATES,
  rooms,
  TEMPLATE_STATUSES,
  type Campaign,
  type EntrypointType,
  type TemplateStatus,
} from '@atende/contract';
import {
  campaignCreators,
  campaignInclude,
  campaignRowById,
  entrypointsByIds,
  settleFinishedCampaign,
  stopTenantCampaigns,
  subscriberStateCounts,
  type CampaignRow,
  type Db,
  type Prisma,
} from '@atende/db';
import type { ConversationDeps } from './deps';

export { campaignInclude, type CampaignRow };

export type CampaignProgress = Campaign['progress'];
export interface CampaignLookups {
  validCounts: Map<string, number>;
  /** Entry points by id: name, and whether a reply can still go there. */
  entrypoints: Map<string, { name: string; enabled: boolean }>;
  progress: Map<string, CampaignProgress>;
  creators: Map<number, { uuid: string; username: string }>;
}

/** Subscribers a campaign can still reach: not on a DND list, not failed (unknown: its message may have reached them). */
export const VALID_SUBSCRIBER_STATES = ['pending', 'scheduled', 'sending', 'sent', 'unknown', 'completed'];

const upper = (status: string): TemplateStatus => {
  const s = status.toUpperCase();
  return (TEMPLATE_STATUSES as readonly string[]).includes(s) ? (s as TemplateStatus) : 'PENDING';
};
const IMPORT = new Set(['pending', 'in_progress', 'done']);

export function presentCampaign(row: CampaignRow, lookups: CampaignLookups): Campaign {
  const summary = row.importSummary as {
    imported?: number;
    ignored?: number;
    imported_with_error?: number;
    error_message?: string | null;
  } | null;
  const config = CampaignConfigSchema.safeParse(row.config);
  return {
    uuid: row.id,
    name: row.name,
    mode: row.mode === 'broadcast' ? 'broadcast' : 'conversation',
    state: row.state as Campaign['state'],
    desired_state: row.desiredState as Campaign['desired_state'],
    channel: { uuid: row.channel.id, name: row.channel.name, type: row.channel.type },
    template: {
      uuid: row.template.id,
      name: row.template.name,
      deleted: row.template.deletedAt !== null,
      config: { status: row.template.deletedAt ? 'DELETED' : upper(row.template.status) },
    },
    valid_subscriber_count: lookups.validCounts.get(row.id) ?? 0,
    inbound_entrypoint: presentEntrypoint(row, lookups),
    actions_outdated: row.actionsOutdated,
    dnd_list: row.dndLists.map((d) => ({ uuid: d.list.id, name: d.list.name })),
    config: config.success ? config.data : { default_action: { action: 'end_with_message' }, reply_actions: {} },
    public: row.isPublic,
    start_at: row.startAt?.toISOString() ?? null,
    started_at: row.startedAt?.toISOString() ?? null,
    scheduled_start_errors: row.scheduledStartErrors,
    import_status: row.importStatus && IMPORT.has(row.importStatus) ? (row.importStatus as Campaign['import_status']) : null,
    import_summary: summary
      ? {
          imported: summary.imported ?? 0,
          ignored: summary.ignored ?? 0,
          imported_with_error: summary.imported_with_error ?? 0,
          error_message: summary.error_message ?? null,
        }
      : null,
    created_by: lookups.creators.get(row.createdById) ?? null,
    created_at: row.createdAt.toISOString(),
    progress: lookups.progress.get(row.id) ?? { total: 0, sent: 0, errors: 0, dnd: 0, remaining: 0, unknown: 0 },
  };
}

/** The campaign's entry point: its menu or bot when set, else its sector. */
export function campaignEntrypoint(row: {
  entrySectorId: string | null;
  entryMenuId: string | null;
  entryBotId: string | null;
}): { id: string; type: EntrypointType } | null {
  if (row.entryMenuId) return { id: row.entryMenuId, type: 'menu' };
  if (row.entryBotId) return { id: row.entryBotId, type: 'bot' };
  return row.entrySectorId ? { id: row.entrySectorId, type: 'sector' } : null;
}

function presentEntrypoint(row: CampaignRow, lookups: CampaignLookups): Campaign['inbound_entrypoint'] {
  const entry = campaignEntrypoint(row);
  const found = entry ? lookups.entrypoints.get(entry.id) : undefined;
  return entry && found ? { uuid: entry.id, name: found.name, type: entry.type, enabled: found.enabled } : null;
}

/** The counts and names campaign answers need, for a page of rows in a handful of queries. */
export async function campaignLookups(db: Db | Prisma.TransactionClient, rows: CampaignRow[]): Promise<CampaignLookups> {
  const ids = rows.map((r) => r.id);
  const idsOf = (type: EntrypointType) => [
    ...new Set(
      rows
        .map(campaignEntrypoint)
        .filter((e) => e?.type === type)
        .map((e) => e!.id),
    ),
  ];
  const [sectorIds, menuIds, botIds] = [idsOf('sector'), idsOf('menu'), idsOf('bot')];
  const creatorIds = [...new Set(rows.map((r) => r.createdById))];
  const [counts, { sectors, menus, bots }, creators] = await Promise.all([
    subscriberStateCounts(db, ids),
    entrypointsByIds(db, { sectorIds, menuIds, botIds }),
    campaignCreators(db, creatorIds),
  ]);
  const validCounts = new Map<string, number>();
  const progress = new Map<string, CampaignProgress>();
  for (const c of counts) {
    const n = c.count;
    if (VALID_SUBSCRIBER_STATES.includes(c.state)) validCounts.set(c.campaignId, (validCounts.get(c.campaignId) ?? 0) + n);
    const p = progress.get(c.campaignId) ?? { total: 0, sent: 0, errors: 0, dnd: 0, remaining: 0, unknown: 0 };
    p.total += n;
    if (c.state === 'sent' || c.state === 'completed') p.sent += n;
    else if (c.state === 'error') p.errors += n;
    else if (c.state === 'dnd') p.dnd += n;
    else if (c.state === 'unknown') p.unknown += n;
    else p.remaining += n;
    progress.set(c.campaignId, p);
  }
  return {
    validCounts,
    progress,
    entrypoints: new Map([
      ...sectors.map((s) => [s.id, { name: s.name, enabled: s.deletedAt === null }] as const),
      ...menus.map((m) => [m.id, { name: m.name, enabled: m.enabled && m.deletedAt === null }] as const),
      ...bots.map((b) => [b.id, { name: b.name, enabled: b.deletedAt === null }] as const),
    ]),
    creators: new Map(creators.map((u) => [u.id, { uuid: u.uuid, username: u.username }])),
  };
}

/** Tells open campaign screens (room campaigns_{tenant}) that a campaign changed. */
export async function announceCampaign(deps: Pick<ConversationDeps, 'db' | 'realtime'>, campaignId: string): Promise<void> {
  const row = await campaignRowById(deps.db, campaignId);
  if (!row || row.deletedAt) return;
  const campaign = presentCampaign(row, await campaignLookups(deps.db, [row]));
  await deps.realtime.emit(rooms.campaigns(row.tenantId), 'update-campaign', { tenant_uuid: row.tenantId, campaign });
}

/**
 * Stop for the tenant's campaigns (of one channel, with `channelId`: a WhatsApp Web phone that
 * disconnected) running or about to (running or scheduled): a running one is told to stop (its dispatcher loses the lease before its next batch and
 * sends nothing more), one not running yet is stopped at once. Pending subscribers stay pending, so
 * Start sends them later. The ids of the campaigns stopped, for announcing once committed.
 */
export function stopCampaigns(tx: Prisma.TransactionClient, where: { tenantId: string; channelId?: string }): Promise<string[]> {
  return stopTenantCampaigns(tx, where.tenantId, where.channelId);
}

/** Receipts still awaited this long after a run ended are not waited for: the campaign completes. */
export const RECEIPTS_WAIT_MS = 24 * 60 * 60 * 1000;
const FINAL = FINAL_CAMPAIGN_STATES as readonly string[];
export const isFinalCampaignState = (state: string): boolean => FINAL.includes(state);

/**
 * Moves a finished campaign to the final state its subscribers say (list filters),
 * in one statement, only while it is in a final state and no run holds it:
 * - sent: some accepted message has no final receipt yet (neither delivered, read, failed nor
 *   replied to), or some send's outcome is unknown (its receipts may still settle it),
 *   and the run ended less than RECEIPTS_WAIT_MS ago;
 * - completed_with_engagement: otherwise, when a subscriber replied;
 * - completed: otherwise.
 * A reply (subscriber state completed) counts as a final receipt. Returns whether
 * the state changed (the caller announces it). Called when a run ends, on receipts and replies of
 * a campaign in 'sent', and by the maintenance sweep once the wait is over.
 */
export async function settleCampaign(db: Db | Prisma.TransactionClient, campaignId: string, now = new Date()): Promise<boolean> {
  const waitFrom = new Date(now.getTime() - RECEIPTS_WAIT_MS);
  return settleFinishedCampaign(db, campaignId, waitFrom, FINAL);
}
