import type { InboundEvent } from '@atende/channels';
import { announceCampaign, presentTemplate, settleCampaign, type ConversationDeps } from '@atende/conversations';
import {
  applySendReceipt,
  receiptIdState,
  sentCampaignIds,
  settleUnknownSend,
  templateRowById,
  withTransaction,
  type Db,
} from '@atende/db';
import { closeBroadcastSends } from './broadcast';

const ERROR_MESSAGE_MAX = 500;
type Receipt = Extract<InboundEvent, { kind: 'status' }>;

/**
 * What a provider receipt did to campaign subscribers: applied; unchanged (a repeat, or older news
 * than the subscriber has); early (no send has this id yet, but this channel has sends in flight
 * whose ids are not written yet: retry); unknown (not a campaign message).
 */
export type ReceiptOutcome = 'applied' | 'unchanged' | 'early' | 'unknown';

/**
 * A WhatsApp status webhook for a campaign message: the subscriber's delivery moves
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
export async function applyCampaignReceipt(
  db: Db,
  tenantId: string,
  channelId: string,
  event: Receipt,
): Promise<{ outcome: ReceiptOutcome; campaignId?: string }> {
  const reason =
    event.status === 'failed'
      ? (event.error ? `${event.error.code}: ${event.error.title}` : 'The provider could not deliver this message').slice(
          0,
          ERROR_MESSAGE_MAX,
        )
      : null;
  const reconciled = await reconcileUnknownSend(db, tenantId, channelId, event, reason);
  if (reconciled) return { outcome: 'applied', campaignId: reconciled };
  const changed = await applySendReceipt(db, tenantId, channelId, event, reason);
  if (changed) return { outcome: 'applied', campaignId: changed };
  // The outcome write itself records 'sent': that receipt is never worth waiting for.
  if (event.status === 'sent') return { outcome: 'unchanged' };
  const known = await receiptIdState(db, tenantId, channelId, event.externalId);
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
async function reconcileUnknownSend(
  db: Db,
  tenantId: string,
  channelId: string,
  event: Receipt,
  reason: string | null,
): Promise<string | null> {
  if (!event.callbackData || !UUID.test(event.callbackData)) return null;
  const callbackData = event.callbackData;
  return withTransaction(db, async (tx) => {
    const row = await settleUnknownSend(tx, tenantId, channelId, { ...event, callbackData }, reason);
    if (!row) return null;
    if (row.mode === 'broadcast' && row.state === 'sent') {
      const template = presentTemplate(await templateRowById(tx, row.templateId));
      await closeBroadcastSends(tx, { id: row.campaignId, tenantId, workspaceId: row.workspaceId, channelId, template }, [row]);
    }
    return row.campaignId;
  });
}

/**
 * The maintenance sweep's part for finished campaigns: campaigns still 'sent'
 * move on to completed (or completed_with_engagement) once their receipts are in or the wait is
 * over. Receipts do not settle campaigns themselves: at 1,000 receipts a second that would be a scan
 * of the campaign per receipt; this runs every 30 s with the scheduled starts.
 */
export async function settleSentCampaigns(
  deps: Pick<ConversationDeps, 'realtime'> & { db: Db },
  now = new Date(),
): Promise<{ settled: number }> {
  const sent = await sentCampaignIds(deps.db);
  let settled = 0;
  for (const id of sent) {
    if (!(await settleCampaign(deps.db, id, now))) continue;
    settled++;
    await announceCampaign(deps, id);
  }
  return { settled };
}
