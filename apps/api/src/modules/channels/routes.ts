import {
  connectMetaSetup,
  createChannel,
  deleteChannel,
  getChannel,
  getWhatsAppWebConnection,
  listChannels,
  listMetaSetupPages,
  startMetaSetup,
  updateChannel,
  updateChannelToCloudApi,
} from '@atende/contract';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import { MetaSetupService } from './meta-setup';
import type { ChannelService } from './service';

/**
 * The api's public address: PUBLIC_URL, one setting shared with the worker, never
 * the Host a client sent, which anyone can set.
 */
export function publicUrlOf(ctx: AppContext): string {
  return ctx.env.PUBLIC_URL;
}

/** Channels: every signed-in user lists them; admins configure them. */
export function channelRoutes(app: FastifyInstance, ctx: AppContext, channels: ChannelService): void {
  bind(app, listChannels, 'signed_in', async ({ session, query }) => channels.list(session, query, publicUrlOf(ctx)));
  bind(app, getChannel, 'signed_in', async ({ session, params }) => ({ data: await channels.get(session, params.id, publicUrlOf(ctx)) }));
  bind(app, createChannel, 'settings.channels.write', async ({ session, body }) => channels.create(session, body, publicUrlOf(ctx)));
  bind(app, updateChannel, 'settings.channels.write', async ({ session, params, body }) => ({
    data: await channels.update(session, params.id, body, publicUrlOf(ctx)),
  }));
  bind(app, updateChannelToCloudApi, 'settings.channels.write', async ({ session, params }) => ({
    data: await channels.toCloudApi(session, params.id, publicUrlOf(ctx)),
  }));
  // A WhatsApp Web channel's phone: its state and the QR code to link it, for those who manage channels.
  bind(app, getWhatsAppWebConnection, 'settings.channels.write', async ({ session, params }) => ({
    data: await channels.whatsAppWebConnection(session, params.id),
  }));
  bind(app, deleteChannel, 'settings.channels.write', async ({ session, params }) => {
    await channels.remove(session, params.id);
    return { data: { ok: true as const } };
  });
  // The /messenger-setup and /instagram-setup screens: a page connected by Meta's login.
  const metaSetup = new MetaSetupService(ctx, channels);
  bind(app, startMetaSetup, 'settings.channels.write', async ({ session, body }) => ({
    data: metaSetup.start(session, body.kind, publicUrlOf(ctx)),
  }));
  bind(app, listMetaSetupPages, 'settings.channels.write', async ({ session, body }) => ({
    data: await metaSetup.pages(session, body, publicUrlOf(ctx)),
  }));
  bind(app, connectMetaSetup, 'settings.channels.write', async ({ session, body }) => metaSetup.connect(session, body, publicUrlOf(ctx)));
}
