import { BotNodeSchema, queues } from '@atende/contract';
import { runBotFlow, tenantConfigOf, type BotHttp, type BotOutcome, type BotVars } from '@atende/core';
import {
  botClosesConversation,
  botConversation,
  botHandsToQueue,
  contactMessagesAfter,
  enqueue,
  handConversationToBot,
  liveBot,
  liveSectorId,
  lockBotRevision,
  storeBotWait,
  tenantById,
  type BotConversation,
  type Prisma,
} from '@atende/db';
import type { ConversationDeps } from './deps';
import { inTransaction, type Effects, type Tx } from './engine';
import { redistribute } from './presence';
import { sendSystemText } from './system-text';
import { announceTicket } from './ticket';

/** The enabled bot a channel greets new conversations with, if any. */
export async function entryBot(tx: Tx, tenantId: string, botId: string | null | undefined) {
  if (!botId) return null;
  // With the tenant's bots switched off (flag bots_interface), a bound bot answers nobody.
  const tenant = await tenantById(tx, tenantId);
  if (tenantConfigOf(tenant?.config).features.bots_interface !== true) return null;
  const bot = await liveBot(tx, tenantId, botId);
  return bot ? { id: bot.id } : null;
}

/** Queues a bot step for a conversation, in the caller's transaction (the outbox relays it). */
export async function queueBotStep(tx: Tx, tenantId: string, conversationId: string): Promise<void> {
  await enqueue(tx, queues.botStep.name, { tenant_uuid: tenantId, conversation_uuid: conversationId });
}

/**
 * Hands a conversation to a bot from its Start (a campaign's chatbot_outbound reply action): state
 * bot, the contact messages so far already read, and a step queued that greets the contact.
 */
export async function handToBot(
  tx: Tx,
  effects: Effects,
  conversation: { id: string; tenantId: string; workspaceId: string },
  botId: string,
  at: Date,
): Promise<void> {
  await handConversationToBot(tx, conversation.id, botId, at);
  await queueBotStep(tx, conversation.tenantId, conversation.id);
  effects.conversation(conversation.id);
  effects.queueChanged(conversation.tenantId, conversation.workspaceId);
}

const varsOf = (json: unknown): BotVars => (json && typeof json === 'object' && !Array.isArray(json) ? (json as BotVars) : {});
/** Variables are kept small: a huge HTTP answer is not stored whole. */
const MAX_VARS_BYTES = 64 * 1024;

async function read(ctx: ConversationDeps, conversationId: string): Promise<BotConversation | null> {
  return botConversation(ctx.db, conversationId);
}

/**
 * What a bot says and decides for the contact messages it has not read yet (flows):
 * the flow runs outside any transaction (its HTTP nodes may take seconds), then its texts and its
 * new state are written in one transaction if nobody moved the conversation meanwhile (the
 * revision); otherwise the step is computed again from the new state. A transfer puts the
 * conversation in the node's sector queue (the channel's entry sector if that one is gone), an End
 * closes it, a flow that cannot go on hands the contact to the entry sector's queue.
 */
export async function runBotSteps(ctx: ConversationDeps, http: BotHttp, conversationId: string): Promise<void> {
  for (let round = 0; round < 20; round++) {
    const conv = await read(ctx, conversationId);
    if (!conv || conv.state !== 'bot' || !conv.botId) return;
    const pending = await contactMessagesAfter(ctx.db, conversationId, conv.botCursor, 50);
    if (conv.botNodeId !== null && pending.length === 0) return;
    // Bots switched off for the tenant (flag bots_interface) stop answering: the contact goes to the queue.
    const botsOn = tenantConfigOf(conv.tenantConfig).features.bots_interface === true;
    const bot = botsOn ? await liveBot(ctx.db, conv.tenantId, conv.botId) : null;

    const texts: string[] = [];
    let outcome: BotOutcome = { kind: 'broken', reason: 'missing_node' };
    let state: { nodeId: string | null; vars: BotVars } = {
      nodeId: conv.botNodeId,
      vars: { ...varsOf(conv.botVars), contact: { name: conv.contactName, phone: conv.contactPhone } },
    };
    let cursor = conv.botCursor;
    const log: { url: string; status: number | null; error: string | null }[] = [];
    if (bot) {
      const nodes = BotNodeSchema.array().catch([]).parse(bot.nodes);
      // A flow not started yet is woken by what the contact wrote; it does not answer it.
      const inputs = state.nodeId === null ? [pending.at(-1) ?? { content: '', createdAt: cursor }] : pending;
      for (const input of inputs) {
        const run = await runBotFlow(nodes, state, input.content, http);
        texts.push(...run.texts);
        log.push(...run.http);
        outcome = run.outcome;
        cursor = state.nodeId === null ? (pending.at(-1)?.createdAt ?? cursor) : input.createdAt;
        if (outcome.kind !== 'wait') break;
        state = { nodeId: outcome.nodeId, vars: run.vars };
      }
      if (outcome.kind === 'wait') state = { ...state, nodeId: outcome.nodeId };
    }
    for (const call of log)
      if (call.error) ctx.log.error({ conversationId, url: call.url, status: call.status, reason: call.error }, 'bot HTTP request failed');

    const { result: committed, effects } = await inTransaction(ctx, async (tx, effects) => {
      const now = await lockBotRevision(tx, conv.id);
      if (!now || now.botRevision !== conv.botRevision || now.state !== 'bot') return false;
      const target = { tenantId: conv.tenantId, conversationId: conv.id };
      const at = Date.now();
      for (const [i, text] of texts.entries()) await sendSystemText(tx, effects, target, text, new Date(at + i), ['bot']);
      const when = new Date(at);
      const detail = { event: 'bot', bot_uuid: conv.botId };
      if (outcome.kind === 'wait') {
        const { contact: _contact, ...vars } = state.vars;
        const stored = JSON.stringify(vars).length > MAX_VARS_BYTES ? { ...vars, response: null } : vars;
        await storeBotWait(tx, conv.id, state.nodeId, stored as Prisma.InputJsonObject, cursor);
      } else if (outcome.kind === 'end') {
        await botClosesConversation(tx, conv, conv.botId, cursor, when);
        effects.conversation(conv.id);
      } else {
        const wanted = outcome.kind === 'transfer' ? outcome.sectorUuid : null;
        const sector = wanted ? await liveSectorId(tx, conv.tenantId, wanted) : null;
        const reason = !botsOn ? 'bots_disabled' : !bot ? 'bot_removed' : outcome.kind === 'broken' ? outcome.reason : undefined;
        const sectorId = sector ?? conv.entrySectorId;
        await botHandsToQueue(tx, conv, sectorId, cursor, when, { ...detail, ...(reason ? { reason } : {}) });
        await announceTicket(
          tx,
          effects,
          { id: conv.id, tenantId: conv.tenantId, sectorId, ticketNumber: conv.ticketNumber },
          new Date(when.getTime() + 1),
        );
        effects.conversation(conv.id);
        effects.queueChanged(conv.tenantId, conv.workspaceId);
      }
      return true;
    });
    if (committed) await redistribute(ctx, effects);
    if (committed && outcome.kind !== 'wait') return;
  }
  ctx.log.error({ conversationId }, 'bot step gave up after 20 rounds');
}
