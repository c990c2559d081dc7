// Bench only: campaign sending as it was before issue 13 item 4 (an update per send, an event per
// batch, a Redis round trip per token), kept so that `pnpm bench campaigns` measures both on the same
// machine in the same run. Not used by the product.
import { ChannelDeliveryError, decryptCredentials } from '@atende/channels';
import { queues } from '@atende/contract';
import { announceCampaign, presentTemplate, templateInclude } from '@atende/conversations';
import { channelKind } from '@atende/core';
import { pool, subscriberMessage, type DispatchDeps, type DispatchResult } from '../../apps/worker/src/campaigns/dispatch';

const ERROR_MAX = 500;
const TRANSIENT_TRIES = 3;

/**
 * Sends one run of a running campaign (queue campaign-dispatch). One dispatcher at a time holds the
 * campaign's lease; subscribers move pending → scheduled (claimed) → sent or error in Postgres, and
 * the subscriber's id goes to the provider as the idempotency key, so a killed worker, a duplicated
 * job or a stop/start never sends twice nor skips. Stopping takes effect at the next batch.
 */
export async function dispatchCampaignBaseline(deps: DispatchDeps, raw: unknown): Promise<DispatchResult> {
  const job = queues.campaignDispatch.payload.parse(raw);
  const { db } = deps;
  const leaseMs = deps.leaseMs ?? 15_000;
  const lease = async () =>
    (
      await db.$queryRaw<{ id: string }[]>`
        UPDATE "Campaign" SET "dispatchOwner" = ${deps.owner}, "dispatchLeaseUntil" = now() + ${leaseMs} * interval '1 millisecond'
        WHERE id = ${job.campaign_uuid}::uuid AND "tenantId" = ${job.tenant_uuid}::uuid AND "runNumber" = ${job.run} AND "desiredState" = 'running' AND "deletedAt" IS NULL
          AND ("dispatchLeaseUntil" IS NULL OR "dispatchLeaseUntil" < now() OR "dispatchOwner" = ${deps.owner})
        RETURNING id`
    ).length > 0;

  if (!(await lease())) {
    const campaign = await db.campaign.findUnique({ where: { id: job.campaign_uuid }, select: { runNumber: true, desiredState: true, deletedAt: true } });
    if (!campaign || campaign.deletedAt || campaign.runNumber !== job.run || campaign.desiredState !== 'running') return 'superseded';
    // Another worker holds the lease (or held it and died): BullMQ retries once it may have lapsed.
    throw new Error('campaign is being sent by another worker');
  }
  const release = (state: 'stopped' | 'running', extra: { desiredState?: string } = {}) =>
    db.campaign.updateMany({ where: { id: job.campaign_uuid, dispatchOwner: deps.owner }, data: { state, dispatchOwner: null, dispatchLeaseUntil: null, ...extra } });

  const campaign = await db.campaign.findUniqueOrThrow({ where: { id: job.campaign_uuid }, include: { channel: true } });
  await db.campaign.update({ where: { id: campaign.id }, data: { state: 'running', startedAt: campaign.startedAt ?? new Date() } });
  // Claimed by a dispatcher that died: sent again under the same idempotency key.
  await db.campaignSubscriber.updateMany({ where: { campaignId: campaign.id, state: 'scheduled' }, data: { state: 'pending' } });
  await announceCampaign(deps, campaign.id);

  const template = presentTemplate(await db.outboundTemplate.findUniqueOrThrow({ where: { id: campaign.templateId }, include: templateInclude }));
  const adapter = deps.adapters.get(channelKind(campaign.channel.type));
  const channel = {
    uuid: campaign.channel.id, type: campaign.channel.type, config: campaign.channel.config,
    credentials: campaign.channel.credentialsEncrypted ? decryptCredentials(campaign.channel.credentialsEncrypted, deps.secretsKey) : null,
  };
  const bucket = `channel:${campaign.channel.id}`;
  const fail = (id: string, reason: string) => db.campaignSubscriber.updateMany({ where: { id, state: 'scheduled' }, data: { state: 'error', errorMessage: reason.slice(0, ERROR_MAX) } });

  async function send(subscriber: { id: string; phoneNumber: string; parameters: string[] }) {
    if (!adapter) return void (await fail(subscriber.id, `Channel type ${campaign.channel.type} cannot send templates`));
    const message = subscriberMessage(template, subscriber, campaign.id);
    for (let attempt = 1; ; attempt++) {
      await deps.limiter.take(bucket, deps.ratePerSecond);
      try {
        const { externalId } = await adapter.send(message, channel);
        await db.campaignSubscriber.updateMany({ where: { id: subscriber.id, state: 'scheduled' }, data: { state: 'sent', sentAt: new Date(), externalId, errorMessage: null } });
        return;
      } catch (error) {
        const delivery = error instanceof ChannelDeliveryError ? error : new ChannelDeliveryError('transient', 'Send failed: internal error');
        if (delivery.httpStatus === 429 || /130429|rate limit/i.test(delivery.message)) await deps.limiter.slowDown(bucket);
        if (delivery.kind === 'permanent' || attempt >= TRANSIENT_TRIES) return void (await fail(subscriber.id, delivery.message));
        await new Promise((r) => setTimeout(r, 250 * 2 ** attempt));
      }
    }
  }

  for (;;) {
    if (!(await lease())) {
      // Stopped (or restarted as a new run): what is claimed goes back to pending.
      await db.campaignSubscriber.updateMany({ where: { campaignId: campaign.id, state: 'scheduled' }, data: { state: 'pending' } });
      const now = await db.campaign.findUnique({ where: { id: campaign.id }, select: { desiredState: true, runNumber: true } });
      if (now?.runNumber === job.run) await release('stopped');
      await announceCampaign(deps, campaign.id);
      return 'stopped';
    }
    // Claimed in one statement; a contact put on one of the campaign's DND lists since the import
    // becomes 'dnd' here instead of being sent to.
    const claimed = await db.$queryRaw<{ id: string; phoneNumber: string; parameters: string[]; state: string }[]>`
      UPDATE "CampaignSubscriber" s SET state = CASE WHEN EXISTS (
          SELECT 1 FROM "CampaignDndList" cl JOIN "DndContact" d ON d."dndListId" = cl."dndListId" JOIN "Contact" ct ON ct.id = d."contactId"
          WHERE cl."campaignId" = s."campaignId" AND ct."tenantId" = s."tenantId" AND ct."phoneNumber" = s."phoneNumber") THEN 'dnd' ELSE 'scheduled' END,
        "updatedAt" = now()
      WHERE s.id IN (SELECT id FROM "CampaignSubscriber" WHERE "campaignId" = ${campaign.id}::uuid AND state = 'pending'
                     ORDER BY "createdAt", id LIMIT ${deps.batchSize ?? 50} FOR UPDATE SKIP LOCKED)
      RETURNING s.id, s."phoneNumber", s.parameters, s.state`;
    const batch = claimed.filter((s) => s.state === 'scheduled');
    if (claimed.length === 0) {
      await release('stopped', { desiredState: 'stopped' });
      await announceCampaign(deps, campaign.id);
      return 'done';
    }
    await pool(batch, deps.concurrency ?? 8, send);
    await announceCampaign(deps, campaign.id);
  }
}
