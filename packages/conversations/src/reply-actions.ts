import { CampaignConfigSchema, DEFAULT_ACTION, type ReplyAction } from '@atende/contract';
import type { ConversationDeps } from './deps';
import { announceCommitted, inTransaction } from './engine';
import { redistribute } from './presence';
import { sendSystemText } from './system-text';
import { handToBot } from './bots';
import { announceCampaign } from './campaigns';

export interface ReplyInput {
  tenantId: string;
  channelId: string;
  /** The contact's phone (E.164) the reply came from. */
  phone: string;
  conversationId: string;
  /** The quick-reply button pressed, if any. */
  button: string | null;
  text: string;
}

export interface ReplyOutcome {
  campaignId: string;
  subscriberId: string;
  action: ReplyAction['action'];
  replyAction: string;
}

/**
 * A subscriber answered a campaign (spec 001 §1, §3): the latest campaign sent to this phone on this
 * channel and not yet answered runs the pressed button's action (or DEFAULT_ACTION): end_dnd adds
 * the contact to the lists, transfer_to_sector puts the conversation in the sector's queue,
 * chatbot_outbound hands it to a bot, end_with_message ends it; each sends its message through the channel. Broadcast campaigns close
 * the conversation after their message. The subscriber becomes completed with what was answered.
 * Runs once per subscriber (the first answer), so a repeated webhook changes nothing.
 */
export async function runReplyAction(deps: ConversationDeps, input: ReplyInput): Promise<ReplyOutcome | null> {
  const { result, effects } = await inTransaction(deps, async (tx, effects) => {
    const [subscriber] = await tx.$queryRaw<{ id: string; campaignId: string }[]>`
      SELECT s.id, s."campaignId" FROM "CampaignSubscriber" s JOIN "Campaign" c ON c.id = s."campaignId"
      WHERE s."tenantId" = ${input.tenantId}::uuid AND s."phoneNumber" = ${input.phone} AND s.state = 'sent' AND c."channelId" = ${input.channelId}::uuid
      ORDER BY s."sentAt" DESC NULLS LAST LIMIT 1 FOR UPDATE OF s SKIP LOCKED`;
    if (!subscriber) return null;
    const campaign = await tx.campaign.findUniqueOrThrow({ where: { id: subscriber.campaignId } });
    const conversation = await tx.conversation.findUniqueOrThrow({ where: { id: input.conversationId } });
    const config = CampaignConfigSchema.safeParse(campaign.config);
    const byButton = input.button && config.success ? config.data.reply_actions[input.button] : undefined;
    const action: ReplyAction = byButton ?? (config.success ? config.data.default_action : { action: 'end_with_message' });
    const replyAction = byButton ? input.button! : input.button ? `${input.button} (${DEFAULT_ACTION})` : 'reply';
    const now = new Date();
    await tx.campaignSubscriber.update({
      where: { id: subscriber.id },
      data: { state: 'completed', repliedAt: now, replyAction: replyAction.slice(0, 200), replyText: input.text.slice(0, 2000), conversationId: input.conversationId, contactId: conversation.contactId },
    });
    if (action.action === 'end_dnd') {
      await tx.dndContact.createMany({ data: action.dnd_list.map((dndListId) => ({ dndListId, contactId: conversation.contactId, tenantId: input.tenantId })), skipDuplicates: true });
    }
    if (action.action === 'transfer_to_sector' && conversation.state === 'waiting') {
      await tx.conversation.update({ where: { id: conversation.id }, data: { sectorId: action.sector_uuid } });
      await tx.conversationEvent.create({ data: { tenantId: input.tenantId, conversationId: conversation.id, type: 'transfer', detail: { done_by: 'campaign', sector_uuid: action.sector_uuid } } });
      effects.queueChanged(input.tenantId, conversation.workspaceId);
    }
    const message = action.message?.trim();
    if (message) await sendSystemText(tx, effects, { tenantId: input.tenantId, conversationId: conversation.id }, message, now);
    // chatbot_outbound: the bot talks to the contact from its Start, after the message (a job of the worker).
    if (action.action === 'chatbot_outbound' && conversation.state !== 'closed') await handToBot(tx, effects, conversation, action.bot_uuid, new Date(now.getTime() + 1));
    const handedOn = action.action === 'transfer_to_sector' || action.action === 'chatbot_outbound';
    const ends = action.action === 'end_dnd' || action.action === 'end_with_message' || (campaign.mode === 'broadcast' && !handedOn);
    if (ends && conversation.state !== 'closed') {
      await tx.conversation.update({ where: { id: conversation.id }, data: { state: 'closed', closedAt: now, endedBy: 'system' } });
      await tx.conversationEvent.create({ data: { tenantId: input.tenantId, conversationId: conversation.id, type: 'closed', detail: { ended_by: 'system', done_by: 'campaign', reply_action: action.action } } });
      effects.queueChanged(input.tenantId, conversation.workspaceId);
    }
    effects.conversation(conversation.id);
    return { campaignId: campaign.id, subscriberId: subscriber.id, action: action.action, replyAction };
  });
  await announceCommitted(deps, effects);
  if (result) {
    await redistribute(deps, effects);
    await announceCampaign(deps, result.campaignId);
  }
  return result;
}
