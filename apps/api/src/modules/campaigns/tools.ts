import { channelAdapters, outboundClient, parseSecretsKey, type ChannelAdapter } from '@atende/channels';
import { duplicateCampaign, testSendCampaign } from '@atende/contract';
import type { FastifyInstance } from 'fastify';
import { bind, type Access } from '../../bind';
import type { AppContext } from '../../context';
import type { CampaignService } from './service';
import { CampaignToolService, copyName, TEST_SENDS } from './tool-service';

export { copyName, TEST_SENDS };

/**
 * Duplicate a campaign and test-send its template before Start.
 * The test send talks to the provider from the api (the campaign manager waits for the answer in
 * the modal), through the same adapters and guarded outbound client the worker uses.
 */
export function campaignToolRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  campaigns: CampaignService,
  access: Access,
  adapters: Map<string, ChannelAdapter> = channelAdapters({ outbound: outboundClient({ allowHosts: ctx.env.OUTBOUND_ALLOW_HOSTS }) }),
): void {
  const tools = new CampaignToolService(ctx, campaigns, adapters, parseSecretsKey(ctx.env.CHANNEL_SECRETS_KEY));
  bind(app, duplicateCampaign, access, async ({ session, params, body }) => ({ data: await tools.duplicate(session, params.id, body) }));
  bind(app, testSendCampaign, access, async ({ session, params, body }) => tools.testSend(session, params.id, body));
}
