import type { InboundEvent } from '@atende/channels';
import { announceCampaign, presentTemplate, settleCampaign, templateInclude, type ConversationDeps } from '@atende/conversations';
import type { Db } from '@atende/db';
import { closeBroadcastSends, type SentSubscriber } from './broadcast';

const ERROR_MESSAGE_MAX = 500;
type Receipt = Extract<InboundEvent, { kind: 'status' }>;

/**
 * What a provider receipt did to campaign subscribers: applied; unchanged (a repeat, or older news
 * than the subscriber has); early (no send has this id yet, but this channel has sends in flight
 * whose ids are not written yet: retry); unknown (not a campaign message).
 */
export type ReceiptOutcome = 'applied' | 'unchanged' | 'early' | 'unknown';

/**
 * A WhatsApp status webhook for a campaign message (issue 14 item 5): the subscriber's delivery moves
 * sent → delivered → read, never backwards, in one statement whatever order the receipts come in
 * (a late 'delivered' after 'read' changes nothing, a repeat changes nothing). 'failed' counts only
 * while the message is merely accepted (after delivered or read it is the provider's confusion): the
 * subscriber becomes an error with the provider's reason, so the row shows it and the manager can
 * send it again. A failed receipt never touches a subscriber who replied. Timestamps keep the first
 * receipt's time; 'read' implies delivered.
 *
 * A receipt can outrun the dispatcher's batched outcome write (dispatch.ts writes the provider ids a
 * batch at a time): while the channel has subscribers claimed and not yet written, an unknown id is
 * 'early' and the caller fails the job so BullMQ retries it (1 s, 2 s, 4 s, 8 s) after the write
 * (an id of a conversation message is never early).
 */
