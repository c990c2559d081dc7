import type { Conversation, Message, ServerEventPayload } from '@atende/contract';

/** One conversation's loaded messages, oldest first; `hasMore` when earlier ones exist on the server. */
export interface MessagePage {
  messages: Message[];
  hasMore: boolean;
}

const byTime = (a: Message, b: Message) => Date.parse(a.when) - Date.parse(b.when);

// Optimistic copies still waiting for the send's answer: only these show faded. The
// server's own 'sending' (accepted, delivery to the channel under way) shows the clock tick instead.
const unanswered = new Set<string>();
export const awaitingAnswer = (uuid: string): boolean => unanswered.has(uuid);
const STATE_RANK: Record<Message['state'], number> = { pending: 0, sent: 1, read: 2 };

/**
 * A newer copy of a message never takes its delivery state back: an ack (sent, read) may arrive by
 * the live event before the answer of the send that produced it.
 */
function merge(known: Message, incoming: Message): Message {
  if (STATE_RANK[known.state] > STATE_RANK[incoming.state]) return { ...incoming, state: known.state, status: known.status };
  return incoming;
}

/**
 * Inserts or replaces messages by uuid (the optimistic copy is replaced by the server's, a live event
 * repeating a message already shown changes nothing), keeping the list in time order.
 */
export function upsertMessages(page: MessagePage, incoming: readonly Message[]): MessagePage {
  if (incoming.length === 0) return page;
  const byUuid = new Map(page.messages.map((m) => [m.uuid, m]));
  let outOfOrder = false;
  const last = page.messages.at(-1);
  const appended: Message[] = [];
  for (const message of incoming) {
    const known = byUuid.get(message.uuid);
    if (known) {
      byUuid.set(message.uuid, merge(known, message));
    } else {
      appended.push(message);
      if (last && byTime(message, last) < 0) outOfOrder = true;
    }
  }
  const merged = [...page.messages.map((m) => byUuid.get(m.uuid)!), ...appended];
  return { ...page, messages: outOfOrder || appended.length > 1 ? merged.sort(byTime) : merged };
}

/**
 * The answer of a send: the server's copy replaces the optimistic one, except its delivery state (and a
 * failure's reason and finality) when an ack (sent, read, failed) already arrived by the live event;
 * the optimistic copy is the only one still 'sending'.
 */
export function applySendAnswer(page: MessagePage, answer: readonly Message[]): MessagePage {
  for (const m of answer) unanswered.delete(m.uuid);
  const known = new Map(page.messages.map((m) => [m.uuid, m]));
  return upsertMessages(
    page,
    answer.map((m) => {
      const k = known.get(m.uuid);
      // What the ack told (a failure's reason and finality, a delivery) is newer than the send's answer too.
      return k && k.status !== 'sending'
        ? { ...m, state: k.state, status: k.status, error_message: k.error_message, retryable: k.retryable, delivered: k.delivered }
        : m;
    }),
  );
}

/** Earlier messages loaded by "load earlier": put in front, without repeating any already shown. */
export function prependMessages(page: MessagePage, older: readonly Message[], hasMore: boolean): MessagePage {
  const known = new Set(page.messages.map((m) => m.uuid));
  return { messages: [...older.filter((m) => !known.has(m.uuid)), ...page.messages], hasMore };
}

/**
 * A reload of the latest page (after missed realtime events, or the conversation arriving again)
 * merged by uuid into what is shown, so nothing repeats and nothing shown is lost: earlier pages
 * the agent loaded stay when the new page reaches back to them; when it does not (more messages
 * came meanwhile than a page holds), the older ones would leave a hole and are dropped. Copies the
 * server does not have yet (sending, failed) always stay.
 */
export function mergeLatestPage(shown: MessagePage, latest: MessagePage): MessagePage {
  const known = new Set(shown.messages.map((m) => m.uuid));
  if (!latest.hasMore || latest.messages.some((m) => known.has(m.uuid))) {
    return { ...upsertMessages(shown, latest.messages), hasMore: shown.hasMore && latest.hasMore };
  }
  const onServer = new Set(latest.messages.map((m) => m.uuid));
  const unsent = shown.messages.filter((m) => !onServer.has(m.uuid) && (awaitingAnswer(m.uuid) || m.status === 'failed'));
  return upsertMessages(latest, unsent);
}

/** messages-ack: message state (and a failure's reason, a delivery) updated in bulk by uuid. */
export function applyAck(page: MessagePage, acks: ServerEventPayload<'messages-ack'>['messages']): MessagePage {
  const byUuid = new Map(acks.map((a) => [a.uuid, a]));
  let changed = false;
  const messages = page.messages.map((m) => {
    const ack = byUuid.get(m.uuid);
    if (!ack) return m;
    // What an ack tells beside the state: a failure's reason and whether it may be sent again, a delivery.
    const next: Message = {
      ...m,
      state: ack.state,
      status: ack.status,
      ...(ack.error_message !== undefined ? { error_message: ack.error_message } : {}),
      ...(ack.retryable !== undefined ? { retryable: ack.retryable } : {}),
      ...(ack.delivered !== undefined ? { delivered: ack.delivered } : {}),
    };
    if (
      next.state === m.state &&
      next.status === m.status &&
      next.error_message === m.error_message &&
      next.retryable === m.retryable &&
      next.delivered === m.delivered
    )
      return m;
    changed = true;
    return next;
  });
  return changed ? { ...page, messages } : page;
}

/** Sets one message's delivery status (the optimistic copy failing, or being retried). */
export function setStatus(page: MessagePage, uuid: string, status: Message['status']): MessagePage {
  // 'sending' here is a retry being sent again; 'failed' is the send's final answer.
  if (status === 'sending') unanswered.add(uuid);
  else unanswered.delete(uuid);
  return { ...page, messages: page.messages.map((m) => (m.uuid === uuid ? { ...m, status } : m)) };
}

/** The contact's messages the agent has not read yet, to mark read. */
export function unreadContactMessages(page: MessagePage): string[] {
  return page.messages.filter((m) => m.author === 'CONTACT' && m.state !== 'read').map((m) => m.uuid);
}

/** The agent's own message shown at once, faded, until the server answers. */
export function optimisticMessage(input: {
  uuid: string;
  conversationUuid: string;
  content: string;
  internal: boolean;
  replyToUuid: string | null;
  user: { id: number; uuid: string; username: string };
  now?: Date;
}): Message {
  unanswered.add(input.uuid);
  return {
    uuid: input.uuid,
    conversation_uuid: input.conversationUuid,
    author: 'USER',
    tags: input.internal ? ['internal-message'] : [],
    message: input.content,
    when: (input.now ?? new Date()).toISOString(),
    state: 'pending',
    status: 'sending',
    reply_to_uuid: input.replyToUuid,
    annex: null,
    voice: false,
    internal: input.internal,
    template_message: null,
    interactive_content: null,
    contact_id: null,
    user_id: input.user.id,
    user: { uuid: input.user.uuid, username: input.user.username },
    error_message: null,
    delivered: false,
    retryable: true,
  };
}

/**
 * Where the 'New Messages' marker goes: the first of the contact's unread messages; none in a
 * finished conversation, where nobody is left to answer them.
 */
export function firstUnreadUuid(
  messages: readonly Message[],
  conversation: Pick<Conversation, 'state' | 'unread_contact_messages'>,
): string | null {
  const unread = conversation.unread_contact_messages;
  if (unread <= 0 || conversation.state === 'closed') return null;
  const contact = messages.filter((m) => m.author === 'CONTACT');
  return contact[Math.max(0, contact.length - unread)]?.uuid ?? null;
}
