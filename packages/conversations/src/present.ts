import {
  CAPABILITY_SETTING_FIELDS,
  type Conversation as ConversationDto,
  type HistoryEntry,
  type Message as MessageDto,
} from '@atende/contract';
import { conversationLookupRows, type ConversationRow, type Prisma } from '@atende/db';

export { conversationInclude, type ConversationRow } from '@atende/db';

/** What presentConversation reads of a row: a ConversationRow, or the list's one-statement page (api list-page.ts). */
export type PresentableConversation = Pick<
  ConversationRow,
  | 'id'
  | 'state'
  | 'archived'
  | 'type'
  | 'priority'
  | 'ticketNumber'
  | 'unreadContactMessages'
  | 'contactInteracted'
  | 'timeJoin'
  | 'timeAnswer'
  | 'closedAt'
  | 'endedBy'
  | 'endReasonId'
  | 'createdAt'
  | 'userId'
  | 'sectorId'
> & {
  contact: Pick<ConversationRow['contact'], 'id' | 'name' | 'phoneNumber' | 'email' | 'organization' | 'profileImage'>;
  channel: Pick<ConversationRow['channel'], 'id' | 'type' | 'name' | 'templateRequiredOnOutboundStart' | 'config'>;
  events: Pick<ConversationRow['events'][number], 'id' | 'at' | 'type' | 'detail'>[];
  messages: Pick<ConversationRow['messages'][number], 'createdAt' | 'tags' | 'content' | 'internal' | 'author' | 'voice' | 'annexId'>[];
};

export interface Lookups {
  users: Map<number, { id: number; uuid: string; username: string; email: string }>;
  sectors: Map<string, { id: string; name: string }>;
  /** The enabled survey of each sector (a sector has at most one). */
  surveys: Map<string, string>;
}

/** Loads the users, sectors and sectors' surveys the rows refer to, in three parallel queries. */
export async function loadLookups(
  db:
    | Prisma.TransactionClient
    | { user: Prisma.TransactionClient['user']; sector: Prisma.TransactionClient['sector']; survey: Prisma.TransactionClient['survey'] },
  rows: ConversationRow[],
): Promise<Lookups> {
  const userIds = [...new Set(rows.map((r) => r.userId).filter((v): v is number => v !== null))];
  const sectorIds = [...new Set(rows.map((r) => r.sectorId).filter((v): v is string => v !== null))];
  const [users, sectors, surveys] = await conversationLookupRows(db, userIds, sectorIds);
  const surveyOf = new Map<string, string>();
  for (const survey of surveys) for (const sector of survey.sectorIds) if (!surveyOf.has(sector)) surveyOf.set(sector, survey.id);
  return { users: new Map(users.map((u) => [u.id, u])), sectors: new Map(sectors.map((s) => [s.id, s])), surveys: surveyOf };
}

const STATE_OUT = { outbound_started: 'outbound-started' } as const;
export const stateOut = (s: PresentableConversation['state']): ConversationDto['state'] => (s === 'outbound_started' ? STATE_OUT[s] : s);
/** The other way: a state as the API names it (a list filter) to the stored one. */
export const stateIn = (s: ConversationDto['state']): PresentableConversation['state'] =>
  s === 'outbound-started' ? 'outbound_started' : s;

