import { randomUUID } from 'node:crypto';
import { CampaignConfigSchema, DEFAULT_ACTION, TemplateComponentSchema, type ReplyAction } from '@atende/contract';
import { phoneVariants, templateBodyFor } from '@atende/core';
import type { ConversationDeps } from './deps';
import { announceCommitted, inTransaction, type Effects, type Tx } from './engine';
import { redistribute } from './presence';
import { sendSystemText } from './system-text';
import { entryBot, handToBot } from './bots';
import { entryMenu } from './menus';
import { announceCampaign, settleCampaign } from './campaigns';
import { presentMessage } from './present';

/**
 * The template message the subscriber received, stored in the conversation at the time it was sent,
 * so the agent sees what the contact answers (issue 14 item 2). Already delivered: no outbox job.
 */
async function storeCampaignMessage(tx: Tx, effects: Effects, target: { tenantId: string; conversationId: string }, components: unknown, subscriber: Candidate): Promise<void> {
  const parsed = TemplateComponentSchema.array().safeParse(components);
  const content = parsed.success ? templateBodyFor(parsed.data, subscriber.parameters) : '';
  if (!content) return;
  const row = await tx.message.create({
    data: { id: randomUUID(), tenantId: target.tenantId, conversationId: target.conversationId, author: 'USER', content, tags: ['campaign'], state: 'sent', externalId: subscriber.externalId, createdAt: subscriber.sentAt ?? new Date() },
  });
  effects.messages.push({ tenantId: target.tenantId, conversationId: target.conversationId, holderUuid: null, message: presentMessage(row) });
}

export interface ReplyInput {
  tenantId: string;
  channelId: string;
  /** The contact's phone (E.164) the reply came from. */
  phone: string;
  conversationId: string;
  /** The quick-reply button pressed, if any. */
  button: string | null;
  text: string;
  /** The provider id of the message this one answers (WhatsApp `context.id`), when it says. */
  contextExternalId?: string | null;
}

export interface ReplyOutcome {
  campaignId: string;
  subscriberId: string;
  action: ReplyAction['action'];
  replyAction: string;
  /** false when the reply went into a conversation that was already open: the action was only shown. */
  executed: boolean;
}

interface Candidate {
  id: string;
  campaignId: string;
  state: string;
  externalId: string | null;
  sentAt: Date | null;
  parameters: string[];
  config: unknown;
}

/**
 * Which subscriber a reply answers (issue 14 item 1): the one whose message the reply quotes (the
 * provider's context id), else, among the campaigns sent to this phone on this channel and not yet
 * answered, the newest whose template has the pressed button, else the newest. A quoted message of a
 * campaign already answered answers nothing: the reply is never handed to another campaign.
 */
function pickSubscriber(candidates: Candidate[], input: ReplyInput): Candidate | null {
  const quoted = input.contextExternalId ? candidates.find((c) => c.externalId === input.contextExternalId) : undefined;
  if (quoted) return quoted.state === 'sent' ? quoted : null;
  const open = candidates.filter((c) => c.state === 'sent');
  if (input.button) {
    const withButton = open.find((c) => {
      const config = CampaignConfigSchema.safeParse(c.config);
      return config.success && Object.hasOwn(config.data.reply_actions, input.button!);
    });
    if (withButton) return withButton;
  }
  return open[0] ?? null;
}

/**
 * Where a conversation opened by this reply goes (spec 001 §3 inbound_entrypoint, issue 14 item 8):
 * the entry point of the campaign the reply answers (same attribution as the reply action), when it
 * has one that still works; null leaves the channel's entry point. Read in the receiver's transaction.
 */
