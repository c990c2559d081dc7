import { ChannelDeliveryError, decryptCredentials, type ChannelAdapter, type parseSecretsKey } from '@atende/channels';
import { AppError, CAMPAIGN_NAME_MAX, type BodyOf, type Campaign, type duplicateCampaign, type testSendCampaign } from '@atende/contract';
import { announceCampaign, presentTemplate, subscriberMessage } from '@atende/conversations';
import { channelKind, countryForCallingCode, missingParameter, normalizePhone, phoneVariants, templateParameterCount } from '@atende/core';
import {
  campaignById,
  copyCampaignSubscribers,
  countCampaignDndMatches,
  insertCampaignCopy,
  liveCampaignChannel,
  liveCampaignDndListIds,
  templateRowById,
  withTransaction,
} from '@atende/db';
import { randomUUID } from 'node:crypto';
import { countInWindow } from '../../rate-window';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import type { CampaignService } from './service';

/** A duplicate's name unless one is given: the original's with this prefix. */
const COPY_NAME_PREFIX = 'Copy of ';

/** "Copy of <name>", cut to the campaign name limit. */
export function copyName(name: string): string {
  return `${COPY_NAME_PREFIX}${name}`.slice(0, CAMPAIGN_NAME_MAX).trim();
}

/** Test messages per campaign and window. */
export const TEST_SENDS = { limit: 10, windowSeconds: 600 } as const;

/** Tools of a campaign before Start: its duplicate and a test send of its template. */
export class CampaignToolService {
  constructor(
    private readonly ctx: AppContext,
    private readonly campaigns: CampaignService,
    private readonly adapters: Map<string, ChannelAdapter>,
    private readonly secretsKey: ReturnType<typeof parseSecretsKey>,
  ) {}

  /**
   * Sends the campaign's template to one number, as the run will (its do-not-disturb lists obeyed),
   * a few times per window at most.
   */
  async testSend(session: Session, id: string, body: BodyOf<typeof testSendCampaign>) {
    const { ctx, campaigns, adapters, secretsKey } = this;
    const campaign = await campaigns.row(session, id);
    if (campaign.template.deletedAt)
      throw new AppError('campaign_template_deleted', 'Você não pode iniciar uma campanha que usa um modelo que foi deletado.');
    const templateRow = await templateRowById(ctx.db, campaign.templateId);
    const template = presentTemplate(templateRow);
    if (template.config.status !== 'APPROVED')
      throw new AppError('campaign_template_not_approved', 'Você só poderá iniciar a campanha se o modelo estiver aprovado.');
    const phone = normalizePhone(body.phone_number, countryForCallingCode(session.tenantConfig.default_country_code));
    if (!phone)
      throw new AppError('phone_invalid', 'Número de telefone inválido', [
        { path: 'phone_number', message: 'Número de telefone inválido' },
      ]);
    const missing = missingParameter(body.parameters, templateParameterCount(template.config.components));
    if (missing !== null)
      throw new AppError(
        'subscriber_parameter_missing',
        `Parameter ${missing} is required`,
        [{ path: `parameters.${missing - 1}`, message: `Parameter ${missing} is required` }],
        { n: missing },
      );
    // The test obeys the campaign's do-not-disturb lists like the run will (every form of the number).
    const blocked = await countCampaignDndMatches(ctx.db, session.tenantId, campaign.id, phoneVariants(phone));
    if (blocked) throw new AppError('campaign_test_send_dnd', 'This number is on a do-not-disturb list of this campaign');
    // Each test is a real message: a campaign gets a few per window, so a test cannot become a mass send.
    const { count, retryAfterSeconds } = await countInWindow(
      ctx.redis,
      `${ctx.env.REDIS_PREFIX}campaign-test-send:${campaign.id}`,
      TEST_SENDS.windowSeconds,
    );
    if (count > TEST_SENDS.limit)
      throw new AppError('campaign_test_send_rate_limited', 'Too many test messages for this campaign, try again later', undefined, {
        retry_after_seconds: retryAfterSeconds,
      });
    const channel = await liveCampaignChannel(ctx.db, session.tenantId, campaign.channelId);
    const adapter = channel ? adapters.get(channelKind(channel.type)) : undefined;
    if (!channel || !adapter) throw new AppError('channel_no_templates', 'This channel cannot send templates');
    if (!channel.enabled) throw new AppError('channel_disabled', 'This channel is disabled');
    const credentials = channel.credentialsEncrypted ? decryptCredentials(channel.credentialsEncrypted, secretsKey) : null;
    // A fresh id each time: a second test is a second message, not a retry the provider drops.
    const message = subscriberMessage(template, { id: randomUUID(), phoneNumber: phone, parameters: body.parameters }, campaign.id);
    try {
      const sent = await adapter.send(message, { uuid: channel.id, type: channel.type, config: channel.config, credentials });
      return { data: { phone_number: phone, external_id: sent.externalId } };
    } catch (error) {
      if (!(error instanceof ChannelDeliveryError)) throw error;
      if (error.kind === 'transient') throw new AppError('dependency_unavailable', error.message);
      throw new AppError('campaign_test_send_refused', `The provider did not accept the test message: ${error.message}`, undefined, {
        reason: error.message.slice(0, 300),
      });
    }
  }

  /**
   * A new stopped campaign with the original's settings (every column but the run's own, so settings
   * added later are copied too) and, when asked, its subscribers as pending with their parameters.
   */
  async duplicate(session: Session, id: string, body: BodyOf<typeof duplicateCampaign>): Promise<Campaign> {
    const { ctx, campaigns } = this;
    const original = await campaigns.row(session, id);
    if (original.template.deletedAt)
      throw new AppError('campaign_template_deleted_edit', 'Você não pode editar uma campanha que usa um template que foi deletado.');
    const settings = await campaignById(ctx.db, original.id);
    const copyId = await withTransaction(ctx.db, async (tx) => {
      const lists = await liveCampaignDndListIds(tx, original.id);
      const copy = await insertCampaignCopy(tx, settings, {
        name: body.name ?? copyName(settings.name),
        createdById: session.userId,
        dndListIds: lists,
      });
      // One statement whatever the list's size, with the import's rules (see copyCampaignSubscribers).
      if (body.with_subscribers) await copyCampaignSubscribers(tx, original.id, copy);
      return copy;
    });
    await announceCampaign(ctx, copyId);
    return campaigns.get(session, copyId);
  }
}
