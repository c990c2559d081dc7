import { Prisma } from '@atende/db';
import type { ConversationDeps } from './deps';
import { announceCommitted, inTransaction } from './engine';
import { redistribute, returnToQueue } from './presence';
import { sendSystemText } from './system-text';

/** Conversations one automation handles per run; the next run (30 s later) takes the rest. */
export const AUTOMATION_BATCH = 200;

interface Candidate {
  id: string;
  episode: Date;
}

/**
 * Actions with conditions and operations (enter-queue reason custom_action,
 * closed by custom action): every enabled automation with operations looks for the conversations its
 * timer has run out on, checks its conditions in SQL, and applies its operations in order. Each
 * (automation, conversation, episode) runs once: the episode is the instant the timer started (the
 * agent's last message, or joining the queue), recorded in the same transaction as the operations.
 */
export async function runAutomations(deps: ConversationDeps, now = new Date()): Promise<{ automations: number; applied: number }> {
  const automations = await deps.db.automation.findMany({
    where: { enabled: true, deletedAt: null, operations: { some: {} } },
    include: { conditions: true, operations: { orderBy: { position: 'asc' } } },
  });
  let applied = 0;
  for (const automation of automations) {
    const cutoff = new Date(now.getTime() - automation.minutes * 60_000);
    const conditions = automation.conditions.map((c) => {
      const column = c.field === 'sector' ? Prisma.sql`c."sectorId"` : Prisma.sql`c."channelId"`;
      return c.operator === 'equals' ? Prisma.sql`AND ${column} = ${c.value}::uuid` : Prisma.sql`AND ${column} IS DISTINCT FROM ${c.value}::uuid`;
    });
    const scope = Prisma.sql`c."tenantId" = ${automation.tenantId}::uuid AND c."workspaceId" = ${automation.workspaceId}::uuid ${conditions.length ? Prisma.join(conditions, ' ') : Prisma.empty}`;
    const fresh = Prisma.sql`NOT EXISTS (SELECT 1 FROM "AutomationRun" r WHERE r."automationId" = ${automation.id}::uuid AND r."conversationId" = c.id AND r.episode = e.episode)`;
    const candidates =
      automation.trigger === 'waiting_too_long'
        ? await deps.db.$queryRaw<Candidate[]>`
            SELECT c.id, e.episode FROM "Conversation" c CROSS JOIN LATERAL (SELECT c."timeJoin" AS episode) e
            WHERE ${scope} AND c.state = 'waiting'::"ConversationState" AND c."timeJoin" <= ${cutoff} AND ${fresh}
            ORDER BY c."timeJoin" LIMIT ${AUTOMATION_BATCH}`
        : // contact_inactive: an agent's conversation whose last public message is the agent's, older than the timer.
          await deps.db.$queryRaw<Candidate[]>`
            SELECT c.id, e.episode FROM "Conversation" c
            CROSS JOIN LATERAL (
              SELECT m."createdAt" AS episode, m.author FROM "Message" m
              WHERE m."conversationId" = c.id AND m.internal = false ORDER BY m."createdAt" DESC LIMIT 1
            ) e
            WHERE ${scope} AND c.state = 'answered'::"ConversationState" AND e.author = 'USER'::"MessageAuthor" AND e.episode <= ${cutoff} AND ${fresh}
            ORDER BY e.episode LIMIT ${AUTOMATION_BATCH}`;
    for (const candidate of candidates) {
      const { result, effects } = await inTransaction(deps, async (tx, effects) => {
        const claimed = await tx.$executeRaw`
          INSERT INTO "AutomationRun" ("automationId", "conversationId", episode, "tenantId", at)
          VALUES (${automation.id}::uuid, ${candidate.id}::uuid, ${candidate.episode}, ${automation.tenantId}::uuid, ${now})
          ON CONFLICT DO NOTHING`;
        if (claimed === 0) return false;
        const [locked] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Conversation" WHERE id = ${candidate.id}::uuid FOR UPDATE`;
        let conv = await tx.conversation.findUniqueOrThrow({ where: { id: locked!.id } });
        // The conversation moved on since the lookup (answered, closed): leave it.
        if (conv.state !== (automation.trigger === 'waiting_too_long' ? 'waiting' : 'answered')) return false;
        const target = { tenantId: conv.tenantId, conversationId: conv.id };
        let at = now.getTime();
        for (const op of automation.operations) {
          if (conv.state === 'closed') break;
          if (op.type === 'send_message' && op.value) await sendSystemText(tx, effects, target, op.value, new Date(at++), ['automation']);
          if (op.type === 'return_to_queue' && conv.state !== 'waiting') await returnToQueue(tx, effects, conv, 'custom_action', null);
          if (op.type === 'transfer_to_sector' && op.value) {
            const sector = await tx.sector.findFirst({ where: { id: op.value, tenantId: conv.tenantId, deletedAt: null }, select: { id: true, name: true } });
            if (sector) {
              const oldSector = conv.sectorId ? await tx.sector.findUnique({ where: { id: conv.sectorId }, select: { id: true, name: true } }) : null;
              if (conv.state !== 'waiting') await returnToQueue(tx, effects, conv, 'custom_action', null);
              await tx.conversation.update({ where: { id: conv.id }, data: { sectorId: sector.id } });
              // In the conversation's history as the agents' transfers are, named as the automation's.
              await tx.conversationEvent.create({
                data: {
                  tenantId: conv.tenantId,
                  conversationId: conv.id,
                  type: 'transfer',
                  at: new Date(at++),
                  detail: {
                    done_by: 'automation',
                    custom_action_name: automation.name,
                    old_sector: oldSector ? { uuid: oldSector.id, name: oldSector.name } : null,
                    new_sector: { uuid: sector.id, name: sector.name },
                    old_user: null,
                    new_user: null,
                  },
                },
              });
              effects.queueChanged(conv.tenantId, conv.workspaceId);
            }
          }
          if (op.type === 'close') {
            await tx.conversation.update({ where: { id: conv.id }, data: { state: 'closed', closedAt: new Date(at++), endedBy: 'automation' } });
            await tx.conversationEvent.create({
              data: { tenantId: conv.tenantId, conversationId: conv.id, type: 'closed', detail: { ended_by: 'automation', custom_action_name: automation.name } },
            });
            effects.former(conv.id, conv.userId);
            if (conv.state === 'waiting') effects.queueChanged(conv.tenantId, conv.workspaceId);
            else if (conv.userId !== null) effects.distribute.set(conv.workspaceId, conv.tenantId);
          }
          conv = await tx.conversation.findUniqueOrThrow({ where: { id: conv.id } });
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
