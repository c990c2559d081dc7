import { randomUUID } from 'node:crypto';
import { queues } from '@atende/contract';
import { enqueue, insertSystemMessage } from '@atende/db';
import type { Effects, Tx } from './engine';
import { presentMessage } from './present';

/**
 * A text to the contact sent by the system (a survey, a menu, a campaign reply action): author USER
 * without a user, as channel delivery sends only USER messages. Stored and queued for delivery in
 * the caller's transaction (outbox), announced after it commits.
 */
export async function sendSystemText(
  tx: Tx,
  effects: Effects,
  target: { tenantId: string; conversationId: string },
  content: string,
  at: Date,
  tags: string[] = [],
): Promise<void> {
  const id = randomUUID();
  const row = await insertSystemMessage(tx, { id, tenantId: target.tenantId, conversationId: target.conversationId, content, tags, at });
  await enqueue(tx, queues.channelDelivery.name, { tenant_uuid: target.tenantId, message_uuid: id });
  effects.messages.push({
    tenantId: target.tenantId,
    conversationId: target.conversationId,
    holderUuid: null,
    message: presentMessage(row),
  });
}
