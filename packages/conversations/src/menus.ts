import { MenuAnswerSchema, type MenuAnswer } from '@atende/contract';
import { matchMenuAnswer, menuPrompt } from '@atende/core';
import {
  enabledMenu,
  liveMenu,
  liveSectorId,
  lockConversationInBot,
  menuClosesConversation,
  menuHandsToQueue,
  setConversationMenu,
} from '@atende/db';
import type { ConversationDeps } from './deps';
import { announceCommitted, Effects, inTransaction, type Tx } from './engine';
import { redistribute } from './presence';
import { sendSystemText } from './system-text';
import { announceTicket } from './ticket';

const answersOf = (json: unknown): MenuAnswer[] => MenuAnswerSchema.array().catch([]).parse(json);

/** The enabled menu a channel greets new conversations with, if any. */
export async function entryMenu(tx: Tx, tenantId: string, menuId: string | null | undefined) {
  if (!menuId) return null;
  return enabledMenu(tx, tenantId, menuId);
}

/** Sends a menu's message and answers to the contact (tag "menu"). */
export async function sendMenu(
  tx: Tx,
  effects: Effects,
  target: { tenantId: string; conversationId: string },
  menu: { message: string; answers: unknown },
  at: Date,
) {
  await sendSystemText(tx, effects, target, menuPrompt(menu.message, answersOf(menu.answers)), at, ['menu']);
}

/**
 * The contact wrote to a conversation an automated menu is holding (state bot): their reply picks
 * an answer whose action runs (terminal actions end the menu), or the invalid-option
 * message and the menu are sent again. The conversation row is locked, so two quick replies run
 * one after the other. A menu deleted meanwhile hands the conversation to the queue.
 */
export async function runMenuStep(ctx: ConversationDeps, conversationId: string, reply: string): Promise<void> {
  const { effects } = await inTransaction(ctx, async (tx, effects) => {
    const conv = await lockConversationInBot(tx, conversationId);
    // A bot flow's conversation is the worker's (bots.ts runBotSteps).
    if (!conv || conv.state !== 'bot' || conv.botId) return;
    const target = { tenantId: conv.tenantId, conversationId: conv.id };
    const now = new Date();
    const toQueue = async (sectorId: string | null, detail: { [key: string]: string }) => {
      await menuHandsToQueue(tx, conv, sectorId, detail, now);
      // After the menu's own last words (sent at `now`).
      await announceTicket(
        tx,
        effects,
        { id: conv.id, tenantId: conv.tenantId, sectorId, ticketNumber: conv.ticketNumber },
        new Date(now.getTime() + 2),
      );
      effects.queueChanged(conv.tenantId, conv.workspaceId);
    };
    const menu = conv.botMenuId ? await liveMenu(tx, conv.tenantId, conv.botMenuId) : null;
    effects.conversation(conv.id);
    if (!menu) return toQueue(conv.entrySectorId, { reason: 'menu_removed' });
    const answers = answersOf(menu.answers);
    const index = matchMenuAnswer(answers, reply);
    if (index === -1) {
      await sendSystemText(tx, effects, target, menu.invalidOptionMessage, now, ['menu']);
      return sendMenu(tx, effects, target, menu, new Date(now.getTime() + 1));
    }
    const answer = answers[index]!;
    const detail = { menu_uuid: menu.id, answer: answer.key };
    if (answer.action.message) await sendSystemText(tx, effects, target, answer.action.message, now, ['menu']);
    const later = new Date(now.getTime() + 1);
    if (answer.action.type === 'transfer_to_sector') {
      const sectorId = await liveSectorId(tx, conv.tenantId, answer.action.sector_uuid);
      return toQueue(sectorId ?? conv.entrySectorId, detail);
    }
    if (answer.action.type === 'end_conversation') {
      await menuClosesConversation(tx, conv, detail, now);
      return;
    }
    const next = answer.action.type === 'go_to_menu' ? await entryMenu(tx, conv.tenantId, answer.action.menu_uuid) : null;
    if (!next) return toQueue(conv.entrySectorId, { ...detail, reason: 'menu_unavailable' });
    await setConversationMenu(tx, conv.id, next.id);
    await sendMenu(tx, effects, target, next, later);
  });
  await announceCommitted(ctx, effects);
  await redistribute(ctx, effects);
}
