import type { listConversations, QueryInput, ResponseOf } from '@atende/contract';
import type { Api } from './client';

type ConversationQuery = Omit<NonNullable<QueryInput<typeof listConversations>>, 'cursor' | '_offset'>;

/**
 * Every conversation the query matches, one page at a time along `pagination.next_cursor`: keyset
 * paging, so conversations arriving meanwhile neither repeat nor shift a row off a page, and a deep
 * page costs what the first does.
 */
export async function* conversationPages(
  api: Pick<Api, 'listConversations'>,
  query: ConversationQuery = {},
): AsyncGenerator<ResponseOf<typeof listConversations>['data']> {
  let cursor: string | undefined;
  do {
    const page = await api.listConversations({ query: { ...query, cursor } });
    yield page.data;
    cursor = page.pagination.next_cursor ?? undefined;
  } while (cursor);
}
