import { z } from 'zod';

/** Queue names and payloads shared by the api (producer) and the worker (consumer). */
export const queues = {
  maintenance: {
    name: 'maintenance',
    payload: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('expire-sessions') }),
      z.object({ kind: z.literal('prune-outbox') }),
      z.object({ kind: z.literal('sync-templates') }),
      z.object({ kind: z.literal('start-scheduled') }),
      z.object({ kind: z.literal('run-automations') }),
      z.object({ kind: z.literal('compact-conversation-tally') }),
    ]),
  },
  /** Delivers one agent message to its channel (custom channel webhook, later the providers). */
  channelDelivery: {
    name: 'channel-delivery',
    payload: z.object({ tenant_uuid: z.uuid(), message_uuid: z.uuid() }),
  },
  /**
   * One provider webhook delivery, acknowledged by the api and processed by the worker on its own
   * queue (never behind campaign work). The raw body is kept: the adapter parses it.
   */
  channelInbound: {
    name: 'channel-inbound',
    payload: z.object({
      tenant_uuid: z.uuid(),
      channel_uuid: z.uuid(),
      content_type: z.string(),
      raw_body: z.string(),
      received_at: z.iso.datetime({ offset: true }),
    }),
  },
  /**
   * Runs a bot flow on the contact messages of one conversation it has not read yet (written in
   * the same transaction as the message, so no message is left unanswered).
   */
  botStep: {
    name: 'bot-step',
    payload: z.object({ tenant_uuid: z.uuid(), conversation_uuid: z.uuid() }),
  },
  /** Submits, edits or deletes one template at its provider; the status it answers is stored. */
  templateSync: {
    name: 'template-sync',
    payload: z.object({ tenant_uuid: z.uuid(), template_uuid: z.uuid(), action: z.enum(['submit', 'edit', 'delete']) }),
  },
  /** Reads one uploaded subscribers file into its campaign (import task). */
  subscriberImport: {
    name: 'subscriber-import',
    payload: z.object({ tenant_uuid: z.uuid(), campaign_uuid: z.uuid(), file_uuid: z.uuid() }),
  },
  /** Sends a running campaign's pending subscribers, run by run (a start bumps the run). */
  campaignDispatch: {
    name: 'campaign-dispatch',
    payload: z.object({ tenant_uuid: z.uuid(), campaign_uuid: z.uuid(), run: z.number().int() }),
  },
} as const;
export type CampaignDispatchJob = z.infer<typeof queues.campaignDispatch.payload>;
export type SubscriberImportJob = z.infer<typeof queues.subscriberImport.payload>;
export type MaintenanceJob = z.infer<typeof queues.maintenance.payload>;
export type ChannelDeliveryJob = z.infer<typeof queues.channelDelivery.payload>;
export type ChannelInboundJob = z.infer<typeof queues.channelInbound.payload>;
export type BotStepJob = z.infer<typeof queues.botStep.payload>;
export type TemplateSyncJob = z.infer<typeof queues.templateSync.payload>;
export type QueueName = (typeof queues)[keyof typeof queues]['name'];
