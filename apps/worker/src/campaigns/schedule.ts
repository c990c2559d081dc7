import { queues } from '@atende/contract';
import { announceCampaign, campaignLookups, campaignInclude, type ConversationDeps } from '@atende/conversations';
import { enqueue, type Db } from '@atende/db';

export const SCHEDULE_ERRORS = {
  notApproved: 'Você só poderá iniciar a campanha se o modelo estiver aprovado.',
  noSubscribers: 'There are no valid subscribers for this campaign',
  templateDeleted: 'Você não pode iniciar uma campanha que usa um modelo que foi deletado.',
} as const;

/**
 * Starts the scheduled campaigns whose start_at has come (maintenance start-scheduled). Each is
 * claimed by one atomic update, so two schedulers never start one twice; a campaign that cannot
 * start (template not approved or deleted, no valid subscriber) fails with its reasons on the row.
 */
export async function startScheduled(deps: Pick<ConversationDeps, 'realtime'> & { db: Db }, now = new Date()): Promise<{ started: number; failed: number }> {
  const due = await deps.db.campaign.findMany({ where: { state: 'scheduled', desiredState: 'scheduled', startAt: { lte: now }, deletedAt: null }, include: campaignInclude, take: 100 });
  const lookups = await campaignLookups(deps.db, due);
  let started = 0;
  let failed = 0;
  for (const campaign of due) {
    const errors = [
      ...(campaign.template.deletedAt ? [SCHEDULE_ERRORS.templateDeleted] : campaign.template.status.toUpperCase() !== 'APPROVED' ? [SCHEDULE_ERRORS.notApproved] : []),
      ...((lookups.validCounts.get(campaign.id) ?? 0) === 0 ? [SCHEDULE_ERRORS.noSubscribers] : []),
    ];
    const claimed = await deps.db.$transaction(async (tx) => {
      const won = await tx.campaign.updateMany({
        where: { id: campaign.id, state: 'scheduled', desiredState: 'scheduled' },
        data: errors.length ? { state: 'failed', desiredState: 'failed', scheduledStartErrors: errors } : { desiredState: 'running', runNumber: { increment: 1 }, scheduledStartErrors: [] },
      });
      if (won.count === 0 || errors.length) return won.count > 0;
      const { runNumber } = await tx.campaign.findUniqueOrThrow({ where: { id: campaign.id }, select: { runNumber: true } });
      await enqueue(tx, queues.campaignDispatch.name, { tenant_uuid: campaign.tenantId, campaign_uuid: campaign.id, run: runNumber });
      return true;
    });
    if (!claimed) continue;
    if (errors.length) failed++;
    else started++;
    await announceCampaign(deps, campaign.id);
  }
  return { started, failed };
}
