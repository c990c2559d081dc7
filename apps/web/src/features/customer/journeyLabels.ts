import type { TFunction } from 'i18next';
import { phrase } from '../../i18n/phrase';

/** Who ended a conversation without a reason (Conversation.endedBy), as words. */
const ENDED_BY: Record<string, string> = {
  agent: phrase('Finished by the agent'),
  supervisor: phrase('Finished by a supervisor'),
  system: phrase('Closed by the system'),
  bot: phrase('Ended by the bot'),
  automation: phrase('Closed by an automation'),
};

/** A journey session's outcome: the end reason as the admin named it, else who ended it, in words. */
export function outcomeText(outcome: string | null, t: TFunction): string {
  if (!outcome) return '--';
  const known = ENDED_BY[outcome];
  return known ? t(known) : outcome;
}

/** The channel of a session: its name, else its type. */
export const channelText = (data: { channel_name?: string | null; channel_type: string | null }): string =>
  data.channel_name || data.channel_type || '--';