export function presentConversation(c: PresentableConversation, lookups: Lookups): ConversationDto {
  const user = c.userId !== null ? (lookups.users.get(c.userId) ?? null) : null;
  const sector = c.sectorId ? (lookups.sectors.get(c.sectorId) ?? null) : null;
  const last = c.messages[0];
  return {
    uuid: c.id,
    state: stateOut(c.state),
    archived: c.archived,
    type: c.type === 'outbound' || c.type === 'outbound_campaign' ? c.type : 'inbound',
    priority: c.priority,
    ticket_number: c.ticketNumber,
    unread_contact_messages: c.unreadContactMessages,
    contact_interacted: c.contactInteracted,
    last_message: last
      ? {
          when: last.createdAt.toISOString(),
          tags: last.tags,
          content: last.internal ? '' : last.content.slice(0, 200),
          author: last.author,
          attachment: last.voice ? 'voice' : last.annexId ? 'file' : null,
        }
      : null,
    time_join: c.timeJoin.toISOString(),
    time_answer: c.timeAnswer?.toISOString() ?? null,
    closed_at: c.closedAt?.toISOString() ?? null,
    ended_by: c.endedBy,
    contact: {
      uuid: c.contact.id,
      name: c.contact.name,
      phone_number: c.contact.phoneNumber,
      email: c.contact.email,
      organization: c.contact.organization ? { name: c.contact.organization } : null,
      profile_image: c.contact.profileImage,
    },
    user: user ? { id: user.id, uuid: user.uuid, username: user.username, email: user.email } : null,
    channel: {
      uuid: c.channel.id,
      type: c.channel.type,
      name: c.channel.name,
      template_required_on_outbound_start: c.channel.templateRequiredOnOutboundStart,
      settings: capabilitySettingsOf(c.channel.config),
    },
    sector: sector ? { uuid: sector.id, name: sector.name, survey_uuid: lookups.surveys.get(sector.id) ?? null } : null,
    conversation_reason_uuid: c.endReasonId,
    history: [...c.events].reverse().map((e): HistoryEntry => ({
      uuid: e.id,
      timestamp: e.at.toISOString(),
      event: e.type as HistoryEntry['event'],
      detail: (e.detail ?? {}) as HistoryEntry['detail'],
    })),
    created_at: c.createdAt.toISOString(),
  };
}

/** The channel settings the composer needs to know what the channel takes (contract CAPABILITY_SETTING_FIELDS). */
function capabilitySettingsOf(config: unknown): Record<string, string> {
  const c = (config ?? {}) as Record<string, unknown>;
  return Object.fromEntries(CAPABILITY_SETTING_FIELDS.flatMap((k) => (typeof c[k] === 'string' ? [[k, c[k]]] : [])));
}

type MessageRow = Prisma.MessageGetPayload<object>;
export type AnnexRow = { id: string; contentType: string; originalFilename: string; size: number; service: string };

export function presentMessage(
  m: MessageRow,
  extras: { annex?: AnnexRow | null; user?: { uuid: string; username: string } | null } = {},
): MessageDto {
  return {
    uuid: m.id,
    conversation_uuid: m.conversationId,
    author: m.author,
    tags: m.tags,
    message: m.content,
    when: m.createdAt.toISOString(),
    state: m.state,
    status: m.status === 'sending' || m.status === 'failed' ? m.status : null,
    reply_to_uuid: m.replyToId,
    annex: extras.annex
      ? {
          uuid: extras.annex.id,
          content_type: extras.annex.contentType,
          original_filename: extras.annex.originalFilename,
          uri: `/api/v1/storage/files/${extras.annex.id}`,
          size: extras.annex.size,
          service: extras.annex.service,
        }
      : null,
    voice: m.voice,
    internal: m.internal,
    template_message: m.templateMessage ?? null,
    interactive_content: m.interactiveContent ?? null,
    contact_id: m.contactId,
    user_id: m.userId,
    user: extras.user ?? null,
    error_message: m.errorMessage,
    ...deliveryFacts(m.interactiveContent),
  };
}

/**
 * What the worker keeps of an outbound message's delivery beside its state, on the message's
 * interactive part: the provider's last receipt (`delivery`) and whether a failure was final
 * (`failure.permanent`).
 */
export function deliveryFacts(interactiveContent: unknown): { delivered: boolean; retryable: boolean } {
  const stored = typeof interactiveContent === 'object' && interactiveContent !== null ? interactiveContent : {};
  const delivery = 'delivery' in stored ? stored.delivery : null;
  const failure = 'failure' in stored && typeof stored.failure === 'object' && stored.failure !== null ? stored.failure : {};
  return { delivered: delivery === 'delivered', retryable: !('permanent' in failure && failure.permanent === true) };
}
