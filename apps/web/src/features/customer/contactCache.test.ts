import type { Contact, Conversation } from '@atende/contract';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { customerKeys, storeUpdatedContact, withContact } from './contactCache';

const CONTACT = '6f1c1c39-8a40-4c1f-9b8e-1d2f3a4b5c6d';
const OTHER_CONTACT = '7a2d2d40-9b51-4d20-8c9f-2e3a4b5c6d7e';

const contact: Contact = {
  uuid: CONTACT,
  name: 'Maria Souza',
  phone_number: '+5511912340001',
  phone1: '+5511912340001',
  phone2: null,
  organization: { name: 'Padaria Nova' },
  gov_id: null,
  email: 'maria@exemplo.com',
  customer_id: null,
  zip_code: null,
  address_line_1: null,
  address_line_2: null,
  city: null,
  state: null,
  country: null,
  notes: 'vip',
  profile_image: null,
  fields: {},
  livechat_custom_fields: {},
  dnd_list: [],
  last_conversations_count: 2,
  created_at: '2026-01-01T00:00:00.000Z',
};

function conversation(uuid: string, contactUuid: string): Conversation {
  return {
    uuid,
    state: 'answered',
    archived: false,
    type: 'inbound',
    priority: 0,
    ticket_number: 1,
    unread_contact_messages: 0,
    contact_interacted: true,
    last_message: null,
    time_join: '2026-01-01T00:00:00.000Z',
    time_answer: null,
    closed_at: null,
    ended_by: null,
    contact: { uuid: contactUuid, name: 'Maria', phone_number: '+5511912340001', email: null, organization: null, profile_image: null },
    user: null,
    channel: { uuid: 'c0000000-0000-4000-8000-000000000001', type: 'custom', name: 'API', template_required_on_outbound_start: false },
    sector: null,
    conversation_reason_uuid: null,
    history: [],
    created_at: '2026-01-01T00:00:00.000Z',
  };
}
const mine = conversation('a0000000-0000-4000-8000-000000000001', CONTACT);
const someoneElse = conversation('a0000000-0000-4000-8000-000000000002', OTHER_CONTACT);

// On save the contact data in the conversation is replaced.
describe('storing an updated contact', () => {
  it("replaces the contact of that contact's conversations in lists, pages and single conversations", () => {
    const list = withContact([mine, someoneElse], contact);
    expect(list[0]!.contact).toEqual({
      uuid: CONTACT,
      name: 'Maria Souza',
      phone_number: '+5511912340001',
      email: 'maria@exemplo.com',
      organization: { name: 'Padaria Nova' },
      profile_image: null,
    });
    expect(list[1]).toBe(someoneElse);
    const page = withContact({ data: [mine], pagination: { total: 1, limit: 10, offset: 0 } }, contact);
    expect(page.data[0]!.contact.name).toBe('Maria Souza');
    expect(page.pagination.total).toBe(1);
    expect(withContact(mine, contact).contact.name).toBe('Maria Souza');
  });

  it('leaves other data under the conversations keys untouched', () => {
    const counts = 4;
    const fields = [{ field_uuid: 'f', name: 'Pedido', field_value: '1' }];
    const unrelated = [someoneElse];
    expect(withContact(counts, contact)).toBe(counts);
    expect(withContact(fields, contact)).toBe(fields);
    expect(withContact(unrelated, contact)).toBe(unrelated);
    expect(withContact([], contact)).toEqual([]);
    expect(withContact(undefined, contact)).toBeUndefined();
  });

  it('writes the contact query and patches every cached conversation query', () => {
    const client = new QueryClient();
    client.setQueryData(['conversations', 'offered', 'me'], [mine, someoneElse]);
    client.setQueryData(['conversations', 'waiting-queue'], 3);
    client.setQueryData(['messages', mine.uuid], { messages: [], hasMore: false });
    storeUpdatedContact(client, contact);
    expect(client.getQueryData(customerKeys.contact(CONTACT))).toBe(contact);
    expect(client.getQueryData<Conversation[]>(['conversations', 'offered', 'me'])![0]!.contact.organization).toEqual({
      name: 'Padaria Nova',
    });
    expect(client.getQueryData(['conversations', 'waiting-queue'])).toBe(3);
  });
});
