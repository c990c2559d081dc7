import type { Prisma } from '../generated/prisma/client';

type Tx = Prisma.TransactionClient;
type Raw = Pick<Tx, '$queryRaw'>;

/** A subscriber whose send a write just turned to 'sent' (or settled from a receipt). */
export interface SentSubscriber {
  id: string;
  name: string;
  phoneNumber: string;
  parameters: string[];
  externalId: string | null;
  sentAt: Date;
}

/** A subscriber a dispatcher claimed: 'scheduled' to send, or 'dnd' when its number is on a DND list. */
export type ClaimedSubscriber = { id: string; phoneNumber: string; parameters: string[]; state: string };

/**
 * One send's outcome. 'unknown': the request may have reached the provider and its answer was lost.
 */
export type SendOutcome = {
  id: string;
  state: 'sent' | 'error' | 'unknown';
  externalId: string | null;
  errorMessage: string | null;
  at: Date;
};

/**
 * Takes (or renews) the campaign's sending lease for `owner`, for the job's run, while the campaign
 * is asked to run and not deleted and no other owner holds an unexpired lease. Whether it holds it.
 */
export async function takeDispatchLease(
  db: Raw,
  lease: { campaignId: string; tenantId: string; run: number; owner: string; leaseMs: number },
): Promise<boolean> {
  return (
    (
      await db.$queryRaw<{ id: string }[]>`
        UPDATE "Campaign" SET "dispatchOwner" = ${lease.owner}, "dispatchLeaseUntil" = now() + ${lease.leaseMs} * interval '1 millisecond'
        WHERE id = ${lease.campaignId}::uuid AND "tenantId" = ${lease.tenantId}::uuid AND "runNumber" = ${lease.run} AND "desiredState" = 'running' AND "deletedAt" IS NULL
          AND ("dispatchLeaseUntil" IS NULL OR "dispatchLeaseUntil" < now() OR "dispatchOwner" = ${lease.owner})
        RETURNING id`
    ).length > 0
  );
}

/** The campaign's current run number, what it is asked to be and whether it is deleted; null when there is no such campaign. */
export function campaignRunState(
  db: Pick<Tx, 'campaign'>,
  id: string,
): Promise<{ runNumber: number; desiredState: string; deletedAt: Date | null } | null> {
  return db.campaign.findUnique({ where: { id }, select: { runNumber: true, desiredState: true, deletedAt: true } });
}

/** Lets go of the campaign's lease if `owner` still holds it, leaving the campaign in `state`. */
export function releaseDispatchLease(
  db: Pick<Tx, 'campaign'>,
  campaignId: string,
  owner: string,
  state: 'stopped' | 'running' | 'sent',
  extra: { desiredState?: string; finishedAt?: Date } = {},
): Promise<{ count: number }> {
  return db.campaign.updateMany({
    where: { id: campaignId, dispatchOwner: owner },
    data: { state, dispatchOwner: null, dispatchLeaseUntil: null, ...extra },
  });
}

/** The campaign with its channel (credentials included), for sending it. */
export function campaignWithChannel(db: Pick<Tx, 'campaign'>, id: string) {
  return db.campaign.findUniqueOrThrow({ where: { id }, include: { channel: true } });
}

/** The campaign is running; its start time is set by its first run. */
export async function markCampaignRunning(db: Pick<Tx, 'campaign'>, id: string, startedAt: Date): Promise<void> {
  await db.campaign.update({ where: { id }, data: { state: 'running', startedAt } });
}

/**
 * Claims up to `size` pending subscribers in one statement (pending → scheduled); a contact put on one
 * of the campaign's DND lists since the import (by its number with or without the ninth digit, as
 * WhatsApp may report it) becomes 'dnd' here instead of being sent to.
 */
