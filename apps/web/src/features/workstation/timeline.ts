import type { Conversation, HistoryEntry, Message } from '@atende/contract';
import { phrase } from '../../i18n/phrase';

/** A phrase to translate with its values: the system-message wording. */
export interface Phrase {
  key: string;
  values?: Record<string, string | number>;
  /** Values that are themselves phrases, translated before they are put in. */
  phraseValues?: Record<string, string>;
}

const who = (user: { username?: string; email?: string } | null | undefined) => user?.username || user?.email || '?';

const ENTER_QUEUE_REASONS: Record<string, string> = {
  'new-conversation': phrase('The conversation entered the queue'),
  pause: phrase('The conversation returned to the queue because the agent paused'),
  custom_action: phrase('The conversation returned to the queue by an automation'),
  'update-conversation': phrase('The conversation was returned to the queue'),
  logoff: phrase('The conversation returned to the queue because the agent logged off'),
};

/** A campaign's reply actions as the campaign wizard names them. */
const REPLY_ACTIONS: Record<string, string> = {
  end_dnd: phrase('Add to do not disturb lists'),
  transfer_to_sector: phrase('Transfer to a sector'),
  chatbot_outbound: phrase('Hand over to a bot'),
  end_with_message: phrase('End with a message'),
};

/** Who transferred: the user, else the campaign or automation that did it. */
function transferredBy(d: HistoryEntry['detail']): Phrase | null {
  if (d.done_by_user) return null;
  if (d.done_by === 'campaign')
    return { key: phrase('Transferred by the campaign to the sector {{sector}}'), values: { sector: d.new_sector?.name ?? '?' } };
  if (d.done_by === 'automation' || d.custom_action_name)
    return { key: phrase('Transferred by an automation to the sector {{sector}}'), values: { sector: d.new_sector?.name ?? '?' } };
  return null;
}

/**
 * The system message for one history event, or null when the event is not shown
 * (enter-queue while transferring, new-priority without an old value).
 */
export function systemPhrase(entry: HistoryEntry): Phrase | null {
  const d = entry.detail;
  switch (entry.event) {
    case 'answered':
      return { key: phrase('Conversation answered by {{user}}'), values: { user: d.email ?? d.user_email ?? '?' } };
    case 'associate-user':
      if (d.done_by === 'pause_return') return { key: phrase('Back with {{user}} after the pause'), values: { user: who(d.new_user) } };
      return {
        key: phrase('Conversation assigned to {{user}}'),
        values: { user: who(d.new_user) === '?' ? (d.user_email ?? '?') : who(d.new_user) },
      };
    case 'archived':
      return { key: phrase('Conversation archived') };
    case 'unarchived':
      return { key: phrase('Conversation unarchived') };
    case 'closed': {
      const reason = d.end_reason?.name;
      const by = d.ended_by ?? d.done_by_role;
      if (by === 'supervisor')
        return reason
          ? { key: phrase('Closed by the supervisor {{user}}. Reason: {{reason}}'), values: { user: who(d.done_by_user), reason } }
          : { key: phrase('Closed by the supervisor {{user}}'), values: { user: who(d.done_by_user) } };
      if (by === 'agent')
        return reason
          ? { key: phrase('Closed by the agent {{user}}. Reason: {{reason}}'), values: { user: who(d.done_by_user), reason } }
          : { key: phrase('Closed by the agent {{user}}'), values: { user: who(d.done_by_user) } };
      if (by === 'system' || by === 'automation')
        return reason
          ? { key: phrase('Closed by the system. Reason: {{reason}}'), values: { reason } }
          : { key: phrase('Closed by the system') };
      return { key: phrase('Conversation closed (unknown)') };
    }
    case 'enter-queue': {
      if (d.event === 'transferring-conversation') return null;
      const key = (d.event && ENTER_QUEUE_REASONS[d.event]) ?? phrase('The conversation entered the queue (unknown reason)');
      const pause = d.user_info?.current_pause?.description;
      if (d.event === 'pause' && pause)
        return { key: phrase('The conversation returned to the queue because the agent paused ({{pause}})'), values: { pause } };
      if (d.event === 'custom_action' && d.custom_action_name)
        return { key: phrase('The conversation returned to the queue by the automation {{name}}'), values: { name: d.custom_action_name } };
      return { key };
    }
    case 'new-priority':
      if (d.old === null || d.old === undefined) return null;
      return { key: phrase('Conversation prioritised') };
    case 'offered':
      return { key: phrase('Conversation offered to {{user}}'), values: { user: d.user_email ?? d.email ?? '?' } };
    case 'campaign-reply': {
      const values = { campaign: d.campaign_name ?? '?', action: d.reply_action ?? '' };
      const action = REPLY_ACTIONS[values.action];
      if (d.executed) return { key: phrase('The contact answered the campaign {{campaign}}'), values };
      return action
        ? {
            key: phrase(
              'The contact answered the campaign {{campaign}}; its action "{{action}}" was not run because the conversation was already open',
            ),
            values,
            phraseValues: { action },
          }
        : { key: phrase('The contact answered the campaign {{campaign}}'), values };
    }
    case 'transfer': {
      const bySystem = transferredBy(d);
      if (bySystem) return bySystem;
      const sector = d.new_sector?.name ?? '?';
      if (d.new_user)
        return {
          key: phrase('Transferred by {{by}} to {{user}} ({{sector}})'),
          values: { by: who(d.done_by_user), user: who(d.new_user), sector },
        };
      return { key: phrase('Transferred by {{by}} to the sector {{sector}}'), values: { by: who(d.done_by_user), sector } };
    }
    default:
      return null;
  }
}

