import { randomUUID } from 'node:crypto';
import { CampaignConfigSchema, DEFAULT_ACTION, TemplateComponentSchema, type ReplyAction } from '@atende/contract';
import { phoneVariants, templateBodyFor } from '@atende/core';
import {
  addContactToDndLists,
  campaignReplyCandidates,
  closeConversationBySystem,
  completeCampaignSubscriber,
  insertCampaignConversationEvent,
  insertCampaignTemplateMessage,
  templateComponents,
  type CampaignReplyCandidate,
} from '@atende/db';
import type { ConversationDeps } from './deps';
import { inTransaction, type Effects, type Tx } from './engine';
import { sendSystemText } from './system-text';
import { announceCampaign, settleCampaign } from './campaigns';
import { campaignEntryOpening, campaignStep, type Opening } from './conversation-entry';
import { presentMessage } from './present';

/**
 * A contact's message that answers a campaign: the subscriber it answers, the
 * pressed button's own reply action, the campaign's default action and its entry point when that
 * still works. Which of them handles the message is decided once, in conversation-entry.ts.
 */
export interface CampaignReply {
  subscriberId: string;
  campaignId: string;
  campaignName: string;
  /** The template as the subscriber received it ('' when it cannot be rendered). */
  templateText: string;
  externalId: string | null;
  sentAt: Date | null;
  button: string | null;
  buttonAction: ReplyAction | null;
  defaultAction: ReplyAction;
  entry: Opening | null;
}

export interface ReplyLookup {
  tenantId: string;
  channelId: string;
  /** The contact's phone (E.164) the reply came from. */
  phone: string;
  /** The quick-reply button pressed, if any. */
  button: string | null;
  /** The provider id of the message this one answers (WhatsApp `context.id`), when it says. */
  contextExternalId: string | null;
}

type Candidate = CampaignReplyCandidate;

/** A button's own action: only keys of the campaign's config count (never Object.prototype's). */
function ownAction(config: unknown, button: string | null): ReplyAction | null {
  if (!button) return null;
  const parsed = CampaignConfigSchema.safeParse(config);
  return parsed.success && Object.hasOwn(parsed.data.reply_actions, button) ? parsed.data.reply_actions[button]! : null;
}

/**
 * Which subscriber a reply answers: the one whose message the reply quotes (the
 * provider's context id), else, among the campaigns sent to this phone on this channel and not yet
 * answered, the newest whose template has the pressed button, else the newest. A quoted message of a
 * campaign already answered answers nothing: the reply is never handed to another campaign.
 */
/**
 * Subscriber states a reply can answer: sent, and unknown (a send whose outcome was never learnt):
 * a reply proves the template arrived, so it settles the row as completed.
 */
const ANSWERABLE: ReadonlySet<string> = new Set(['sent', 'unknown']);

function pickSubscriber(candidates: Candidate[], input: ReplyLookup): Candidate | null {
  const quoted = input.contextExternalId ? candidates.find((c) => c.externalId === input.contextExternalId) : undefined;
  if (quoted) return ANSWERABLE.has(quoted.state) ? quoted : null;
  const open = candidates.filter((c) => ANSWERABLE.has(c.state));
  return (input.button ? open.find((c) => ownAction(c.config, input.button)) : undefined) ?? open[0] ?? null;
}

/**
 * The campaign a contact's message answers, if any, read in the caller's transaction. The
 * subscriber row is locked (skipping one another delivery is answering), so a reply counts once.
 */
export async function findCampaignReply(tx: Tx, input: ReplyLookup): Promise<CampaignReply | null> {
  const phones = phoneVariants(input.phone);
  const candidates = await campaignReplyCandidates(tx, {
    tenantId: input.tenantId,
    channelId: input.channelId,
    phones,
    contextExternalId: input.contextExternalId,
  });
  const picked = pickSubscriber(candidates, input);
  if (!picked) return null;
  const config = CampaignConfigSchema.safeParse(picked.config);
  const components = TemplateComponentSchema.array().safeParse(
    picked.templateId ? await templateComponents(tx, picked.templateId) : undefined,
  );
  return {
    subscriberId: picked.id,
    campaignId: picked.campaignId,
    campaignName: picked.name,
    templateText: components.success ? templateBodyFor(components.data, picked.parameters) : '',
    externalId: picked.externalId,
    sentAt: picked.sentAt,
    button: input.button,
    buttonAction: ownAction(picked.config, input.button),
    defaultAction: config.success ? config.data.default_action : { action: 'end_with_message' },
    entry: await campaignEntryOpening(tx, input.tenantId, picked),
  };
}