export function claimSubscriberBatch(db: Raw, campaignId: string, size: number): Promise<ClaimedSubscriber[]> {
  return db.$queryRaw<ClaimedSubscriber[]>`
    UPDATE "CampaignSubscriber" s SET state = CASE WHEN EXISTS (
        SELECT 1 FROM "CampaignDndList" cl JOIN "DndContact" d ON d."dndListId" = cl."dndListId" JOIN "Contact" ct ON ct.id = d."contactId"
        WHERE cl."campaignId" = s."campaignId" AND ct."tenantId" = s."tenantId" AND ct."phoneNumber" = ANY(atende_phone_variants(s."phoneNumber"))) THEN 'dnd' ELSE 'scheduled' END,
      "updatedAt" = now()
    WHERE s.id IN (SELECT id FROM "CampaignSubscriber" WHERE "campaignId" = ${campaignId}::uuid AND state = 'pending'
                   ORDER BY "createdAt", id LIMIT ${size} FOR UPDATE SKIP LOCKED)
    RETURNING s.id, s."phoneNumber", s.parameters, s.state`;
}

/** Marks claimed subscribers as being sent (scheduled → sending), in one statement; the ids marked. */
export async function markSubscribersSending(db: Raw, ids: string[]): Promise<string[]> {
  const marked = await db.$queryRaw<{ id: string }[]>`
      UPDATE "CampaignSubscriber" SET state = 'sending', "updatedAt" = now() WHERE id = ANY(${ids}::uuid[]) AND state = 'scheduled' RETURNING id`;
  return marked.map((m) => m.id);
}

/**
 * Outcomes in one statement; only rows claimed ('scheduled': refused before any request) or being
 * sent ('sending') change, or rows a restart turned to 'unknown' meanwhile (the late answer says
 * what happened). A send starts its receipts afresh (a subscriber sent again after an error has no
 * receipts of the old message). The rows written, with their new state.
 */
export function writeSendOutcomes(db: Raw, outcomes: SendOutcome[]): Promise<(SentSubscriber & { state: string })[]> {
  return db.$queryRaw<(SentSubscriber & { state: string })[]>`
    UPDATE "CampaignSubscriber" s SET state = o.state, "externalId" = o.external_id, "errorMessage" = o.error_message,
      "sentAt" = CASE WHEN o.state = 'sent' THEN o.at ELSE s."sentAt" END,
      delivery = CASE WHEN o.state = 'sent' THEN 'sent' END, "deliveredAt" = NULL, "readAt" = NULL, "updatedAt" = now()
    FROM unnest(${outcomes.map((o) => o.id)}::uuid[], ${outcomes.map((o) => o.state)}::text[], ${outcomes.map((o) => o.externalId)}::text[],
                ${outcomes.map((o) => o.errorMessage)}::text[], ${outcomes.map((o) => o.at)}::timestamptz[]) AS o(id, state, external_id, error_message, at)
    WHERE s.id = o.id AND s.state IN ('scheduled', 'sending', 'unknown')
    RETURNING s.id, s.name, s."phoneNumber", s.parameters, s."externalId", s."sentAt", s.state`;
}

/** A stopped run's claimed subscribers (not being sent) back to pending. */
export async function unclaimSubscribers(db: Pick<Tx, 'campaignSubscriber'>, campaignId: string): Promise<void> {
  await db.campaignSubscriber.updateMany({ where: { campaignId, state: 'scheduled' }, data: { state: 'pending' } });
}

/** The campaign's current run number; null when there is no such campaign. */
export async function campaignRunNumber(db: Pick<Tx, 'campaign'>, id: string): Promise<number | null> {
  return (await db.campaign.findUnique({ where: { id }, select: { runNumber: true } }))?.runNumber ?? null;
}

/** A provider's receipt of a campaign send. */
export interface SendReceipt {
  status: string;
  at: Date;
  externalId: string;
}

/**
 * Applies a receipt to the subscriber sent with its provider id on this channel: delivery moves
 * sent → delivered → read, never backwards; 'failed' counts only while the message is merely
 * accepted and makes the subscriber an error with `reason`. The subscriber's campaign when a row changed.
 */
