import { fieldMessage } from '@atende/contract';
import { z } from 'zod';
import { ChannelDeliveryError, type ChannelTarget } from '../adapter';
import { GRAPH_BASE_URL, GRAPH_VERSION } from './graph';

/** A Messenger or Instagram channel's settings (Channel.config) and secrets (credentials); blank counts as absent. */

const blankAsAbsent = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalText = z.preprocess(blankAsAbsent, z.string().trim().max(2000).optional());

export const MetaMessagingSettingsSchema = z.looseObject({
  /** The Graph API's address; the Meta simulator in tests and the demo. */
  base_url: z.preprocess(blankAsAbsent, z.url({ protocol: /^https?$/, message: fieldMessage('base_url_invalid') }).optional()),
  /** The Facebook page (Instagram: the page the Instagram account is connected to). */
  page_id: z.preprocess(
    blankAsAbsent,
    z
      .string()
      .trim()
      .regex(/^\d{1,40}$/, fieldMessage('page_id_invalid'))
      .optional(),
  ),
  /** Instagram: the professional account's id, which Meta's app-level webhooks name in entry.id. */
  instagram_account_id: z.preprocess(
    blankAsAbsent,
    z
      .string()
      .trim()
      .regex(/^\d{1,40}$/, fieldMessage('instagram_account_id_invalid'))
      .optional(),
  ),
  /** 'true': past Meta's 24 hours, agents answer for 7 days with the HUMAN_AGENT tag (the app needs that permission). */
  human_agent_tag: z.preprocess(blankAsAbsent, z.enum(['true', 'false']).optional()),
  graph_version: z.preprocess(
    blankAsAbsent,
    z
      .string()
      .regex(/^v\d+\.\d+$/, fieldMessage('graph_version_invalid'))
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
