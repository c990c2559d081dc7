import { connectMetaSetup, createChannel, deleteChannel, getChannel, listChannels, listMetaSetupPages, startMetaSetup, updateChannel, updateChannelToCloudApi } from '@atende/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import { MetaSetupService } from './meta-setup';
import type { ChannelService } from './service';

/** The api's public address: PUBLIC_URL, else the address this request came to. */
export function publicUrlOf(ctx: AppContext, request: FastifyRequest): string {
  return (ctx.env.PUBLIC_URL ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
}

/** Channels (spec 002 §3, §7): every signed-in user lists them; admins configure them. */
export function channelRoutes(app: FastifyInstance, ctx: AppContext, channels: ChannelService): void {
  bind(app, listChannels, 'signed_in', async ({ session, query, request }) => channels.list(session, query, publicUrlOf(ctx, request)));
  bind(app, getChannel, 'signed_in', async ({ session, params, request }) => ({ data: await channels.get(session, params.id, publicUrlOf(ctx, request)) }));
  bind(app, createChannel, 'settings.channels.write', async ({ session, body, request }) => channels.create(session, body, publicUrlOf(ctx, request)));
  bind(app, updateChannel, 'settings.channels.write', async ({ session, params, body, request }) => ({ data: await channels.update(session, params.id, body, publicUrlOf(ctx, request)) }));
  bind(app, updateChannelToCloudApi, 'settings.channels.write', async ({ session, params, request }) => ({ data: await channels.toCloudApi(session, params.id, publicUrlOf(ctx, request)) }));
  bind(app, deleteChannel, 'settings.channels.write', async ({ session, params }) => {
    await channels.remove(session, params.id);
    return { data: { ok: true as const } };
  });
  // The /messenger-setup and /instagram-setup screens: a page connected by Meta's login.
  const metaSetup = new MetaSetupService(ctx, channels);
  bind(app, startMetaSetup, 'settings.channels.write', async ({ session, body, request }) => ({ data: metaSetup.start(session, body.kind, publicUrlOf(ctx, request)) }));
  bind(app, listMetaSetupPages, 'settings.channels.write', async ({ session, body, request }) => ({ data: await metaSetup.pages(session, body, publicUrlOf(ctx, request)) }));
  bind(app, connectMetaSetup, 'settings.channels.write', async ({ session, body, request }) => metaSetup.connect(session, body, publicUrlOf(ctx, request)));
}
