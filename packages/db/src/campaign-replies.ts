import type { Message, Prisma } from '../generated/prisma/client';

type Tx = Prisma.TransactionClient;

/** A subscriber a reply may answer, with what deciding it needs of its campaign. */
export interface CampaignReplyCandidate {
  id: string;
  campaignId: string;
  state: string;
  externalId: string | null;
  sentAt: Date | null;
  parameters: string[];
  config: unknown;
  name: string;
  templateId: string | null;
  entrySectorId: string | null;
  entryMenuId: string | null;
  entryBotId: string | null;
}

/**
 * The subscribers a reply from one of these numbers on this channel may answer (sent or unknown, or
 * the one the reply quotes), newest send first, at most 50; their rows stay locked for the rest of
 * the transaction (rows another delivery holds are skipped), so a reply counts once.
 */
export function campaignReplyCandidates(
  tx: Pick<Tx, '$queryRaw'>,
  input: { tenantId: string; channelId: string; phones: string[]; contextExternalId: string | null },
): Promise<CampaignReplyCandidate[]> {
  const { phones } = input;
  return tx.$queryRaw<CampaignReplyCandidate[]>`
    SELECT s.id, s."campaignId", s.state, s."externalId", s."sentAt", s.parameters, c.config, c.name, c."templateId", c."entrySectorId", c."entryMenuId", c."entryBotId"
    FROM "CampaignSubscriber" s JOIN "Campaign" c ON c.id = s."campaignId"
    WHERE s."tenantId" = ${input.tenantId}::uuid AND s."phoneNumber" = ANY(${phones}::text[]) AND c."channelId" = ${input.channelId}::uuid
      AND (s.state IN ('sent', 'unknown') OR (${input.contextExternalId}::text IS NOT NULL AND s."externalId" = ${input.contextExternalId}::text))
    ORDER BY s."sentAt" DESC NULLS LAST LIMIT 50 FOR UPDATE OF s SKIP LOCKED`;
}

/** A template's stored components; null when there is no such template. */
export async function templateComponents(tx: Pick<Tx, 'outboundTemplate'>, id: string): Promise<Prisma.JsonValue | null> {
  return (await tx.outboundTemplate.findUnique({ where: { id }, select: { components: true } }))?.components ?? null;
}

/** The subscriber answered: completed with what they answered, in which conversation, as which contact. */
export async function completeCampaignSubscriber(
  tx: Pick<Tx, 'campaignSubscriber'>,
  id: string,
  reply: { replyAction: string; replyText: string; conversationId: string; contactId: string },
): Promise<void> {
  await tx.campaignSubscriber.update({ where: { id }, data: { state: 'completed', repliedAt: new Date(), ...reply } });
}

/** The template a subscriber received, stored in the conversation as already sent (no outbox job). */
export function insertCampaignTemplateMessage(
  tx: Pick<Tx, 'message'>,
  message: { id: string; tenantId: string; conversationId: string; content: string; externalId: string | null; createdAt: Date },
): Promise<Message> {
  return tx.message.create({ data: { ...message, author: 'USER', tags: ['campaign'], state: 'sent' } });
}

/** A history event of a conversation (a campaign's reply, its close). */
export async function insertCampaignConversationEvent(
  tx: Pick<Tx, 'conversationEvent'>,
  event: { tenantId: string; conversationId: string; type: 'campaign-reply' | 'closed'; detail: Prisma.InputJsonObject },
): Promise<void> {
  await tx.conversationEvent.create({ data: event });
}

/** A conversation a campaign's reply action ended: closed by the system at `at`. */
export async function closeConversationBySystem(tx: Pick<Tx, 'conversation'>, conversationId: string, at: Date): Promise<void> {
  await tx.conversation.update({ where: { id: conversationId }, data: { state: 'closed', closedAt: at, endedBy: 'system' } });
}

/** A template message still pending is failed with the reason. */
export async function failPendingMessage(tx: Pick<Tx, 'message'>, tenantId: string, messageId: string, reason: string): Promise<void> {
  await tx.message.updateMany({ where: { id: messageId, tenantId, state: 'pending' }, data: { status: 'failed', errorMessage: reason } });
}

/** A message of the tenant with its tags, whether it is a template, and its conversation's state; null when there is none. */
export function messageWithConversationState(
  tx: Pick<Tx, 'message'>,
  tenantId: string,
  messageId: string,
): Promise<{ id: string; tags: string[]; templateMessage: Prisma.JsonValue; conversation: { id: string; state: string } } | null> {
  return tx.message.findFirst({
    where: { id: messageId, tenantId },
    select: { id: true, tags: true, templateMessage: true, conversation: { select: { id: true, state: true } } },
  });
}

/** Closes a conversation still outbound-started, by the system; whether it was. */
export async function closeOutboundStartedConversation(
  tx: Pick<Tx, 'conversation'>,
  tenantId: string,
  conversationId: string,
): Promise<boolean> {
  const closed = await tx.conversation.updateMany({
    where: { id: conversationId, tenantId, state: 'outbound_started' },
    data: { state: 'closed', closedAt: new Date(), endedBy: 'system' },
  });
  return closed.count > 0;
}

/** Adds a tag to a message. */
export async function tagMessage(tx: Pick<Tx, 'message'>, messageId: string, tag: string): Promise<void> {
  await tx.message.update({ where: { id: messageId }, data: { tags: { push: tag } } });
}
