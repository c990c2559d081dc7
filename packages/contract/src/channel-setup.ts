import { z } from 'zod';
import { dataOf } from './common';
import { ChannelSchema, EntryPointTypeInput } from './channels';
import { route } from './route';
import { fieldMessage } from './field-messages';

/**
 * The /messenger-setup and /instagram-setup screens: a Facebook page, or the Instagram
 * account linked to one, connected through Meta's login dialog. The user and page tokens stay on the
 * server; the browser carries only the signed `state` and the dialog's `code`.
 */
export const META_SETUP_KINDS = ['messenger', 'instagram'] as const;
export type MetaSetupKind = (typeof META_SETUP_KINDS)[number];

const State = z.string().trim().min(1).max(1000);

export const MetaSetupPageSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The Instagram professional account linked to the page (null when none). */
  instagram_username: z.string().nullable(),
  /** The channel of this workspace already connected to the page, if any: connecting again updates it. */
  channel: z.object({ uuid: z.string(), name: z.string() }).nullable(),
});
export type MetaSetupPage = z.infer<typeof MetaSetupPageSchema>;

export const startMetaSetup = route({
  method: 'POST',
  path: '/api/v1/channels/meta_setup/start',
  tags: ['channels'],
  summary: "Starts connecting a Facebook page or Instagram account: the Meta login dialog's address, with a signed state that expires.",
  body: z.object({ kind: z.enum(META_SETUP_KINDS, { message: fieldMessage('channel_type_invalid') }) }),
  response: dataOf(z.object({ dialog_url: z.string(), state: z.string() })),
  errors: ['meta_setup_not_configured'],
});
export const listMetaSetupPages = route({
  method: 'POST',
  path: '/api/v1/channels/meta_setup/pages',
  tags: ['channels'],
  summary:
    "Exchanges the dialog's code (once; the pages are kept a few minutes under the state) and lists the pages to choose; Instagram lists only pages with a linked Instagram account.",
  body: z.object({ state: State, code: z.string().trim().min(1).max(2000) }),
  response: dataOf(z.object({ kind: z.enum(META_SETUP_KINDS), pages: z.array(MetaSetupPageSchema) })),
  errors: ['meta_setup_state_invalid', 'meta_setup_not_configured', 'channel_provider_unavailable', 'meta_login_refused', 'meta_no_pages'],
});
export const connectMetaSetup = route({
  method: 'POST',
  path: '/api/v1/channels/meta_setup/connect',
  tags: ['channels'],
  summary:
    "Creates the page's Messenger or Instagram channel (or updates this workspace's channel of that page), subscribes the page to the app's webhook and sets the entry point.",
  body: z.object({
    state: State,
    page_id: z.string().regex(/^\d{1,40}$/, fieldMessage('page_id_invalid')),
    entry_point: z.union([z.literal(''), z.uuid({ message: fieldMessage('entry_point_invalid') })]).optional(),
    entry_point_type: EntryPointTypeInput,
  }),
  response: z.object({ data: ChannelSchema, created: z.boolean() }),
  errors: [
    'meta_setup_state_invalid',
    'meta_page_not_chosen',
    'channel_identity_taken',
    'meta_setup_not_configured',
    'channel_provider_unavailable',
    'meta_login_refused',
    'entry_point_unknown',
  ],
});
