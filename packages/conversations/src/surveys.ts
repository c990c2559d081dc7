import { matchSurveyAnswer, surveyPrompt } from '@atende/core';
import type { ConversationDeps } from './deps';
import { announceCommitted, Effects, inTransaction, type Tx } from './engine';
import { presentMessage } from './present';
import { sendSystemText } from './system-text';

/** How long a contact has to answer a survey; after that their next message is an ordinary one. */
export const SURVEY_ANSWER_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface FinishedConversation {
  id: string;
  tenantId: string;
  workspaceId: string;
  sectorId: string | null;
  contactId: string;
  channelId: string;
  userId: number | null;
  type: string;
}

/**
 * When an agent or supervisor finishes a conversation the contact took part in, in a
 * sector with an enabled survey, the survey's question goes to the contact in the same transaction
 * (so a finished conversation never misses its survey, and a rolled-back finish sends nothing).
 */
export async function sendSurveyOnFinish(tx: Tx, effects: Effects, conv: FinishedConversation, contactInteracted: boolean, now = new Date()): Promise<boolean> {
  if (!conv.sectorId || !contactInteracted) return false;
  const survey = await tx.survey.findFirst({
    where: { tenantId: conv.tenantId, workspaceId: conv.workspaceId, enabled: true, deletedAt: null, sectorIds: { has: conv.sectorId } },
    orderBy: { createdAt: 'asc' },
  });
  if (!survey) return false;
  // Only the newest survey of a contact on a channel waits for an answer.
  await tx.surveyRun.updateMany({
    where: { tenantId: conv.tenantId, channelId: conv.channelId, contactId: conv.contactId, state: 'pending' },
    data: { state: 'expired' },
  });
  await tx.surveyRun.create({
    data: {
      tenantId: conv.tenantId, surveyId: survey.id, conversationId: conv.id, contactId: conv.contactId, channelId: conv.channelId, sectorId: conv.sectorId,
      userId: conv.userId, sentAt: now, expiresAt: new Date(now.getTime() + SURVEY_ANSWER_WINDOW_MS),
    },
  });
  await sendSystemText(tx, effects, { tenantId: conv.tenantId, conversationId: conv.id }, surveyPrompt(survey.question, survey.options), now, ['survey']);
  return true;
}

export interface SurveyReply {
  tenantId: string;
  channelId: string;
  identifier: string;
  messageId: string;
  externalId: string | null;
  content: string;
}

/**
 * A contact with no open conversation on the channel writes while a survey of theirs is pending:
 * an answer (its number or text) is recorded on the finished conversation and thanked with the
 * greeting message; anything else ends the wait (skipped) and the message opens a conversation as
 * usual. Answers null when the message is not a survey answer.
 */
export async function answerPendingSurvey(ctx: ConversationDeps, reply: SurveyReply): Promise<{ conversationId: string; duplicate: boolean } | null> {
  const { result, effects } = await inTransaction(ctx, async (tx, effects) => {
    const [run] = await tx.$queryRaw<{ id: string; conversationId: string; contactId: string; options: string[]; greeting: string; expiresAt: Date }[]>`
      SELECT r.id, r."conversationId", r."contactId", s.options, s."greetingMessage" AS greeting, r."expiresAt"
      FROM "ContactIdentity" ci
      JOIN "SurveyRun" r ON r."tenantId" = ${reply.tenantId}::uuid AND r."channelId" = ci."channelId" AND r."contactId" = ci."contactId" AND r.state = 'pending'
      JOIN "Survey" s ON s.id = r."surveyId"
      WHERE ci."channelId" = ${reply.channelId}::uuid AND ci.identifier = ${reply.identifier}
      ORDER BY r."sentAt" DESC LIMIT 1
      FOR UPDATE OF r`;
    if (!run) return null;
    const now = new Date();
    if (run.expiresAt <= now) {
      await tx.surveyRun.update({ where: { id: run.id }, data: { state: 'expired' } });
      return null;
    }
    const index = matchSurveyAnswer(run.options, reply.content);
    if (index === null) {
      await tx.surveyRun.update({ where: { id: run.id }, data: { state: 'skipped' } });
      return null;
    }
    const inserted = await tx.$executeRaw`
      INSERT INTO "Message" (id, "tenantId", "conversationId", author, "contactId", content, tags, state, "externalId", "createdAt", "updatedAt")
      VALUES (${reply.messageId}::uuid, ${reply.tenantId}::uuid, ${run.conversationId}::uuid, 'CONTACT'::"MessageAuthor", ${run.contactId}::uuid, ${reply.content},
              ARRAY['survey-answer']::text[], 'sent'::"MessageState", ${reply.externalId}, ${now}, ${now})
      ON CONFLICT (id) DO NOTHING`;
    if (inserted === 0) return { conversationId: run.conversationId, duplicate: true };
    await tx.surveyRun.update({ where: { id: run.id }, data: { state: 'answered', answerIndex: index, answer: run.options[index]!.slice(0, 200), answeredAt: now } });
    const message = await tx.message.findUniqueOrThrow({ where: { id: reply.messageId } });
    effects.messages.push({ tenantId: reply.tenantId, conversationId: run.conversationId, holderUuid: null, message: presentMessage(message) });
    await sendSystemText(tx, effects, { tenantId: reply.tenantId, conversationId: run.conversationId }, run.greeting, new Date(now.getTime() + 1), ['survey']);
    return { conversationId: run.conversationId, duplicate: false };
  });
  if (result) await announceCommitted(ctx, effects);
  return result;
}
