import { TEMPLATE_SEND_ERROR_TAG } from '@atende/contract';
import { closeOutboundStartedConversation, failPendingMessage, messageWithConversationState, tagMessage } from '@atende/db';
import type { ConversationDeps } from './deps';
import { inTransaction } from './engine';

/**
 * The template that started a conversation could not be sent: its
 * message gets the `template-send-error` tag and the conversation, still outbound-started, is closed
 * by the system, so the agent sees "There were errors sending template message" with Close instead of
 * a chat waiting forever for an answer that cannot come. Anything else (a later failed message, a
 * conversation the contact already answered) is left as it is. True when it closed the conversation.
 */
export async function closeFailedTemplateStart(
  ctx: ConversationDeps,
  tenantId: string,
  messageId: string,
  failure?: { reason: string },
): Promise<boolean> {
  const { result } = await inTransaction(ctx, async (tx, effects) => {
    // With `failure`, the message is marked failed in the same transaction: a worker dying in between
    // would otherwise leave a failed template (skipped on retry) and the conversation open forever.
    if (failure) await failPendingMessage(tx, tenantId, messageId, failure.reason);
    const message = await messageWithConversationState(tx, tenantId, messageId);
    if (!message || message.templateMessage === null || message.conversation.state !== 'outbound_started') return false;
    if (!(await closeOutboundStartedConversation(tx, tenantId, message.conversation.id))) return false;
    if (!message.tags.includes(TEMPLATE_SEND_ERROR_TAG)) {
      await tagMessage(tx, message.id, TEMPLATE_SEND_ERROR_TAG);
    }
    effects.conversation(message.conversation.id);
    return true;
  });
  return result;
}
