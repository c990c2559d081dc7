import { capabilitiesOf, type Message } from '@atende/contract';

/**
 * Whether the channel's reply window (Meta's 24 hours, or 7 days with the Human Agent tag) has closed: the contact's
 * last message on screen is older than it, or the whole conversation is loaded and they never
 * wrote. Unknown (their last message is on an older page) counts as open: the server still refuses.
 */
export function replyWindowClosed(
  channel: { type: string; settings?: Readonly<Record<string, string>> },
  page: { messages: readonly Message[]; hasMore: boolean } | undefined,
  now = Date.now(),
): boolean {
  // The channel's settings may lengthen it (Meta's HUMAN_AGENT tag: 7 days).
  const hours = capabilitiesOf(channel.type, channel.settings)?.replyWindowHours;
  if (!hours || !page) return false;
  let last: number | null = null;
  for (const m of page.messages) if (m.author === 'CONTACT') last = Math.max(last ?? 0, Date.parse(m.when));
  if (last === null) return !page.hasMore;
  return now - last > hours * 3600_000;
}
