import { z } from 'zod';

/** Queue names and payloads shared by the api (producer) and the worker (consumer). */
export const queues = {
  maintenance: {
    name: 'maintenance',
    payload: z.discriminatedUnion('kind', [z.object({ kind: z.literal('expire-sessions') }), z.object({ kind: z.literal('prune-outbox') })]),
  },
  /** Delivers one agent message to its channel (custom channel webhook, later the providers). */
  channelDelivery: {
    name: 'channel-delivery',
    payload: z.object({ tenant_uuid: z.uuid(), message_uuid: z.uuid() }),
  },
} as const;
export type MaintenanceJob = z.infer<typeof queues.maintenance.payload>;
export type ChannelDeliveryJob = z.infer<typeof queues.channelDelivery.payload>;
export type QueueName = (typeof queues)[keyof typeof queues]['name'];
