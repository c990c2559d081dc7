import type { Lookups, PresentableConversation } from '@atende/conversations';
import { conversationListPage, type Db, type ListFilter } from '@atende/db';
import type { ListPosition } from './cursor';

/**
 * One page of the list, ready to present: the page's rows (by offset, or after a keyset position),
 * read with everything they show in one statement, and the users, sectors and surveys they name.
 * `take` may be one more than the page, to learn whether another page follows.
 */
export async function loadPage(
  db: Db,
  f: ListFilter,
  page: { take: number; offset: number; after?: ListPosition },
): Promise<{ rows: PresentableConversation[]; lookups: Lookups }> {
  const rows = await conversationListPage(db, f, page);
  const lookups: Lookups = { users: new Map(), sectors: new Map(), surveys: new Map() };
  const out = rows.map((r): PresentableConversation => {
    if (r.user) lookups.users.set(r.user.id, r.user);
    if (r.sector) {
      lookups.sectors.set(r.sector.id, { id: r.sector.id, name: r.sector.name });
      if (r.sector.survey) lookups.surveys.set(r.sector.id, r.sector.survey);
    }
    return {
      id: r.id,
      state: r.state,
      archived: r.archived,
      type: r.type,
      priority: r.priority,
      ticketNumber: r.ticketNumber,
      unreadContactMessages: r.unreadContactMessages,
      contactInteracted: r.contactInteracted,
      timeJoin: r.timeJoin,
      timeAnswer: r.timeAnswer,
      closedAt: r.closedAt,
      endedBy: r.endedBy,
      endReasonId: r.endReasonId,
      createdAt: r.createdAt,
      userId: r.userId,
      sectorId: r.sectorId,
      contact: r.contact,
      channel: r.channel,
      events: r.events.map((e) => ({ id: e.id, at: new Date(e.at), type: e.type, detail: e.detail })),
      messages: r.last ? [{ ...r.last, createdAt: new Date(r.last.createdAt) }] : [],
    };
  });
  return { rows: out, lookups };
}
