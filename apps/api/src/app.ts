import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { health } from '@atende/contract';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import { databaseAnswers, type Db } from '@atende/db';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import { bind } from './bind';
import type { AppContext } from './context';
import { InboundService } from './modules/channels-inbound/service';
import { campaignRoutes } from './modules/campaigns/routes';
import { channelRoutes } from './modules/channels/routes';
import { ChannelService } from './modules/channels/service';
import { channelWebhookRoutes } from './modules/channels/webhooks';
import { livechatRoutes } from './modules/livechat/routes';
import { templateRoutes } from './modules/templates/routes';
import { TemplateService } from './modules/templates/service';
import { contactRoutes } from './modules/contacts/routes';
import { dashboardRoutes } from './modules/dashboard/routes';
import { DashboardService } from './modules/dashboard/service';
import { surveyRoutes } from './modules/surveys/routes';
import { menuRoutes } from './modules/menus/routes';
import { integrationRoutes } from './modules/integrations/routes';
import { automationRoutes } from './modules/automations/routes';
import { adminReportRoutes } from './modules/reports/routes';
import { surveyReportRoutes } from './modules/reports/surveys';
import { botRoutes } from './modules/bots/routes';
import { conversationFieldRoutes } from './modules/conversation-fields/routes';
import { storageRoutes } from './modules/storage/routes';
import { conversationRoutes } from './modules/conversations/routes';
import { ConversationService } from './modules/conversations/service';
import { messageRoutes } from './modules/messages/routes';
import { openingHoursRoutes } from './modules/opening-hours/routes';
import { MessageService } from './modules/messages/service';
import type { Env } from './env';
import { PasswordRecoveryService } from './modules/session/password-recovery';
import { sessionRoutes } from './modules/session/routes';
import { systemMailer } from './modules/session/system-mail';
import { settingsRoutes } from './modules/settings/routes';
import { SessionService } from './modules/session/service';
import { tenantRoutes } from './modules/tenants/routes';
import { TenantService } from './modules/tenants/service';
import { userRoutes } from './modules/users/routes';
import { UserService } from './modules/users/service';
import { registerAuth } from './plugins/auth';
import { frameworkErrors, registerErrorHandler } from './plugins/errors';
import { registerJsonBody, registerTextGuard } from './plugins/input-guards';
import { registerOpenApi } from './plugins/openapi';
import { registerWeb } from './plugins/web';
import { registerSecurityHeaders } from './plugins/security-headers';
import { requestLogSerializer } from './plugins/log-safe';
import { FORM_BODY_LIMIT } from './payload-limit';
import { REDIS_REQUEST_TIMEOUT_MS, requestRedis, serviceUnavailable, within } from './redis-requests';
import { createGateway, type Io } from './realtime/gateway';

export interface BuiltApp {
  app: FastifyInstance;
  io: Io;
  ctx: AppContext;
}

/** Phone numbers, emails, passwords and message text never reach the logs. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.old_password',
  '*.email',
  '*.phone',
  '*.phone_number',
  '*.content',
  '*.token',
];

export async function buildApp(deps: { env: Env; db: Db; redis: Redis }): Promise<BuiltApp> {
  const { env, db, redis } = deps;
  const app = Fastify({
    logger: { level: env.LOG_LEVEL, redact: { paths: REDACT, censor: '[redacted]' }, serializers: { req: requestLogSerializer } },
    genReqId: (req) =>
      typeof req.headers['x-request-id'] === 'string' && req.headers['x-request-id'].length <= 64
        ? req.headers['x-request-id']
        : randomUUID(),
    trustProxy: env.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    frameworkErrors,
  });
  // Fastify hands a missing body to the validator as null; a contract's optional body means "none".
  app.setValidatorCompiler((route) => {
    const validate = validatorCompiler(route as Parameters<typeof validatorCompiler>[0]);
    return route.httpPart === 'body' ? (data: unknown) => validate(data === null ? undefined : data) : validate;
  });
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerJsonBody(app);
  registerTextGuard(app);
  await app.register(cookie);
  await registerSecurityHeaders(app, {
    https: env.COOKIE_SECURE,
    production: env.NODE_ENV === 'production',
    voicePhoneDomains: env.VOICE_PHONE_DOMAINS,
  });
  await app.register(formbody, { bodyLimit: FORM_BODY_LIMIT });
  await registerOpenApi(app);

  const gateway = await createGateway(app, { env, db, redis, log: app.log });
  // Requests use a connection that fails fast while Redis is down.
  const fastRedis = await requestRedis(redis);
  const ctx: AppContext = { env, db, redis: fastRedis, realtime: gateway.realtime, log: app.log };
  registerAuth(app, ctx);

  const sessions = new SessionService(ctx);
  const users = new UserService(ctx, sessions);
  const mailer = systemMailer(env.SMTP_URL, env.MAIL_FROM);
  const recovery = new PasswordRecoveryService(ctx, users, mailer);
  const tenants = new TenantService(ctx);
  const conversations = new ConversationService(ctx);

  bind(app, health, 'public', async () => {
    // Each dependency gets a second at most: a health check that hangs tells a load balancer nothing.
    const [postgres, redisOk] = await Promise.all([
      within(databaseAnswers(db), REDIS_REQUEST_TIMEOUT_MS, false),
      within(
        fastRedis.ping().then((r) => r === 'PONG'),
        REDIS_REQUEST_TIMEOUT_MS,
        false,
      ),
    ]);
    if (!postgres) throw serviceUnavailable('postgres');
    if (!redisOk) throw serviceUnavailable('redis');
    return { status: 'ok' as const, postgres, redis: redisOk, version: '0.1.0' };
  });
  sessionRoutes(app, ctx, sessions, recovery);
  userRoutes(app, users, sessions);
  tenantRoutes(app, tenants);
  conversationRoutes(app, ctx, conversations);
  contactRoutes(app, ctx);
  conversationFieldRoutes(app, ctx);
  openingHoursRoutes(app, ctx);
  await storageRoutes(app, ctx);
  messageRoutes(app, new MessageService(ctx), new InboundService(ctx));
  channelRoutes(app, ctx, new ChannelService(ctx));
  livechatRoutes(app, ctx);
  templateRoutes(app, new TemplateService(ctx));
  await campaignRoutes(app, ctx);
  dashboardRoutes(app, new DashboardService(ctx));
  surveyRoutes(app, ctx);
  menuRoutes(app, ctx);
  integrationRoutes(app, ctx);
  automationRoutes(app, ctx);
  adminReportRoutes(app, ctx);
  surveyReportRoutes(app, ctx);
  botRoutes(app, ctx);
  settingsRoutes(app, ctx);
  await app.register(channelWebhookRoutes(ctx));

  const dist = env.WEB_DIST ?? fileURLToPath(new URL('../../web/dist', import.meta.url));
  await registerWeb(app, dist);

  app.addHook('onClose', async () => {
    mailer?.close();
    fastRedis.disconnect();
    await gateway.close();
  });
  return { app, io: gateway.io, ctx };
}