/**
 * Records a campaign reply in the conversation holding the message (whichever step handles it):
 * the subscriber completed with what they answered, the template they received stored before the
 * reply (already delivered, so no outbox job), the contact on end_dnd's lists, and
 * a history event saying whether the reply opened the conversation (`executed`) or only joined one.
 */
export async function recordCampaignReply(
  tx: Tx,
  effects: Effects,
  reply: CampaignReply,
  conversation: { id: string; tenantId: string; contactId: string },
  text: string,
  executed: boolean,
): Promise<void> {
  const step = campaignStep(reply);
  const action = step.kind === 'reply_action' ? step.action : null;
  const label =
    step.kind === 'reply_action' && step.byDefault
      ? reply.button
        ? `${reply.button} (${DEFAULT_ACTION})`
        : 'reply'
      : (reply.button ?? 'reply');
  await completeCampaignSubscriber(tx, reply.subscriberId, {
    replyAction: label.slice(0, 200),
    replyText: text.slice(0, 2000),
    conversationId: conversation.id,
    contactId: conversation.contactId,
  });
  if (reply.templateText) {
    const row = await insertCampaignTemplateMessage(tx, {
      id: randomUUID(),
      tenantId: conversation.tenantId,
      conversationId: conversation.id,
      content: reply.templateText,
      externalId: reply.externalId,
      createdAt: reply.sentAt ?? new Date(),
    });
    effects.messages.push({
      tenantId: conversation.tenantId,
      conversationId: conversation.id,
      holderUuid: null,
      message: presentMessage(row),
    });
  }
  // The opt-out is the contact's: recorded even when an agent, a menu or a bot holds the conversation.
  if (action?.action === 'end_dnd') {
    await addContactToDndLists(tx, conversation.tenantId, conversation.contactId, action.dnd_list);
  }
  await insertCampaignConversationEvent(tx, {
    tenantId: conversation.tenantId,
    conversationId: conversation.id,
    type: 'campaign-reply',
    detail: { done_by: 'campaign', campaign_name: reply.campaignName, reply_action: action?.action ?? 'inbound_entrypoint', executed },
  });
  effects.conversation(conversation.id);
}

/**
 * What a reply action does once its conversation opened as the action asked (conversation-entry.ts
 * openingFor: the sector's queue, the bot, or to be closed): its message to the contact, then, for
 * end_with_message and end_dnd, the conversation closed. A chatbot_outbound bot speaks after the
 * message, from the step queued with the conversation.
 */
export async function runReplyActionStep(
  tx: Tx,
  effects: Effects,
  action: ReplyAction,
  conversation: { id: string; tenantId: string; workspaceId: string },
  at: Date,
): Promise<void> {
  const message = action.message?.trim();
  if (message) await sendSystemText(tx, effects, { tenantId: conversation.tenantId, conversationId: conversation.id }, message, at);
  if (action.action !== 'end_dnd' && action.action !== 'end_with_message') return;
  await closeConversationBySystem(tx, conversation.id, at);
  await insertCampaignConversationEvent(tx, {
    tenantId: conversation.tenantId,
    conversationId: conversation.id,
    type: 'closed',
    detail: { ended_by: 'system', done_by: 'campaign', reply_action: action.action },
  });
  effects.conversation(conversation.id);
}

/**
 * After a campaign reply committed: a finished campaign may now be completed with engagement (issue
 * 14 item 5). The reply is stored: a failure here is logged, not turned into a failed message (the
 * maintenance sweep settles campaigns too, and lists reload on reconnect).
 */
export async function afterCampaignReply(deps: ConversationDeps, campaignId: string): Promise<void> {
  try {
    await settleCampaign(deps.db, campaignId);
    await announceCampaign(deps, campaignId);
  } catch (error) {
    deps.log.error({ err: error, campaignId }, 'campaign settle/announce after a reply failed');
  }
}

/**
 * A campaign reply that joined an open conversation through the receiver's single-statement append
 * (rule 1, holder): recorded in its own transaction, never run.
 */
export async function recordReplyInOpenConversation(
  deps: ConversationDeps,
  lookup: ReplyLookup,
  conversation: { id: string; tenantId: string; contactId: string },
  text: string,
): Promise<void> {
  const { result } = await inTransaction(deps, async (tx, effects) => {
    const reply = await findCampaignReply(tx, lookup);
    if (reply) await recordCampaignReply(tx, effects, reply, conversation, text, false);
    return reply?.campaignId ?? null;
  });
  if (result) await afterCampaignReply(deps, result);
}
