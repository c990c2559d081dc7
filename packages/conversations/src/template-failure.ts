import { TEMPLATE_SEND_ERROR_TAG } from '@atende/contract';
import type { ConversationDeps } from './deps';
import { inTransaction } from './engine';

/**
 * The template that started a conversation could not be sent (issue 16 item 3, spec 000 §2): its
 * message gets the `template-send-error` tag and the conversation, still outbound-started, is closed
 * by the system, so the agent sees "There were errors sending template message" with Close instead of
 * a chat waiting forever for an answer that cannot come. Anything else (a later failed message, a
 * conversation the contact already answered) is left as it is. True when it closed the conversation.
 */
export async function closeFailedTemplateStart(ctx: ConversationDeps, tenantId: string, messageId: string, failure?: { reason: string }): Promise<boolean> {
  const { result } = await inTransaction(ctx, async (tx, effects) => {
    // With `failure`, the message is marked failed in the same transaction: a worker dying in between
    // would otherwise leave a failed template (skipped on retry) and the conversation open forever.
    if (failure) await tx.message.updateMany({ where: { id: messageId, tenantId, state: 'pending' }, data: { status: 'failed', errorMessage: failure.reason } });
    const message = await tx.message.findFirst({
      where: { id: messageId, tenantId },
      select: { id: true, tags: true, templateMessage: true, conversation: { select: { id: true, state: true } } },
    });
    if (!message || message.templateMessage === null || message.conversation.state !== 'outbound_started') return false;
    const closed = await tx.conversation.updateMany({
      where: { id: message.conversation.id, tenantId, state: 'outbound_started' },
      data: { state: 'closed', closedAt: new Date(), endedBy: 'system' },
    });
    if (closed.count === 0) return false;
    if (!message.tags.includes(TEMPLATE_SEND_ERROR_TAG)) {
      await tx.message.update({ where: { id: message.id }, data: { tags: { push: TEMPLATE_SEND_ERROR_TAG } } });
    }
    effects.conversation(message.conversation.id);
    return true;
  });
  return result;
}
