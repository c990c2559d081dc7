import { createTemplate, deleteTemplate, listChannelTemplates, listTemplates, updateTemplate } from '@atende/contract';
import type { FastifyInstance } from 'fastify';
import { bind, type Access } from '../../bind';
import type { TemplateService } from './service';

/**
 * Templates. Everyone may list them (agents pick an approved one to start a
 * conversation); the template manager's changes need campaign_manager and its feature flag.
 */
export function templateRoutes(app: FastifyInstance, templates: TemplateService): void {
  const manage: Access = 'templates.manage';
  bind(app, listTemplates, 'signed_in', async ({ session, query }) => templates.list(session, query));
  bind(app, listChannelTemplates, 'signed_in', async ({ session, params, query }) =>
    templates.list(session, { ...query, channel_uuid: params.id }),
  );
  bind(app, createTemplate, manage, async ({ session, params, body }) => ({ data: await templates.create(session, params.id, body) }));
  bind(app, updateTemplate, manage, async ({ session, params, body, query }) => ({
    data: await templates.update(session, params.id, body, query.confirm === true),
  }));
  bind(app, deleteTemplate, manage, async ({ session, params, query }) => {
    await templates.remove(session, params.id, query.confirm === true);
    return { data: { ok: true as const } };
  });
}
