import { CampaignConfigSchema, FINAL_CAMPAIGN_STATES, rooms, TEMPLATE_STATUSES, type Campaign, type EntrypointType, type TemplateStatus } from '@atende/contract';
import type { Db, Prisma } from '@atende/db';
import type { ConversationDeps } from './deps';

/** What a campaign answer needs loaded with the row. */
export const campaignInclude = {
  channel: { select: { id: true, name: true, type: true } },
  template: { select: { id: true, name: true, status: true, deletedAt: true } },
  dndLists: { include: { list: { select: { id: true, name: true } } } },
} as const;
export type CampaignRow = Prisma.CampaignGetPayload<{ include: typeof campaignInclude }>;

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
  const summary = row.importSummary as { imported?: number; ignored?: number; imported_with_error?: number; error_message?: string | null } | null;
  const config = CampaignConfigSchema.safeParse(row.config);
  return {
    uuid: row.id,
    name: row.name,
    mode: row.mode === 'broadcast' ? 'broadcast' : 'conversation',
    state: row.state as Campaign['state'],
    desired_state: row.desiredState as Campaign['desired_state'],
    channel: { uuid: row.channel.id, name: row.channel.name, type: row.channel.type },
    template: { uuid: row.template.id, name: row.template.name, deleted: row.template.deletedAt !== null, config: { status: row.template.deletedAt ? 'DELETED' : upper(row.template.status) } },
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
      ? { imported: summary.imported ?? 0, ignored: summary.ignored ?? 0, imported_with_error: summary.imported_with_error ?? 0, error_message: summary.error_message ?? null }
      : null,
    created_by: lookups.creators.get(row.createdById) ?? null,
    created_at: row.createdAt.toISOString(),
    progress: lookups.progress.get(row.id) ?? { total: 0, sent: 0, errors: 0, dnd: 0, remaining: 0, unknown: 0 },
  };
}

/** The campaign's entry point (spec 001 §3): its menu or bot when set, else its sector. */
export function campaignEntrypoint(row: { entrySectorId: string | null; entryMenuId: string | null; entryBotId: string | null }): { id: string; type: EntrypointType } | null {
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
  const idsOf = (type: EntrypointType) => [...new Set(rows.map(campaignEntrypoint).filter((e) => e?.type === type).map((e) => e!.id))];
  const [sectorIds, menuIds, botIds] = [idsOf('sector'), idsOf('menu'), idsOf('bot')];
  const creatorIds = [...new Set(rows.map((r) => r.createdById))];
  const [counts, sectors, menus, bots, creators] = await Promise.all([
    ids.length ? db.campaignSubscriber.groupBy({ by: ['campaignId', 'state'], where: { campaignId: { in: ids } }, _count: { _all: true } }) : [],
    sectorIds.length ? db.sector.findMany({ where: { id: { in: sectorIds } }, select: { id: true, name: true, deletedAt: true } }) : [],
    menuIds.length ? db.automatedMenu.findMany({ where: { id: { in: menuIds } }, select: { id: true, name: true, enabled: true, deletedAt: true } }) : [],
    botIds.length ? db.bot.findMany({ where: { id: { in: botIds } }, select: { id: true, name: true, deletedAt: true } }) : [],
    creatorIds.length ? db.user.findMany({ where: { id: { in: creatorIds } }, select: { id: true, uuid: true, username: true } }) : [],
  ]);
  const validCounts = new Map<string, number>();
  const progress = new Map<string, CampaignProgress>();
  for (const c of counts) {
    const n = c._count._all;
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
  const row = await deps.db.campaign.findUnique({ where: { id: campaignId }, include: campaignInclude });
  if (!row || row.deletedAt) return;
  const campaign = presentCampaign(row, await campaignLookups(deps.db, [row]));
  await deps.realtime.emit(rooms.campaigns(row.tenantId), 'update-campaign', { tenant_uuid: row.tenantId, campaign });
}

/**
 * Stop (spec 001 §4) for the campaigns `where` picks among those running or about to (running or
 * scheduled): a running one is told to stop (its dispatcher loses the lease before its next batch and
 * sends nothing more), one not running yet is stopped at once. Pending subscribers stay pending, so
 * Start sends them later. The ids of the campaigns stopped, for announcing once committed.
 */
export async function stopCampaigns(tx: Prisma.TransactionClient, where: Prisma.CampaignWhereInput): Promise<string[]> {
  const live = await tx.campaign.findMany({ where: { ...where, deletedAt: null, desiredState: { in: ['running', 'scheduled'] } }, select: { id: true } });
  const ids = live.map((c) => c.id);
  if (!ids.length) return ids;
  await tx.campaign.updateMany({ where: { id: { in: ids }, state: 'running' }, data: { desiredState: 'stopped' } });
  await tx.campaign.updateMany({ where: { id: { in: ids }, state: { not: 'running' } }, data: { desiredState: 'stopped', state: 'stopped' } });
  return ids;
}

/** Receipts still awaited this long after a run ended are not waited for: the campaign completes (issue 14 item 5). */
export const RECEIPTS_WAIT_MS = 24 * 60 * 60 * 1000;
const FINAL = FINAL_CAMPAIGN_STATES as readonly string[];
export const isFinalCampaignState = (state: string): boolean => FINAL.includes(state);

/**
 * Moves a finished campaign to the final state its subscribers say (spec 001 §4 list filters,
 * issue 14 item 5), in one statement, only while it is in a final state and no run holds it:
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
  const changed = await db.$queryRaw<{ id: string }[]>`
    WITH next AS (
      SELECT CASE
        WHEN c."finishedAt" > ${waitFrom} AND EXISTS (SELECT 1 FROM "CampaignSubscriber" s WHERE s."campaignId" = c.id
               AND (s.state = 'unknown' OR (s.state = 'sent' AND COALESCE(s.delivery, 'sent') = 'sent'))) THEN 'sent'
        WHEN EXISTS (SELECT 1 FROM "CampaignSubscriber" s WHERE s."campaignId" = c.id AND s.state = 'completed') THEN 'completed_with_engagement'
        ELSE 'completed' END AS state
      FROM "Campaign" c WHERE c.id = ${campaignId}::uuid)
    UPDATE "Campaign" c SET state = next.state, "desiredState" = next.state, "updatedAt" = now()
    FROM next
    WHERE c.id = ${campaignId}::uuid AND c.state = ANY(${FINAL}::text[]) AND c."desiredState" = c.state AND c."dispatchOwner" IS NULL AND c.state <> next.state
    RETURNING c.id`;
  return changed.length > 0;
}
