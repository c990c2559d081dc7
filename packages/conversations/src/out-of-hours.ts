import { randomUUID } from 'node:crypto';
import { OpeningHoursSchema, queues } from '@atende/contract';
import { claimOutOfHoursReply, enqueue, insertSystemMessage, outOfHoursSettings } from '@atende/db';
import { isWithinOpeningHours } from '@atende/core';
import type { ConversationDeps } from './deps';
import { holderUuid, inTransaction } from './engine';
import { presentMessage } from './present';

/** The tag the out-of-hours reply carries, so history and tests can tell it from an agent's message. */
export const OUT_OF_HOURS_TAG = 'out_of_hours';

/**
 * A contact writing outside the workspace's opening hours (while they are enabled)
 * gets the out-of-hours message back, once per conversation. It travels the normal outbound path
 * (a USER message without an agent, plus a channel-delivery job in the same transaction, as reply
 * actions do); the conversation itself is left alone, so it still enters or stays in the queue.
 * Answers the reply's message id, or null when none was due.
 */
export async function replyOutOfHours(deps: ConversationDeps, conversationId: string, at = new Date()): Promise<string | null> {
  // One indexed read on every contact message; nothing more unless a reply may be due.
  const row = await outOfHoursSettings(deps.db, conversationId);
  if (!row) return null;
  const days = OpeningHoursSchema.shape.days.safeParse(row.days);
  if (!days.success || !row.message.trim() || isWithinOpeningHours({ timezone: row.timezone, days: days.data }, at)) return null;
  const { result } = await inTransaction(deps, async (tx, effects) => {
    // Claimed atomically: two messages racing in the same conversation send one reply.
    const conv = await claimOutOfHoursReply(tx, conversationId, at);
    if (!conv) return null;
    const id = randomUUID();
    const message = await insertSystemMessage(tx, {
      id,
      tenantId: conv.tenantId,
      conversationId,
      content: row.message.trim(),
      tags: [OUT_OF_HOURS_TAG],
      at: new Date(),
    });
    await enqueue(tx, queues.channelDelivery.name, { tenant_uuid: conv.tenantId, message_uuid: id });
    effects.messages.push({
      tenantId: conv.tenantId,
      conversationId,
      holderUuid: await holderUuid(tx, conv.userId),
      message: presentMessage(message),
    });
    return id;
  });
  return result;
}
