import { z } from 'zod';
import { ChannelDeliveryError, type ChannelTarget } from '../adapter';
import { GRAPH_BASE_URL, GRAPH_VERSION } from './graph';

/** A Messenger or Instagram channel's settings (Channel.config) and secrets (credentials); blank counts as absent. */

const blankAsAbsent = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalText = z.preprocess(blankAsAbsent, z.string().trim().max(2000).optional());

export const MetaMessagingSettingsSchema = z.looseObject({
  /** The Graph API's address; the Meta simulator in tests and the demo. */
  base_url: z.preprocess(blankAsAbsent, z.url({ protocol: /^https?$/, message: 'base_url must be an http(s) address' }).optional()),
  /** The Facebook page (Instagram: the page the Instagram account is connected to). */
  page_id: z.preprocess(
    blankAsAbsent,
    z
      .string()
      .trim()
      .regex(/^\d{1,40}$/, "page_id is the page's numeric id")
      .optional(),
  ),
  /** Instagram: the professional account's id, which Meta's app-level webhooks name in entry.id. */
  instagram_account_id: z.preprocess(
    blankAsAbsent,
    z
      .string()
      .trim()
      .regex(/^\d{1,40}$/, "instagram_account_id is the account's numeric id")
      .optional(),
  ),
  graph_version: z.preprocess(
    blankAsAbsent,
    z
      .string()
      .regex(/^v\d+\.\d+$/, 'graph_version looks like v21.0')
      .optional(),
  ),
});
export const MetaMessagingSecretsSchema = z.looseObject({
  /** The page access token. */
  access_token: optionalText,
  app_secret: optionalText,
  verify_token: optionalText,
});
export type MetaMessagingSecrets = z.infer<typeof MetaMessagingSecretsSchema>;

export function graphOf(channel: ChannelTarget): { graph: string; base: string; pageId: string | undefined } {
  const parsed = MetaMessagingSettingsSchema.safeParse(channel.config ?? {});
  if (!parsed.success)
    throw new ChannelDeliveryError('permanent', `Channel settings are invalid: ${parsed.error.issues[0]?.message ?? 'base_url'}`);
  const base = (parsed.data.base_url ?? GRAPH_BASE_URL).replace(/\/+$/, '');
  return { base, graph: `${base}/${parsed.data.graph_version ?? GRAPH_VERSION}`, pageId: parsed.data.page_id };
}

/** The secrets, or all absent when unreadable: a webhook check must answer false, not throw. */
export function metaSecretsOf(channel: ChannelTarget): MetaMessagingSecrets {
  const parsed = MetaMessagingSecretsSchema.safeParse(channel.credentials ?? {});
  return parsed.success ? parsed.data : {};
}

export function pageTokenOf(channel: ChannelTarget): string {
  const token = metaSecretsOf(channel).access_token;
  if (!token) throw new ChannelDeliveryError('permanent', 'Channel has no page access token configured (access_token)');
  return token;
}