export type TimelineItem =
  | { kind: 'day'; id: string; day: Date }
  | { kind: 'message'; id: string; message: Message }
  | { kind: 'system'; id: string; phrase: Phrase; when: string }
  | { kind: 'new-messages'; id: string };

const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate());

/**
 * Messages and history events in time order, with a separator at each new day and the 'New Messages'
 * marker before the first unread contact message. History before the first loaded message is left
 * for "load earlier" when earlier messages exist.
 */
export function buildTimeline(input: {
  messages: readonly Message[];
  history: readonly HistoryEntry[];
  hasMore: boolean;
  firstUnreadUuid: string | null;
  hideNotes: boolean;
}): TimelineItem[] {
  const messages = input.hideNotes ? input.messages.filter((m) => !m.internal) : input.messages;
  const from = input.hasMore && input.messages[0] ? Date.parse(input.messages[0].when) : -Infinity;
  const system = input.history
    .filter((h) => Date.parse(h.timestamp) >= from)
    .map((h) => ({ entry: h, phrase: systemPhrase(h) }))
    .filter((s): s is { entry: HistoryEntry; phrase: Phrase } => s.phrase !== null);
  const merged: { at: number; item: TimelineItem }[] = [
    ...messages.map((m) => ({ at: Date.parse(m.when), item: { kind: 'message', id: m.uuid, message: m } as TimelineItem })),
    ...system.map((s) => ({
      at: Date.parse(s.entry.timestamp),
      item: { kind: 'system', id: `h-${s.entry.uuid}`, phrase: s.phrase, when: s.entry.timestamp } as TimelineItem,
    })),
  ];
  // Stable: a message and the event it caused at the same instant keep their arrival order.
  merged.sort((a, b) => a.at - b.at);
  const out: TimelineItem[] = [];
  let lastDay = -1;
  for (const { at, item } of merged) {
    const day = startOfDay(new Date(at)).getTime();
    if (day !== lastDay) {
      out.push({ kind: 'day', id: `d-${day}`, day: new Date(day) });
      lastDay = day;
    }
    if (item.kind === 'message' && item.id === input.firstUnreadUuid) out.push({ kind: 'new-messages', id: 'new-messages' });
    out.push(item);
  }
  return out;
}

/** Today, Yesterday or the date in pt-BR short format. */
export function dayLabel(day: Date, now = new Date()): Phrase {
  const diff = Math.round((startOfDay(now).getTime() - startOfDay(day).getTime()) / 86_400_000);
  if (diff === 0) return { key: phrase('Today') };
  if (diff === 1) return { key: phrase('Yesterday') };
  return { key: phrase('{{date}}'), values: { date: day.toLocaleDateString('pt-BR') } };
}

/** 'Now' under a minute, the time today, 'Yesterday', else the short date. */
export function listTimestamp(iso: string, now = new Date()): Phrase {
  const at = new Date(iso);
  if (now.getTime() - at.getTime() < 60_000) return { key: phrase('Now') };
  const label = dayLabel(at, now);
  if (label.key === 'Today')
    return { key: phrase('{{date}}'), values: { date: at.toLocaleTimeString('pt-BR', { hour: '2-digit', minute: '2-digit' }) } };
  return label;
}

/**
 * The list's preview of a conversation's last message: an internal note marked as
 * such, a voice note and a file said in words (a file with its caption or name when it has one),
 * never an empty line for a message that has no text.
 */
export function listPreview(last: Conversation['last_message']): Phrase {
  if (!last) return { key: phrase('{{text}}'), values: { text: '' } };
  if (last.tags.includes('internal-message')) return { key: phrase('Note: {{text}}'), values: { text: last.content } };
  if (last.attachment === 'voice') return { key: phrase('Voice message') };
  if (last.attachment === 'file')
    return last.content.trim() ? { key: phrase('File: {{text}}'), values: { text: last.content } } : { key: phrase('File') };
  return { key: phrase('{{text}}'), values: { text: last.content } };
}
