import type { Conversation, HistoryEntry, Message } from '@atende/contract';

// Builders for the workstation's rule tests: only the fields a rule reads differ between cases.
let seq = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;
export const ME = { id: 7, uuid: uuid(), username: 'Ana', email: 'ana@acme.test' };
export const OTHER = { id: 8, uuid: uuid(), username: 'Bia', email: 'bia@acme.test' };

export function entry(
  event: HistoryEntry['event'],
  detail: HistoryEntry['detail'] = {},
  timestamp = '2026-11-22T10:00:00.000Z',
): HistoryEntry {
  return { uuid: uuid(), timestamp, event, detail };
}

export function conversation(over: Partial<Conversation> = {}): Conversation {
  return {
    uuid: uuid(),
    state: 'answered',
    archived: false,
    type: 'inbound',
    priority: 0,
    ticket_number: 1,
    unread_contact_messages: 0,
    contact_interacted: true,
    last_message: null,
    time_join: '2026-11-22T10:00:00.000Z',
    time_answer: '2026-11-22T10:01:00.000Z',
    closed_at: null,
    ended_by: null,
    contact: { uuid: uuid(), name: 'Carla', phone_number: '+5511999990000', email: null, organization: null, profile_image: null },
    user: ME,
    channel: { uuid: uuid(), type: 'custom', name: 'API', template_required_on_outbound_start: false },
    sector: null,
    conversation_reason_uuid: null,
    history: [],
    created_at: '2026-11-22T10:00:00.000Z',
    ...over,
  } as Conversation;
}

export function message(over: Partial<Message> = {}): Message {
  return {
    uuid: uuid(),
    conversation_uuid: uuid(),
    author: 'CONTACT',
    tags: [],
    message: 'Oi',
    when: '2026-11-22T10:00:00.000Z',
    state: 'sent',
    status: null,
    reply_to_uuid: null,
    annex: null,
    voice: false,
    internal: false,
    template_message: null,
    interactive_content: null,
    contact_id: null,
    user_id: null,
    user: null,
    error_message: null,
    delivered: false,
    retryable: true,
    ...over,
  };
}
