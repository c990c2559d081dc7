import { z } from 'zod';

/**
 * What the custom API channel (types custom, droz, API) posts to the integrated system's webhook
 * for each agent message. Wire names are snake_case like the rest of the public API.
 */
export const CustomWebhookBodySchema = z.object({
  event: z.literal('message'),
  message: z.object({
    uuid: z.uuid(),
    conversation_uuid: z.uuid(),
    content: z.string(),
    annex: z.object({ url: z.string(), content_type: z.string(), original_filename: z.string() }).nullable(),
    author: z.enum(['USER', 'CONTACT', 'SYSTEM']),
    created_at: z.iso.datetime({ offset: true }),
  }),
  contact: z.object({ uuid: z.uuid(), phone_number: z.string().nullable(), identifier: z.string().nullable() }),
});
export type CustomWebhookBody = z.infer<typeof CustomWebhookBodySchema>;

/** Channel.config of a custom channel: where to post (non-secret). */
export const CustomChannelConfigSchema = z.object({ webhook_url: z.string().min(1) });
/** Channel.credentialsEncrypted of a custom channel, once decrypted. */
export const CustomChannelCredentialsSchema = z.object({ webhook_secret: z.string().min(1) });
