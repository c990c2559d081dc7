import type { Contact, Conversation } from '@atende/contract';
import type { QueryClient } from '@tanstack/react-query';

/** Query keys of the customer panels' server state. */
export const customerKeys = {
  contact: (contactUuid: string) => ['contacts', contactUuid] as const,
  journey: (contactUuid: string, limit: number) => ['contacts', contactUuid, 'journey', limit, 1] as const,
  conversationFields: (conversationUuid: string) => ['conversation-fields', conversationUuid] as const,
  fieldDefinitions: ['conversation-fields', 'definitions'] as const,
};

/** The part of a contact a conversation carries. */
export function conversationContact(contact: Contact): Conversation['contact'] {
  const { uuid, name, phone_number, email, organization, profile_image } = contact;
  return { uuid, name, phone_number, email, organization, profile_image };
}

function isConversation(value: unknown): value is Conversation {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<Conversation>;
  return (
    typeof v.uuid === 'string' &&
    typeof v.state === 'string' &&
    typeof v.contact === 'object' &&
    v.contact !== null &&
    typeof v.contact.uuid === 'string'
  );
}
const isConversationList = (value: unknown): value is Conversation[] =>
  Array.isArray(value) && value.length > 0 && value.every(isConversation);

/**
 * The cached value with the contact's new data in every conversation of that contact. Only
 * conversations are touched: a list of them, a page `{ data: [...] }` of them, or one of them;
 * anything else cached under ['conversations', ...] (counts, history rows, fields) comes back as is.
 */
export function withContact<T>(cached: T, contact: Contact): T {
  const patch = (c: Conversation): Conversation => (c.contact.uuid === contact.uuid ? { ...c, contact: conversationContact(contact) } : c);
  const patchList = (list: Conversation[]) => (list.some((c) => c.contact.uuid === contact.uuid) ? list.map(patch) : list);
  if (isConversationList(cached)) return patchList(cached) as T;
  if (isConversation(cached)) return patch(cached) as T;
  if (typeof cached === 'object' && cached !== null && 'data' in cached) {
    const data = (cached as { data: unknown }).data;
    if (isConversationList(data)) {
      const patched = patchList(data);
      return patched === data ? cached : ({ ...cached, data: patched } as T);
    }
    if (isConversation(data)) return { ...cached, data: patch(data) } as T;
  }
  return cached;
}

/** After a save the panel and the conversations show the contact's new data. */
export function storeUpdatedContact(queryClient: QueryClient, contact: Contact): void {
  queryClient.setQueryData(customerKeys.contact(contact.uuid), contact);
  queryClient.setQueriesData({ queryKey: ['conversations'] }, (cached: unknown) => withContact(cached, contact));
}
