import {
  addConversationEvent,
  automationCandidates,
  claimAutomationRun,
  closeConversationAs,
  conversationById,
  enabledAutomationsToRun,
  lockConversation,
  sectorRef,
  setConversationSector,
} from '@atende/db';
import type { ConversationDeps } from './deps';
import { announceCommitted, inTransaction } from './engine';
import { redistribute, returnToQueue } from './presence';
import { sendSystemText } from './system-text';

/** Conversations one automation handles per run; the next run (30 s later) takes the rest. */
export const AUTOMATION_BATCH = 200;

/**
 * Actions with conditions and operations (enter-queue reason custom_action,
 * closed by custom action): every enabled automation with operations looks for the conversations its
 * timer has run out on, checks its conditions in SQL, and applies its operations in order. Each
 * (automation, conversation, episode) runs once: the episode is the instant the timer started (the
 * agent's last message, or joining the queue), recorded in the same transaction as the operations.
 */
export async function runAutomations(deps: ConversationDeps, now = new Date()): Promise<{ automations: number; applied: number }> {
  const automations = await enabledAutomationsToRun(deps.db);
  let applied = 0;
  for (const automation of automations) {
    const cutoff = new Date(now.getTime() - automation.minutes * 60_000);
    const candidates = await automationCandidates(deps.db, automation, cutoff, AUTOMATION_BATCH);
    for (const candidate of candidates) {
      const { result, effects } = await inTransaction(deps, async (tx, effects) => {
        const run = {
          automationId: automation.id,
          conversationId: candidate.id,
          episode: candidate.episode,
          tenantId: automation.tenantId,
          at: now,
        };
        if (!(await claimAutomationRun(tx, run))) return false;
        let conv = await lockConversation(tx, candidate.id);
        // The conversation moved on since the lookup (answered, closed): leave it.
        if (conv.state !== (automation.trigger === 'waiting_too_long' ? 'waiting' : 'answered')) return false;
        const target = { tenantId: conv.tenantId, conversationId: conv.id };
        let at = now.getTime();
        for (const op of automation.operations) {
          if (conv.state === 'closed') break;
          if (op.type === 'send_message' && op.value) await sendSystemText(tx, effects, target, op.value, new Date(at++), ['automation']);
          if (op.type === 'return_to_queue' && conv.state !== 'waiting') await returnToQueue(tx, effects, conv, 'custom_action', null);
          if (op.type === 'transfer_to_sector' && op.value) {
            const sector = await sectorRef(tx, conv.tenantId, op.value, true);
            if (sector) {
              const oldSector = conv.sectorId ? await sectorRef(tx, conv.tenantId, conv.sectorId, false) : null;
              if (conv.state !== 'waiting') await returnToQueue(tx, effects, conv, 'custom_action', null);
              await setConversationSector(tx, conv.id, sector.id);
              // In the conversation's history as the agents' transfers are, named as the automation's.
              await addConversationEvent(
                tx,
                conv,
                'transfer',
                {
                  done_by: 'automation',
                  custom_action_name: automation.name,
                  old_sector: oldSector ? { uuid: oldSector.id, name: oldSector.name } : null,
                  new_sector: { uuid: sector.id, name: sector.name },
                  old_user: null,
                  new_user: null,
                },
                new Date(at++),
              );
              effects.queueChanged(conv.tenantId, conv.workspaceId);
            }
          }
          if (op.type === 'close') {
            await closeConversationAs(tx, conv, 'automation', new Date(at++), { custom_action_name: automation.name });
            effects.former(conv.id, conv.userId);
            if (conv.state === 'waiting') effects.queueChanged(conv.tenantId, conv.workspaceId);
            else if (conv.userId !== null) effects.distribute.set(conv.workspaceId, conv.tenantId);
          }
          conv = await conversationById(tx, conv.id);
          effects.conversation(conv.id);
        }
        return true;
      });
      if (!result) continue;
      applied++;
      await announceCommitted(deps, effects);
      await redistribute(deps, effects);
    }
  }
  return { automations: automations.length, applied };
}
