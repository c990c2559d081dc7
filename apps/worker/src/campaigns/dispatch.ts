import { ChannelDeliveryError, decryptCredentials, type ChannelAdapter, type OutboundMessage, type OutboundTemplate } from '@atende/channels';
import { queues, type Template } from '@atende/contract';
import { announceCampaign, presentTemplate, templateInclude } from '@atende/conversations';
import { channelKind, renderTemplateText, templateParameterSlots } from '@atende/core';
import type { Db } from '@atende/db';
import type { RateLimiter, RealtimeOutbox } from '@atende/queue';
import type { Logger } from 'pino';

export interface DispatchDeps {
  db: Db;
  realtime: Pick<RealtimeOutbox, 'emit'>;
  adapters: Map<string, ChannelAdapter>;
  secretsKey: Buffer;
  limiter: RateLimiter;
  /** This worker process, as the holder of a campaign's sending lease. */
  owner: string;
  /** Sends per second per channel (0: no limit). */
  ratePerSecond: number;
  log: Logger;
  leaseMs?: number;
  batchSize?: number;
  concurrency?: number;
}

export type DispatchResult = 'done' | 'stopped' | 'superseded';
const ERROR_MAX = 500;
const TRANSIENT_TRIES = 3;

/** The provider's template message for one subscriber: parameters by slot (core templateParameterSlots). */
export function subscriberMessage(template: Template, subscriber: { id: string; phoneNumber: string; parameters: string[] }, campaignId: string): OutboundMessage {
  const slots = templateParameterSlots(template.config.components);
  const value = (i: number) => subscriber.parameters[i] ?? '';
  const header = slots.flatMap((s, i) => (s.part === 'header' ? [value(i)] : []));
  const body = slots.flatMap((s, i) => (s.part === 'body' ? [value(i)] : []));
  const urlButtons = slots.flatMap((s, i) => (s.part === 'url' ? [{ index: s.button, text: value(i) }] : []));
  const media = template.config.components.find((c) => c.type === 'HEADER');
  const outbound: OutboundTemplate = {
    name: template.name,
    language: template.config.language,
    header: header.length ? { format: 'TEXT', value: header[0]! } : media?.type === 'HEADER' && media.format !== 'TEXT' && media.format !== 'LOCATION' && media.example?.header_handle?.[0] ? { format: media.format, value: media.example.header_handle[0] } : null,
    body,
    urlButtons,
  };
  const bodyText = template.config.components.find((c) => c.type === 'BODY');
  return {
    // The subscriber's id is the send's idempotency key toward the provider.
    uuid: subscriber.id,
    conversationUuid: campaignId,
    content: renderTemplateText(bodyText?.type === 'BODY' ? bodyText.text : '', body),
    annex: null,
    author: 'USER',
    createdAt: new Date(),
    contact: { uuid: subscriber.id, phoneNumber: subscriber.phoneNumber, identifier: null },
    template: outbound,
  };
}

async function pool<T>(items: T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

/**
 * Sends one run of a running campaign (queue campaign-dispatch). One dispatcher at a time holds the
 * campaign's lease; subscribers move pending → scheduled (claimed) → sent or error in Postgres, and
 * the subscriber's id goes to the provider as the idempotency key, so a killed worker, a duplicated
 * job or a stop/start never sends twice nor skips. Stopping takes effect at the next batch.
 */
export async function dispatchCampaign(deps: DispatchDeps, raw: unknown): Promise<DispatchResult> {
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
