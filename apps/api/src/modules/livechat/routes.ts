import { getLivechatConfig, listLivechatMessages, sendLivechatMessage, sendLivechatVoice, startLivechatSession } from '@atende/contract';
import { storageFromEnv } from '@atende/storage';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import { publicUrlOf } from '../channels/routes';
import { LivechatRateLimit } from './rate-limit';
import { LivechatService } from './service';

/** The livechat widget's public calls: no user session, rate-limited per client IP. */
export function livechatRoutes(app: FastifyInstance, ctx: AppContext): void {
  const livechat = new LivechatService(ctx);
  const limit = new LivechatRateLimit(ctx.redis, ctx.env.REDIS_PREFIX);
  bind(app, getLivechatConfig, 'public', async ({ params, request }) => {
    await limit.hit('config', request.ip);
    return { data: await livechat.config(params.channel_uuid, publicUrlOf(ctx)) };
  });
  bind(app, startLivechatSession, 'public', async ({ params, body, request }) => {
    await limit.hit('session', request.ip);
    return { data: await livechat.startSession(params.channel_uuid, body) };
  });
  bind(app, sendLivechatMessage, 'public', async ({ body, request }) => {
    await limit.hit('send', request.ip);
    return { data: await livechat.send(request.headers.authorization, body) };
  });
  // Visitors' voice notes are kept where agents' uploads are.
  const storage = storageFromEnv(ctx.env);
  app.addHook('onClose', async () => storage.close());
  bind(app, sendLivechatVoice, 'public', async ({ body, request }) => {
    await limit.hit('send', request.ip);
    return { data: await livechat.sendVoice(request.headers.authorization, body, storage.writer) };
  });
  bind(app, listLivechatMessages, 'public', async ({ query, request }) => {
    await limit.hit('read', request.ip);
    return {
      data: await livechat.list(
        request.headers.authorization,
        query,
        publicUrlOf(ctx),
        () => request.raw.destroyed || request.socket.destroyed,
      ),
    };
  });
}