export async function applySendReceipt(
  db: Raw,
  tenantId: string,
  channelId: string,
  event: SendReceipt,
  reason: string | null,
): Promise<string | null> {
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
  return changed[0]?.campaignId ?? null;
}

/**
 * Of a provider id no receipt applied to: whether a subscriber or a message of the tenant has it
 * (known), and whether a running campaign of the channel has sends whose ids are not written yet (inFlight).
 */
export async function receiptIdState(
  db: Raw,
  tenantId: string,
  channelId: string,
  externalId: string,
): Promise<{ known: boolean; inFlight: boolean } | undefined> {
  const [known] = await db.$queryRaw<{ known: boolean; inFlight: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM "CampaignSubscriber" s WHERE s."tenantId" = ${tenantId}::uuid AND s."externalId" = ${externalId})
           OR EXISTS (SELECT 1 FROM "Message" m WHERE m."tenantId" = ${tenantId}::uuid AND m."externalId" = ${externalId}) AS known,
           EXISTS (SELECT 1 FROM "Campaign" c JOIN "CampaignSubscriber" s ON s."campaignId" = c.id
                   WHERE c."tenantId" = ${tenantId}::uuid AND c."channelId" = ${channelId}::uuid AND c."deletedAt" IS NULL AND c.state = 'running' AND s.state IN ('scheduled', 'sending')) AS "inFlight"`;
  return known;
}

/** An 'unknown' subscriber settled by a receipt, with what recording a broadcast send of it needs. */
export type SettledUnknownSend = SentSubscriber & {
  campaignId: string;
  state: string;
  mode: string;
  templateId: string;
  workspaceId: string;
};

/**
 * Settles the 'unknown' subscriber a receipt names (by the send's callback data, the subscriber's
 * id) on this channel: sent with the provider's id and the receipt's delivery, or for 'failed' an
 * error with `reason`. The row when it changed.
 */
export async function settleUnknownSend(
  tx: Raw,
  tenantId: string,
  channelId: string,
  event: SendReceipt & { callbackData: string },
  reason: string | null,
): Promise<SettledUnknownSend | undefined> {
  const failed = event.status === 'failed';
  const [row] = await tx.$queryRaw<SettledUnknownSend[]>`
      UPDATE "CampaignSubscriber" s SET
        state = ${failed ? 'error' : 'sent'}, "externalId" = ${event.externalId}, delivery = ${event.status},
        "sentAt" = CASE WHEN ${failed} THEN s."sentAt" ELSE ${event.at} END,
        "deliveredAt" = CASE WHEN ${event.status} IN ('delivered', 'read') THEN ${event.at}::timestamptz END,
        "readAt" = CASE WHEN ${event.status} = 'read' THEN ${event.at}::timestamptz END,
        "errorMessage" = ${reason}, "updatedAt" = now()
      FROM "Campaign" c
      WHERE s.id = ${event.callbackData}::uuid AND s."tenantId" = ${tenantId}::uuid AND s.state = 'unknown' AND c.id = s."campaignId" AND c."channelId" = ${channelId}::uuid
      RETURNING s.id, s.name, s."phoneNumber", s.parameters, s."externalId", s."sentAt", s.state, s."campaignId", c.mode, c."templateId", c."workspaceId"`;
  return row;
}

/** Campaigns waiting in 'sent' with no run holding them, the longest finished first (at most 500). */
export async function sentCampaignIds(db: Pick<Tx, 'campaign'>): Promise<string[]> {
  return (
    await db.campaign.findMany({
      where: { state: 'sent', desiredState: 'sent', deletedAt: null, dispatchOwner: null },
      select: { id: true },
      take: 500,
      orderBy: { finishedAt: 'asc' },
    })
  ).map((c) => c.id);
}
