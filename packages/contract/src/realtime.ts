import { z } from 'zod';
import { Uuid } from './common';
import { ConversationSchema } from './conversations';
import { MessageSchema } from './messages';
import { TemplateSchema } from './templates';
import { CampaignSchema, IMPORT_STATUSES } from './campaigns';
import { UserSchema } from './users';

/**
 * Realtime events, one typed map. Every payload carries the tenant uuid. If a
 * payload's shape ever changes incompatibly, the event gets a new name.
 */
export const serverEvents = {
  'update-user': z.object({ tenant_uuid: Uuid, user: UserSchema }),
  'waiting-queue': z.object({ tenant_uuid: Uuid, quantity_waiting_queue: z.number().int() }),
  'update-conversation': z.object({ tenant_uuid: Uuid, conversation: ConversationSchema }),
  'new-conversation': z.object({ tenant_uuid: Uuid, conversation: ConversationSchema }),
  'new-message': z.object({ tenant_uuid: Uuid, conversation_uuid: Uuid, message: MessageSchema }),
  'messages-ack': z.object({
    tenant_uuid: Uuid,
    conversation_uuid: Uuid,
    messages: z.array(
      z.object({
        uuid: Uuid,
        state: z.enum(['pending', 'sent', 'read']),
        status: z.enum(['sending', 'failed']).nullable(),
        /** With a failure: why, as stored on the message, and whether it may be sent again. */
        error_message: z.string().nullable().optional(),
        retryable: z.boolean().optional(),
        /** The provider reported it delivered. */
        delivered: z.boolean().optional(),
      }),
    ),
  }),
  /** A template was created, edited, deleted or changed status at the provider (room campaigns_{tenant}). */
  'update-template': z.object({ tenant_uuid: Uuid, template: TemplateSchema }),
  /** A campaign changed (state, counters, import); room campaigns_{tenant}. */
  'update-campaign': z.object({ tenant_uuid: Uuid, campaign: CampaignSchema }),
  /**
   * Subscriber import progress of a campaign (import task statuses), at least once a
   * second while in_progress. The counters are final with status done (the import is stored in one
   * transaction); rows_done / rows_total say how far the file has been read. Until the file is read
   * through, rows_total is estimated from the bytes read and rows_total_estimated is true.
   */
  'update-campaign-tasks': z.object({
    tenant_uuid: Uuid,
    campaign_uuid: Uuid,
    status: z.enum(IMPORT_STATUSES),
    imported: z.number().int(),
    ignored: z.number().int(),
    imported_with_error: z.number().int(),
    rows_done: z.number().int(),
    rows_total: z.number().int().nullable(),
    rows_total_estimated: z.boolean(),
    /** Set when the import stored nothing (a file that cannot be read, a failure): SUBSCRIBER_IMPORT_ERRORS. */
    error_message: z.string().nullable(),
  }),
} as const;
export type ServerEventName = keyof typeof serverEvents;
export type ServerEventPayload<E extends ServerEventName> = z.infer<(typeof serverEvents)[E]>;
/** socket.io's typed-events shape for the server->client direction. */
export type ServerToClientEvents = { [E in ServerEventName]: (payload: ServerEventPayload<E>) => void };

/** Rooms: the user's own uuid, tenant_{uuid}_metrics, campaigns_{uuid}. */
export const rooms = {
  user: (userUuid: string) => userUuid,
  metrics: (tenantUuid: string) => `tenant_${tenantUuid}_metrics`,
  campaigns: (tenantUuid: string) => `campaigns_${tenantUuid}`,
  /** Every socket of a tenant joins it on connection (waiting-queue counts); not joinable by name. */
  tenant: (tenantUuid: string) => `tenant_${tenantUuid}`,
  /** One conversation's live view (/chat/{id}): supervisors and above of the same tenant may join. */
  conversation: (tenantUuid: string, conversationUuid: string) => `tenant_${tenantUuid}_conversation_${conversationUuid}`,
} as const;

export const RoomRequestSchema = z.object({ room: z.string().min(1).max(128) });
export type JoinAck = { ok: true } | { ok: false; error_message: string };
export const clientEvents = {
  join: RoomRequestSchema,
  leave: RoomRequestSchema,
} as const;
export type ClientToServerEvents = {
  join: (payload: z.infer<typeof RoomRequestSchema>, ack?: (result: JoinAck) => void) => void;
  leave: (payload: z.infer<typeof RoomRequestSchema>, ack?: (result: JoinAck) => void) => void;
};

/** What the worker puts on the realtime outbox stream for the api to deliver. */
export const RealtimeEnvelopeSchema = z.object({
  room: z.string(),
  event: z.enum(Object.keys(serverEvents) as [ServerEventName, ...ServerEventName[]]),
  payload: z.unknown(),
});
export type RealtimeEnvelope = z.infer<typeof RealtimeEnvelopeSchema>;