export async function applyCampaignReceipt(db: Db, tenantId: string, channelId: string, event: Receipt): Promise<{ outcome: ReceiptOutcome; campaignId?: string }> {
  const reason = event.status === 'failed' ? (event.error ? `${event.error.code}: ${event.error.title}` : 'The provider could not deliver this message').slice(0, ERROR_MESSAGE_MAX) : null;
  const reconciled = await reconcileUnknownSend(db, tenantId, channelId, event, reason);
  if (reconciled) return { outcome: 'applied', campaignId: reconciled };
  const changed = await db.$queryRaw<{ campaignId: string }[]>`
    UPDATE "CampaignSubscriber" s SET
      delivery = ${event.status},
      "deliveredAt" = CASE WHEN ${event.status} IN ('delivered', 'read') THEN COALESCE(s."deliveredAt", ${event.at}) ELSE s."deliveredAt" END,
      "readAt" = CASE WHEN ${event.status} = 'read' THEN COALESCE(s."readAt", ${event.at}) ELSE s."readAt" END,
      state = CASE WHEN ${event.status} = 'failed' THEN 'error' ELSE s.state END,
      "errorMessage" = CASE WHEN ${event.status} = 'failed' THEN ${reason} ELSE s."errorMessage" END,
      "updatedAt" = now()
    FROM "Campaign" c
    WHERE s."tenantId" = ${tenantId}::uuid AND s."externalId" = ${event.externalId} AND c.id = s."campaignId" AND c."channelId" = ${channelId}::uuid
      AND CASE WHEN ${event.status} = 'failed' THEN s.state = 'sent' AND COALESCE(s.delivery, 'sent') = 'sent'
               ELSE s.state IN ('sent', 'completed')
                    AND array_position(ARRAY['sent', 'delivered', 'read'], COALESCE(s.delivery, 'sent')) < array_position(ARRAY['sent', 'delivered', 'read'], ${event.status}::text) END
    RETURNING s."campaignId"`;
  if (changed[0]) return { outcome: 'applied', campaignId: changed[0].campaignId };
  // The outcome write itself records 'sent': that receipt is never worth waiting for.
  if (event.status === 'sent') return { outcome: 'unchanged' };
  const [known] = await db.$queryRaw<{ known: boolean; inFlight: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM "CampaignSubscriber" s WHERE s."tenantId" = ${tenantId}::uuid AND s."externalId" = ${event.externalId})
           OR EXISTS (SELECT 1 FROM "Message" m WHERE m."tenantId" = ${tenantId}::uuid AND m."externalId" = ${event.externalId}) AS known,
           EXISTS (SELECT 1 FROM "Campaign" c JOIN "CampaignSubscriber" s ON s."campaignId" = c.id
                   WHERE c."tenantId" = ${tenantId}::uuid AND c."channelId" = ${channelId}::uuid AND c."deletedAt" IS NULL AND c.state = 'running' AND s.state IN ('scheduled', 'sending')) AS "inFlight"`;
  return { outcome: known?.known ? 'unchanged' : known?.inFlight ? 'early' : 'unknown' };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A receipt naming one of our sends whose outcome was never learnt. The WhatsApp
 * Cloud API (and 360dialog's) echo the send's biz_opaque_callback_data, the subscriber's id
 * (cloud-format.ts), so an 'unknown' subscriber is settled by the first receipt of its message:
 * sent (with the provider's id, its receipt applied: delivered, read) or, for 'failed', an error with
 * the provider's reason. A broadcast campaign's send is recorded as a closed conversation with it,
 * as the dispatcher's write would have (broadcast.ts). The campaign's id when a row changed.
 */
async function reconcileUnknownSend(db: Db, tenantId: string, channelId: string, event: Receipt, reason: string | null): Promise<string | null> {
  if (!event.callbackData || !UUID.test(event.callbackData)) return null;
  const failed = event.status === 'failed';
  return db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<(SentSubscriber & { campaignId: string; state: string; mode: string; templateId: string; workspaceId: string })[]>`
      UPDATE "CampaignSubscriber" s SET
        state = ${failed ? 'error' : 'sent'}, "externalId" = ${event.externalId}, delivery = ${event.status},
        "sentAt" = CASE WHEN ${failed} THEN s."sentAt" ELSE ${event.at} END,
        "deliveredAt" = CASE WHEN ${event.status} IN ('delivered', 'read') THEN ${event.at}::timestamptz END,
        "readAt" = CASE WHEN ${event.status} = 'read' THEN ${event.at}::timestamptz END,
        "errorMessage" = ${reason}, "updatedAt" = now()
      FROM "Campaign" c
      WHERE s.id = ${event.callbackData}::uuid AND s."tenantId" = ${tenantId}::uuid AND s.state = 'unknown' AND c.id = s."campaignId" AND c."channelId" = ${channelId}::uuid
      RETURNING s.id, s.name, s."phoneNumber", s.parameters, s."externalId", s."sentAt", s.state, s."campaignId", c.mode, c."templateId", c."workspaceId"`;
    if (!row) return null;
    if (row.mode === 'broadcast' && row.state === 'sent') {
      const template = presentTemplate(await tx.outboundTemplate.findUniqueOrThrow({ where: { id: row.templateId }, include: templateInclude }));
      await closeBroadcastSends(tx, { id: row.campaignId, tenantId, workspaceId: row.workspaceId, channelId, template }, [row]);
    }
    return row.campaignId;
  });
}

/**
 * The maintenance sweep's part for finished campaigns (issue 14 item 5): campaigns still 'sent'
 * move on to completed (or completed_with_engagement) once their receipts are in or the wait is
 * over. Receipts do not settle campaigns themselves: at 1,000 receipts a second that would be a scan
 * of the campaign per receipt; this runs every 30 s with the scheduled starts.
 */
export async function settleSentCampaigns(deps: Pick<ConversationDeps, 'realtime'> & { db: Db }, now = new Date()): Promise<{ settled: number }> {
  const sent = await deps.db.campaign.findMany({ where: { state: 'sent', desiredState: 'sent', deletedAt: null, dispatchOwner: null }, select: { id: true }, take: 500, orderBy: { finishedAt: 'asc' } });
  let settled = 0;
  for (const { id } of sent) {
    if (!(await settleCampaign(deps.db, id, now))) continue;
    settled++;
    await announceCampaign(deps, id);
  }
  return { settled };
}
