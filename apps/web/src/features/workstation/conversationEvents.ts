import { TEMPLATE_SEND_ERROR_TAG, type Conversation, type HistoryEntry } from '@atende/contract';

/** Tag of a conversation whose outbound template could not be sent. */
export { TEMPLATE_SEND_ERROR_TAG };

export type WorkstationNotice = 'transferred-away' | 'transferred-to-me' | 'distributed-to-me' | 'closed-by-supervisor';

/** What one live conversation event does to the agent's list ("Live update handling"). */
export interface ConversationEventOutcome {
  list: Conversation[];
  /** the active conversation must be deselected */
  clearActive: boolean;
  /** the conversation becomes the active one (outbound-started) */
  activate: boolean;
  /** its messages should be (re)loaded: it just arrived in the list */
  arrived: boolean;
  notice: WorkstationNotice | null;
}

// Entries written together with a transfer or an assignment; skipped when looking for what happened last.
const FOLLOW_UP_EVENTS = new Set(['associate-user', 'answered', 'offered']);

/** The last entry that tells what happened, skipping the bookkeeping written with it. */
export function lastMeaningfulEntry(history: readonly HistoryEntry[]): HistoryEntry | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const entry = history[i]!;
    if (FOLLOW_UP_EVENTS.has(entry.event)) continue;
    if (entry.event === 'enter-queue' && entry.detail.event === 'transferring-conversation') continue;
    return entry;
  }
  return null;
}

export function hasTemplateSendError(conversation: Conversation): boolean {
  return conversation.last_message?.tags.includes(TEMPLATE_SEND_ERROR_TAG) ?? false;
}

/** Closing conversations are shown but cannot be selected. */
export function isSelectable(conversation: Conversation): boolean {
  return conversation.state !== 'closing';
}

/**
 * Applies an update-conversation / new-conversation event to the agent's list. Only conversations
 * held by the agent stay ("keeps only conversations whose user id matches").
 */
export function applyConversationEvent(
  list: readonly Conversation[],
  conversation: Conversation,
  myUserId: number,
  activeUuid: string | null,
): ConversationEventOutcome {
  const index = list.findIndex((c) => c.uuid === conversation.uuid);
  const listed = index >= 0;
  const isActive = activeUuid === conversation.uuid;
  const without = () => list.filter((c) => c.uuid !== conversation.uuid);
  const replaced = () => list.map((c) => (c.uuid === conversation.uuid ? conversation : c));
  const outcome = (partial: Partial<ConversationEventOutcome>): ConversationEventOutcome => ({
    list: [...list],
    clearActive: false,
    activate: false,
    arrived: false,
    notice: null,
    ...partial,
  });
  const last = lastMeaningfulEntry(conversation.history);
  const mine = conversation.user?.id === myUserId;

  if (!mine) {
    const transferredAway = last?.event === 'transfer' && last.detail.old_user?.id === myUserId;
    if (!listed && !transferredAway) return outcome({});
    // The agent's own transfer already has its success toast.
    const byMe = last?.detail.done_by_user?.id === myUserId;
    return outcome({ list: without(), clearActive: isActive, notice: transferredAway && listed && !byMe ? 'transferred-away' : null });
  }

  switch (conversation.state) {
    case 'answered':
    case 'closing': {
      if (listed) return outcome({ list: replaced() });
      const transferredToMe = last?.event === 'transfer' && last.detail.new_user?.id === myUserId;
      // Entries written in one instant may come in any order: look for the offer, not for the last entry.
      const distributed =
        !transferredToMe && conversation.history.some((h) => h.event === 'offered' && h.detail.user_uuid === conversation.user?.uuid);
      return outcome({
        list: [...list, conversation],
        arrived: true,
        notice: transferredToMe ? 'transferred-to-me' : distributed && conversation.state === 'answered' ? 'distributed-to-me' : null,
      });
    }
    case 'outbound-started':
      return outcome({ list: listed ? replaced() : [...list, conversation], activate: !listed, arrived: !listed });
    case 'closed': {
      if (hasTemplateSendError(conversation)) return outcome({ list: listed ? replaced() : [...list, conversation], arrived: !listed });
      const remaining = without();
      // A supervisor finishing the agent's open chat tells the agent.
      const bySupervisor =
        listed &&
        last?.event === 'closed' &&
        (last.detail.ended_by ?? last.detail.done_by_role) === 'supervisor' &&
        last.detail.done_by_user?.id !== myUserId;
      return outcome({
        list: remaining,
        clearActive: isActive || remaining.length === 0,
        notice: bySupervisor ? 'closed-by-supervisor' : null,
      });
    }
    default:
      // waiting, bot: no longer the agent's.
      return outcome({ list: without(), clearActive: isActive });
  }
}

/** Pinned first (in pin order), then the rest by their last activity, newest first. */
export function orderConversations(list: readonly Conversation[], pinned: readonly string[]): Conversation[] {
  const activity = (c: Conversation) => Date.parse(c.last_message?.when ?? c.time_answer ?? c.time_join);
  const pinnedSet = new Set(pinned);
  const pins = pinned.map((uuid) => list.find((c) => c.uuid === uuid)).filter((c): c is Conversation => c !== undefined);
  const rest = list.filter((c) => !pinnedSet.has(c.uuid)).sort((a, b) => activity(b) - activity(a));
  return [...pins, ...rest];
}

// History only grows: its length orders the copies of one conversation. An event that was emitted
// before the answer of a later action (accept, return, transfer) can arrive after it.
const versions = new Map<string, number>();

/** True for a copy older than one already applied (it must be ignored); records newer ones. */
export function isStaleCopy(conversation: Conversation): boolean {
  const version = conversation.history.length;
  const seen = versions.get(conversation.uuid) ?? -1;
  if (version < seen) return true;
  versions.set(conversation.uuid, version);
  return false;
}
