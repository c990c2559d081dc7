import { matchSurveyAnswer, surveyPrompt } from '@atende/core';
import {
  answerSurveyRun,
  endSurveyRun,
  insertContactMessage,
  lockPendingSurveyRun,
  messageRowById,
  startSurveyRun,
  surveyForSector,
} from '@atende/db';
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
export async function sendSurveyOnFinish(
  tx: Tx,
  effects: Effects,
  conv: FinishedConversation,
  contactInteracted: boolean,
  now = new Date(),
): Promise<boolean> {
  if (!conv.sectorId || !contactInteracted) return false;
  const survey = await surveyForSector(tx, conv, conv.sectorId);
  if (!survey) return false;
  await startSurveyRun(tx, {
    tenantId: conv.tenantId,
    surveyId: survey.id,
    conversationId: conv.id,
    contactId: conv.contactId,
    channelId: conv.channelId,
    sectorId: conv.sectorId,
    userId: conv.userId,
    sentAt: now,
    expiresAt: new Date(now.getTime() + SURVEY_ANSWER_WINDOW_MS),
  });
  await sendSystemText(
    tx,
    effects,
    { tenantId: conv.tenantId, conversationId: conv.id },
    surveyPrompt(survey.question, survey.options),
    now,
    ['survey'],
  );
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
export async function answerPendingSurvey(
  ctx: ConversationDeps,
  reply: SurveyReply,
): Promise<{ conversationId: string; duplicate: boolean } | null> {
  const { result, effects } = await inTransaction(ctx, async (tx, effects) => {
    const run = await lockPendingSurveyRun(tx, reply.tenantId, reply.channelId, reply.identifier);
    if (!run) return null;
    const now = new Date();
    if (run.expiresAt <= now) {
      await endSurveyRun(tx, run.id, 'expired');
      return null;
    }
    const index = matchSurveyAnswer(run.options, reply.content);
    if (index === null) {
      await endSurveyRun(tx, run.id, 'skipped');
      return null;
    }
    const answer = {
      id: reply.messageId,
      tenantId: reply.tenantId,
      content: reply.content,
      tags: ['survey-answer'],
      externalId: reply.externalId,
      annexId: null,
      interactiveJson: null,
      voice: false,
      at: now,
    };
    if (!(await insertContactMessage(tx, answer, run.conversationId, run.contactId, 'skip')))
      return { conversationId: run.conversationId, duplicate: true };
    await answerSurveyRun(tx, run.id, index, run.options[index]!, now);
    const message = await messageRowById(tx, reply.messageId);
    effects.messages.push({
      tenantId: reply.tenantId,
      conversationId: run.conversationId,
      holderUuid: null,
      message: presentMessage(message),
    });
    await sendSystemText(
      tx,
      effects,
      { tenantId: reply.tenantId, conversationId: run.conversationId },
      run.greeting,
      new Date(now.getTime() + 1),
      ['survey'],
    );
    return { conversationId: run.conversationId, duplicate: false };
  });
  if (result) await announceCommitted(ctx, effects);
  return result;
}
