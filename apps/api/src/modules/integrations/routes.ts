import { createOAuthToken, deleteOAuthToken, getIntegrations, getVoicePhone, listOAuthTokens, updateIntegrations } from '@atende/contract';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import { IntegrationService } from './service';

/** Integrations settings (settings/integrations, /api/v1/oauth/tokens): admins only. */
export function integrationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const integrations = new IntegrationService(ctx);

  bind(app, listOAuthTokens, 'integrations', async ({ session, query }) => ({
    data: await integrations.listTokens(session, query),
    lifetime: integrations.tokenLifetime,
  }));

  bind(app, createOAuthToken, 'integrations.tokens.write', async ({ session, body }) => {
    const { token, secret } = await integrations.createToken(session, body);
    return { data: token, access_token: secret };
  });

  bind(app, deleteOAuthToken, 'integrations.tokens.write', async ({ session, params }) => ({
    data: { uuid: await integrations.revokeToken(session, params.id) },
  }));

  bind(app, getIntegrations, 'integrations', async ({ session }) => ({ data: await integrations.get(session) }));

  // Every signed-in user's header asks.
  bind(app, getVoicePhone, 'signed_in', async ({ session }) => ({ data: await integrations.voicePhone(session) }));

  bind(app, updateIntegrations, 'integrations', async ({ session, body }) => ({ data: await integrations.update(session, body) }));
}
