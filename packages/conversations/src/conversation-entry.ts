import { liveSectorId } from '@atende/db';
import type { ReplyAction } from '@atende/contract';
import { entryBot } from './bots';
import type { Tx } from './engine';
import { entryMenu } from './menus';
import type { CampaignReply } from './reply-actions';

/*
 * The conversation-entry rule (docs/conversation-entry.md). Every contact message is handled by
 * exactly one step, chosen once by decideEntry from the message and its context:
 *
 * 1. holder: the contact has an open conversation on the channel. The message joins it and only
 *    whatever holds it reads it (its automated menu, its bot, the queue or the agent). If it also
 *    answers a campaign, the reply is recorded and shown as history; no reply action runs over the
 *    holder's head, except that end_dnd still adds the contact to its lists (the opt-out is theirs).
 * 2. reply_action: no open conversation, the message answers a campaign, and either the pressed
 *    button has a reply action of its own, or the campaign has no working entry point (its default
 *    action). The conversation opens for that action alone: transfer_to_sector in the action's
 *    sector queue, chatbot_outbound with the action's bot, end_with_message / end_dnd closed.
 * 3. campaign_entry: no open conversation, the message answers a campaign with free text or a button
 *    without an action of its own, and the campaign's entry point (sector, menu or bot) still works.
 *    The conversation opens through that entry point; the default action does not run.
 * 4. channel_entry: no open conversation and no campaign answered: the channel's entry point.
 *
 * (With no open conversation, a pending satisfaction survey takes the message first when it is one
 * of the survey's options, see surveys.ts.)
 */

export type MenuRow = NonNullable<Awaited<ReturnType<typeof entryMenu>>>;

/** How a new conversation starts: in a sector's queue, held by a menu or a bot, or to be closed by its ending reply action in the same transaction. */
export type Opening =
  | { kind: 'queue'; sectorId: string | null }
  | { kind: 'menu'; menu: MenuRow }
  | { kind: 'bot'; botId: string }
  | { kind: 'closed'; sectorId: string | null };

/** An entry point as a channel or a campaign stores it: a sector, an automated menu or a bot. */
export interface EntryPoint {
  entrySectorId: string | null;
  entryMenuId?: string | null;
  entryBotId?: string | null;
}

export type EntryStep =
  | { kind: 'holder' }
  | { kind: 'reply_action'; action: ReplyAction; byDefault: boolean }
  | { kind: 'campaign_entry'; opening: Opening }
  | { kind: 'channel_entry' };

/** The step a campaign reply takes when it opens the conversation (rules 2 and 3). */
export function campaignStep(
  reply: Pick<CampaignReply, 'buttonAction' | 'defaultAction' | 'entry'>,
): Extract<EntryStep, { kind: 'reply_action' | 'campaign_entry' }> {
  if (reply.buttonAction) return { kind: 'reply_action', action: reply.buttonAction, byDefault: false };
  if (reply.entry) return { kind: 'campaign_entry', opening: reply.entry };
  return { kind: 'reply_action', action: reply.defaultAction, byDefault: true };
}

/** The one decision: which single step handles a contact's message (the rule above). */
export function decideEntry(context: {
  open: boolean;
  reply: Pick<CampaignReply, 'buttonAction' | 'defaultAction' | 'entry'> | null;
}): EntryStep {
  if (context.open) return { kind: 'holder' };
  if (!context.reply) return { kind: 'channel_entry' };
  return campaignStep(context.reply);
}

/** A channel's entry point: its enabled menu, else its bot, else its entry sector's queue. */
export async function channelOpening(tx: Tx, tenantId: string, channel: EntryPoint): Promise<Opening> {
  const menu = await entryMenu(tx, tenantId, channel.entryMenuId);
  if (menu) return { kind: 'menu', menu };
  const bot = await entryBot(tx, tenantId, channel.entryBotId);
  if (bot) return { kind: 'bot', botId: bot.id };
  return { kind: 'queue', sectorId: channel.entrySectorId };
}

/**
 * A campaign's entry point (its inbound_entrypoint setting) when it still works: its menu enabled,
 * its bot available, its sector not deleted. Null when it has none or it no longer works.
 */
export async function campaignEntryOpening(tx: Tx, tenantId: string, campaign: EntryPoint): Promise<Opening | null> {
  if (campaign.entryMenuId) {
    const menu = await entryMenu(tx, tenantId, campaign.entryMenuId);
    return menu ? { kind: 'menu', menu } : null;
  }
  if (campaign.entryBotId) {
    const bot = await entryBot(tx, tenantId, campaign.entryBotId);
    return bot ? { kind: 'bot', botId: bot.id } : null;
  }
  const sectorId = await liveSectorId(tx, tenantId, campaign.entrySectorId);
  return sectorId ? { kind: 'queue', sectorId } : null;
}

/**
 * How a new conversation opens for its step. A reply action's target that no longer exists (a
 * deleted sector, a bot switched off) leaves the conversation in the queue of the campaign's
 * entry sector, else the channel's, where an agent sees it.
 */
export async function openingFor(
  tx: Tx,
  tenantId: string,
  channel: EntryPoint,
  step: Exclude<EntryStep, { kind: 'holder' }>,
  campaignEntry: Opening | null,
): Promise<Opening> {
  if (step.kind === 'channel_entry') return channelOpening(tx, tenantId, channel);
  if (step.kind === 'campaign_entry') return step.opening;
  const home = campaignEntry?.kind === 'queue' ? campaignEntry.sectorId : channel.entrySectorId;
  const action = step.action;
  if (action.action === 'transfer_to_sector')
    return { kind: 'queue', sectorId: (await liveSectorId(tx, tenantId, action.sector_uuid)) ?? home };
  if (action.action === 'chatbot_outbound') {
    const bot = await entryBot(tx, tenantId, action.bot_uuid);
    return bot ? { kind: 'bot', botId: bot.id } : { kind: 'queue', sectorId: home };
  }
  return { kind: 'closed', sectorId: home };
}
