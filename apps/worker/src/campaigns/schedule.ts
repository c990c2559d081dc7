import { queues } from '@atende/contract';
import { announceCampaign, campaignLookups, type ConversationDeps } from '@atende/conversations';
import { campaignRunNumber, claimScheduledStart, dueScheduledCampaigns, enqueue, withTransaction, type Db } from '@atende/db';

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
export async function startScheduled(
  deps: Pick<ConversationDeps, 'realtime'> & { db: Db },
  now = new Date(),
): Promise<{ started: number; failed: number }> {
  const due = await dueScheduledCampaigns(deps.db, now);
  const lookups = await campaignLookups(deps.db, due);
  let started = 0;
  let failed = 0;
  for (const campaign of due) {
    const errors = [
      ...(campaign.template.deletedAt
        ? [SCHEDULE_ERRORS.templateDeleted]
        : campaign.template.status.toUpperCase() !== 'APPROVED'
          ? [SCHEDULE_ERRORS.notApproved]
          : []),
      ...((lookups.validCounts.get(campaign.id) ?? 0) === 0 ? [SCHEDULE_ERRORS.noSubscribers] : []),
    ];
    const claimed = await withTransaction(deps.db, async (tx) => {
      const won = await claimScheduledStart(tx, campaign.id, errors);
      if (!won || errors.length) return won;
      const runNumber = await campaignRunNumber(tx, campaign.id);
      if (runNumber === null) throw new Error(`campaign ${campaign.id} vanished while starting`);
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
