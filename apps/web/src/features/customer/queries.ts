import type { BodyInput, Contact, routes } from '@atende/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { customerKeys, storeUpdatedContact } from './contactCache';

/** The journey panel shows the last 5 sessions. */
export const JOURNEY_LIMIT = 5;

/** The full contact: GET /api/v1/contacts/{id}. */
export function useContact(contactUuid: string) {
  return useQuery({
    queryKey: customerKeys.contact(contactUuid),
    queryFn: async (): Promise<Contact> => (await api.getContact({ params: { id: contactUuid } })).data,
  });
}

/** PATCH /api/v1/contacts/{id}; the answer replaces the contact everywhere it is cached. */
export function useUpdateContact(contactUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: BodyInput<typeof routes.updateContact>) =>
      (await api.updateContact({ params: { id: contactUuid }, body })).data,
    onSuccess: (contact) => storeUpdatedContact(queryClient, contact),
  });
}

/** The contact's latest sessions: GET /api/v1/contacts/{id}/journey?_limit=5. */
export function useJourney(contactUuid: string, enabled: boolean) {
  return useQuery({
    queryKey: customerKeys.journey(contactUuid, JOURNEY_LIMIT),
    queryFn: async () => api.getContactJourney({ params: { id: contactUuid }, query: { _limit: JOURNEY_LIMIT, _offset: 0 } }),
    enabled,
  });
}

/** A conversation's field values: GET /api/v1/conversations/{id}/fields. */
export function useConversationFields(conversationUuid: string, enabled: boolean) {
  return useQuery({
    queryKey: customerKeys.conversationFields(conversationUuid),
    queryFn: async () => (await api.getConversationFields({ params: { id: conversationUuid } })).data,
    enabled,
  });
}

/** The workspace's conversation field definitions: GET /api/v1/conversations/fields. */
export function useFieldDefinitions(enabled: boolean) {
  return useQuery({
    queryKey: customerKeys.fieldDefinitions,
    queryFn: async () => (await api.listConversationFieldDefinitions()).data,
    enabled,
    staleTime: 60_000,
  });
}

/** Adds or edits one field value: POST /api/v1/conversations/{id}/fields; the answer is the new list. */
export function useSetConversationField(conversationUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { field_uuid: string; field_value: string }) =>
      (await api.setConversationField({ params: { id: conversationUuid }, body })).data,
    onSuccess: (fields) => queryClient.setQueryData(customerKeys.conversationFields(conversationUuid), fields),
  });
}