export async function campaignReplyEntry(
  tx: Tx,
  input: { tenantId: string; channelId: string; phone: string; button: string | null; contextExternalId: string | null },
): Promise<{ entrySectorId: string | null; entryMenuId: string | null; entryBotId: string | null } | null> {
  const phones = phoneVariants(input.phone);
  const candidates = await tx.$queryRaw<(Candidate & { entrySectorId: string | null; entryMenuId: string | null; entryBotId: string | null })[]>`
    SELECT s.id, s."campaignId", s.state, s."externalId", s."sentAt", s.parameters, c.config, c."entrySectorId", c."entryMenuId", c."entryBotId"
    FROM "CampaignSubscriber" s JOIN "Campaign" c ON c.id = s."campaignId"
    WHERE s."tenantId" = ${input.tenantId}::uuid AND s."phoneNumber" = ANY(${phones}::text[]) AND c."channelId" = ${input.channelId}::uuid
      AND (s.state = 'sent' OR (${input.contextExternalId}::text IS NOT NULL AND s."externalId" = ${input.contextExternalId}::text))
    ORDER BY s."sentAt" DESC NULLS LAST LIMIT 50`;
  const picked = pickSubscriber(candidates, { ...input, conversationId: '', text: '' });
  const campaign = picked ? candidates.find((c) => c.id === picked.id)! : null;
  if (!campaign) return null;
  if (campaign.entryMenuId) return (await entryMenu(tx, input.tenantId, campaign.entryMenuId)) ? { entrySectorId: null, entryMenuId: campaign.entryMenuId, entryBotId: null } : null;
  if (campaign.entryBotId) return (await entryBot(tx, input.tenantId, campaign.entryBotId)) ? { entrySectorId: null, entryMenuId: null, entryBotId: campaign.entryBotId } : null;
  if (!campaign.entrySectorId) return null;
  const sector = await tx.sector.findFirst({ where: { id: campaign.entrySectorId, tenantId: input.tenantId, deletedAt: null }, select: { id: true } });
  return sector ? { entrySectorId: sector.id, entryMenuId: null, entryBotId: null } : null;
}

/**
 * A subscriber answered a campaign (spec 001 §1, §3): the pressed button's action (or DEFAULT_ACTION)
 * runs on the campaign's own conversation, the one the reply opened: end_dnd adds the contact to the
 * lists, transfer_to_sector puts the conversation in the sector's queue, chatbot_outbound hands it
 * to a bot, end_with_message ends it; each sends its message through the channel. (Broadcast campaigns
 * closed their own conversation when sending: the reply opened a new one through the entry point.) When the contact already had an open conversation
 * (waiting, with a bot, with an agent) the reply is only a message there and the action is shown as a
 * history event, never run over the agent's head; end_dnd still protects the contact (issue 14 item 2).
 * The template message the subscriber received is stored in the conversation before the reply.
 * Runs once per subscriber (the first answer), so a repeated webhook changes nothing.
 */
