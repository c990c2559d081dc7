import { randomUUID } from 'node:crypto';
import type { Template } from '@atende/contract';
import { templateBodyFor } from '@atende/core';
import type { Prisma } from '../generated/prisma/client';
import type { SentSubscriber } from './campaign-dispatch';

type Tx = Prisma.TransactionClient;

/** What recording a broadcast send needs of its campaign. */
export interface BroadcastCampaign {
  id: string;
  tenantId: string;
  workspaceId: string;
  channelId: string;
  template: Template;
}

/**
 * A broadcast campaign's sends ('close the conversation after sending'): each template accepted by the provider
 * is recorded in the contact's history as a conversation closed at once (type outbound_campaign), so
 * no conversation of the campaign stays open and a later reply opens a new one through the entry
 * point. Runs in the transaction that writes the batch's outcomes, for exactly the rows it turned to
 * sent: once per subscriber, however often the dispatch is retried.
 */
export async function closeBroadcastSends(tx: Tx, campaign: BroadcastCampaign, sent: SentSubscriber[]): Promise<void> {
  if (sent.length === 0) return;
  const contacts = await contactsFor(tx, campaign, sent);
  const [counter] = await tx.$queryRaw<{ ticketCounter: number }[]>`
    UPDATE "Tenant" SET "ticketCounter" = "ticketCounter" + ${sent.length} WHERE id = ${campaign.tenantId}::uuid RETURNING "ticketCounter"`;
  const firstTicket = counter!.ticketCounter - sent.length + 1;
  const rows = sent.map((s, i) => ({
    subscriber: s,
    conversationId: randomUUID(),
    contactId: contacts.get(s.phoneNumber)!,
    ticketNumber: firstTicket + i,
  }));
  await tx.conversation.createMany({
    data: rows.map((r) => ({
      id: r.conversationId,
      tenantId: campaign.tenantId,
      workspaceId: campaign.workspaceId,
      contactId: r.contactId,
      channelId: campaign.channelId,
      state: 'closed' as const,
      type: 'outbound_campaign',
      ticketNumber: r.ticketNumber,
      lastMessageAt: r.subscriber.sentAt,
      timeJoin: r.subscriber.sentAt,
      closedAt: r.subscriber.sentAt,
      endedBy: 'system',
      createdAt: r.subscriber.sentAt,
    })),
  });
  await tx.message.createMany({
    data: rows.map((r) => ({
      id: randomUUID(),
      tenantId: campaign.tenantId,
      conversationId: r.conversationId,
      author: 'USER' as const,
      content: templateBodyFor(campaign.template.config.components, r.subscriber.parameters) || campaign.template.name,
      tags: ['campaign'],
      state: 'sent' as const,
      externalId: r.subscriber.externalId,
      createdAt: r.subscriber.sentAt,
    })),
  });
  await tx.conversationEvent.createMany({
    data: rows.map((r) => ({
      tenantId: campaign.tenantId,
      conversationId: r.conversationId,
      type: 'closed',
      at: r.subscriber.sentAt,
      detail: { ended_by: 'system', done_by: 'campaign', campaign_uuid: campaign.id, reason: 'broadcast' },
    })),
  });
  await tx.$executeRaw`
    UPDATE "CampaignSubscriber" s SET "conversationId" = o.conversation_id, "contactId" = o.contact_id
    FROM unnest(${rows.map((r) => r.subscriber.id)}::uuid[], ${rows.map((r) => r.conversationId)}::uuid[], ${rows.map((r) => r.contactId)}::uuid[]) AS o(id, conversation_id, contact_id)
    WHERE s.id = o.id`;
}

/**
 * The contact of each phone as the channel knows it (its identity), else the tenant's contact with
 * that number, else a new one named after the subscriber; identities are added as the receiver adds them.
 */
async function contactsFor(tx: Tx, campaign: BroadcastCampaign, sent: SentSubscriber[]): Promise<Map<string, string>> {
  const phones = [...new Set(sent.map((s) => s.phoneNumber))];
  const known = async () =>
    new Map(
      (
        await tx.contactIdentity.findMany({
          where: { channelId: campaign.channelId, identifier: { in: phones } },
          select: { identifier: true, contactId: true },
        })
      ).map((i) => [i.identifier, i.contactId]),
    );
  const byIdentity = await known();
  const missing = phones.filter((p) => !byIdentity.has(p));
  if (missing.length === 0) return byIdentity;
  const existing = await tx.contact.findMany({
    where: { tenantId: campaign.tenantId, phoneNumber: { in: missing }, deletedAt: null },
    orderBy: { createdAt: 'asc' },
    select: { id: true, phoneNumber: true },
  });
  const byPhone = new Map<string, string>();
  for (const c of existing) if (c.phoneNumber && !byPhone.has(c.phoneNumber)) byPhone.set(c.phoneNumber, c.id);
  const fresh = missing
    .filter((p) => !byPhone.has(p))
    .map((p) => ({
      id: randomUUID(),
      tenantId: campaign.tenantId,
      phoneNumber: p,
      name: sent.find((s) => s.phoneNumber === p)!.name || p,
    }));
  if (fresh.length) await tx.contact.createMany({ data: fresh });
  for (const c of fresh) byPhone.set(c.phoneNumber, c.id);
  await tx.contactIdentity.createMany({
    data: missing.map((p) => ({ tenantId: campaign.tenantId, channelId: campaign.channelId, identifier: p, contactId: byPhone.get(p)! })),
    skipDuplicates: true,
  });
  // A contact who wrote meanwhile may have got an identity first: the identity wins, as in the receiver.
  return known();
}