export async function runReplyAction(deps: ConversationDeps, input: ReplyInput): Promise<ReplyOutcome | null> {
  const { result, effects } = await inTransaction(deps, async (tx, effects) => {
    const phones = phoneVariants(input.phone);
    const candidates = await tx.$queryRaw<Candidate[]>`
      SELECT s.id, s."campaignId", s.state, s."externalId", s."sentAt", s.parameters, c.config
      FROM "CampaignSubscriber" s JOIN "Campaign" c ON c.id = s."campaignId"
      WHERE s."tenantId" = ${input.tenantId}::uuid AND s."phoneNumber" = ANY(${phones}::text[]) AND c."channelId" = ${input.channelId}::uuid
        AND (s.state = 'sent' OR (${input.contextExternalId ?? null}::text IS NOT NULL AND s."externalId" = ${input.contextExternalId ?? null}::text))
      ORDER BY s."sentAt" DESC NULLS LAST LIMIT 50 FOR UPDATE OF s SKIP LOCKED`;
    const subscriber = pickSubscriber(candidates, input);
    if (!subscriber) return null;
    const campaign = await tx.campaign.findUniqueOrThrow({ where: { id: subscriber.campaignId }, include: { template: true } });
    const conversation = await tx.conversation.findUniqueOrThrow({ where: { id: input.conversationId } });
    const config = CampaignConfigSchema.safeParse(campaign.config);
    const byButton = input.button && config.success ? config.data.reply_actions[input.button] : undefined;
    const action: ReplyAction = byButton ?? (config.success ? config.data.default_action : { action: 'end_with_message' });
    const replyAction = byButton ? input.button! : input.button ? `${input.button} (${DEFAULT_ACTION})` : 'reply';
    const now = new Date();
    // The campaign's own conversation is the one its reply opened; an older one is somebody else's work.
    const own = subscriber.sentAt !== null && conversation.createdAt >= subscriber.sentAt;
    await tx.campaignSubscriber.update({
      where: { id: subscriber.id },
      data: { state: 'completed', repliedAt: now, replyAction: replyAction.slice(0, 200), replyText: input.text.slice(0, 2000), conversationId: input.conversationId, contactId: conversation.contactId },
    });
    // Also for broadcast (whose send is in its own closed conversation): the agent sees what the reply answers.
    await storeCampaignMessage(tx, effects, { tenantId: input.tenantId, conversationId: conversation.id }, campaign.template?.components, subscriber);
    if (action.action === 'end_dnd') {
      await tx.dndContact.createMany({ data: action.dnd_list.map((dndListId) => ({ dndListId, contactId: conversation.contactId, tenantId: input.tenantId })), skipDuplicates: true });
    }
    await tx.conversationEvent.create({
      data: { tenantId: input.tenantId, conversationId: conversation.id, type: 'campaign-reply', detail: { done_by: 'campaign', campaign_name: campaign.name, reply_action: action.action, executed: own } },
    });
    if (!own) {
      effects.conversation(conversation.id);
      return { campaignId: campaign.id, subscriberId: subscriber.id, action: action.action, replyAction, executed: false };
    }
    if (action.action === 'transfer_to_sector' && conversation.state === 'waiting') {
      const sector = await tx.sector.findFirst({ where: { id: action.sector_uuid, tenantId: input.tenantId }, select: { id: true, name: true } });
      if (sector) {
        await tx.conversation.update({ where: { id: conversation.id }, data: { sectorId: sector.id } });
        await tx.conversationEvent.create({ data: { tenantId: input.tenantId, conversationId: conversation.id, type: 'transfer', detail: { done_by: 'campaign', new_sector: { uuid: sector.id, name: sector.name } } } });
        effects.queueChanged(input.tenantId, conversation.workspaceId);
      }
    }
    const message = action.message?.trim();
    if (message) await sendSystemText(tx, effects, { tenantId: input.tenantId, conversationId: conversation.id }, message, now);
    // chatbot_outbound: the bot talks to the contact from its Start, after the message (a job of the worker).
    if (action.action === 'chatbot_outbound' && conversation.state !== 'closed') await handToBot(tx, effects, conversation, action.bot_uuid, new Date(now.getTime() + 1));
    // Broadcast closed the campaign's conversation when sending; the reply's is an ordinary one, ended only by the action.
    const ends = action.action === 'end_dnd' || action.action === 'end_with_message';
    if (ends && conversation.state !== 'closed') {
      await tx.conversation.update({ where: { id: conversation.id }, data: { state: 'closed', closedAt: now, endedBy: 'system' } });
      await tx.conversationEvent.create({ data: { tenantId: input.tenantId, conversationId: conversation.id, type: 'closed', detail: { ended_by: 'system', done_by: 'campaign', reply_action: action.action } } });
      effects.queueChanged(input.tenantId, conversation.workspaceId);
    }
    effects.conversation(conversation.id);
    return { campaignId: campaign.id, subscriberId: subscriber.id, action: action.action, replyAction, executed: true };
  });
  await announceCommitted(deps, effects);
  if (result) {
    await redistribute(deps, effects);
    // A reply to a finished campaign may complete it with engagement (issue 14 item 5).
    await settleCampaign(deps.db, result.campaignId);
    await announceCampaign(deps, result.campaignId);
  }
  return result;
}
