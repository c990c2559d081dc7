import { ChannelDeliveryError, channelAdapters, decryptCredentials, outboundClient, parseSecretsKey, type ChannelAdapter } from '@atende/channels';
import { AppError, CAMPAIGN_NAME_MAX, duplicateCampaign, testSendCampaign, type BodyOf } from '@atende/contract';
import { announceCampaign, presentTemplate, subscriberMessage, templateInclude } from '@atende/conversations';
import { channelKind, countryForCallingCode, missingParameter, normalizePhone, phoneVariants, SUBSCRIBER_REFUSALS, templateParameterCount } from '@atende/core';
import { Prisma } from '@atende/db';
import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { bind, type Access } from '../../bind';
import { countInWindow } from '../../rate-window';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import type { CampaignService } from './service';

/** What a duplicate never inherits: the original's identity, run, schedule, import and sending state. */
const COPY_NAME_PREFIX = 'Copy of ';

/** "Copy of <name>", cut to the campaign name limit. */
export function copyName(name: string): string {
  return `${COPY_NAME_PREFIX}${name}`.slice(0, CAMPAIGN_NAME_MAX).trim();
}

/**
 * Issue 14 item 10: duplicate a campaign and test-send its template before Start.
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
  const secretsKey = parseSecretsKey(ctx.env.CHANNEL_SECRETS_KEY);

  bind(app, duplicateCampaign, access, async ({ session, params, body }) => ({ data: await duplicate(ctx, campaigns, session, params.id, body) }));

  bind(app, testSendCampaign, access, async ({ session, params, body }) => {
    const campaign = await campaigns.row(session, params.id);
    if (campaign.template.deletedAt) throw new AppError('unprocessable', 'Você não pode iniciar uma campanha que usa um modelo que foi deletado.');
    const templateRow = await ctx.db.outboundTemplate.findUniqueOrThrow({ where: { id: campaign.templateId }, include: templateInclude });
    const template = presentTemplate(templateRow);
    if (template.config.status !== 'APPROVED') throw new AppError('unprocessable', 'Você só poderá iniciar a campanha se o modelo estiver aprovado.');
    const phone = normalizePhone(body.phone_number, countryForCallingCode(session.tenantConfig.default_country_code));
    if (!phone) throw new AppError('validation_failed', 'Número de telefone inválido', [{ path: 'phone_number', message: 'Número de telefone inválido' }]);
    const missing = missingParameter(body.parameters, templateParameterCount(template.config.components));
    if (missing !== null) throw new AppError('subscriber_parameter_missing', `Parameter ${missing} is required`, [{ path: `parameters.${missing - 1}`, message: `Parameter ${missing} is required` }], { n: missing });
    // The test obeys the campaign's do-not-disturb lists like the run will (every form of the number).
    const blocked = await ctx.db.dndContact.count({
      where: { tenantId: session.tenantId, list: { deletedAt: null, campaigns: { some: { campaignId: campaign.id } } }, contact: { deletedAt: null, phoneNumber: { in: phoneVariants(phone) } } },
    });
    if (blocked) throw new AppError('campaign_test_send_dnd', 'This number is on a do-not-disturb list of this campaign');
    // Each test is a real message: a campaign gets a few per window, so a test cannot become a mass send.
    const { count, retryAfterSeconds } = await countInWindow(ctx.redis, `${ctx.env.REDIS_PREFIX}campaign-test-send:${campaign.id}`, TEST_SENDS.windowSeconds);
    if (count > TEST_SENDS.limit) throw new AppError('rate_limited', 'Too many test messages for this campaign, try again later', undefined, { retry_after_seconds: retryAfterSeconds });
    const channel = await ctx.db.channel.findFirst({ where: { id: campaign.channelId, tenantId: session.tenantId, deletedAt: null } });
    const adapter = channel ? adapters.get(channelKind(channel.type)) : undefined;
    if (!channel || !adapter) throw new AppError('unprocessable', 'This channel cannot send templates');
    if (!channel.enabled) throw new AppError('conflict', 'This channel is disabled');
    const credentials = channel.credentialsEncrypted ? decryptCredentials(channel.credentialsEncrypted, secretsKey) : null;
    // A fresh id each time: a second test is a second message, not a retry the provider drops.
    const message = subscriberMessage(template, { id: randomUUID(), phoneNumber: phone, parameters: body.parameters }, campaign.id);
    try {
      const sent = await adapter.send(message, { uuid: channel.id, type: channel.type, config: channel.config, credentials });
      return { data: { phone_number: phone, external_id: sent.externalId } };
    } catch (error) {
      if (!(error instanceof ChannelDeliveryError)) throw error;
      if (error.kind === 'transient') throw new AppError('dependency_unavailable', error.message);
      throw new AppError('campaign_test_send_refused', `The provider did not accept the test message: ${error.message}`, undefined, { reason: error.message.slice(0, 300) });
    }
  });
}

/** Test messages per campaign and window. */
export const TEST_SENDS = { limit: 10, windowSeconds: 600 } as const;

/** A row the import refused (apps/worker import-rows.ts): it stays refused in a copy. */
const ROW_INVALID = Prisma.sql`(s."errorMessage" IN (${SUBSCRIBER_REFUSALS.noName}, ${SUBSCRIBER_REFUSALS.badPhone}) OR s."errorMessage" LIKE ${SUBSCRIBER_REFUSALS.parameterLike})`;

/**
 * A new stopped campaign with the original's settings (every column but the run's own, so settings
 * added later are copied too) and, when asked, its subscribers as pending with their parameters.
 */
async function duplicate(ctx: AppContext, campaigns: CampaignService, session: Session, id: string, body: BodyOf<typeof duplicateCampaign>) {
  const original = await campaigns.row(session, id);
  if (original.template.deletedAt) throw new AppError('unprocessable', 'Você não pode editar uma campanha que usa um template que foi deletado.');
  const {
    id: _id, name, state: _state, desiredState: _desired, startAt: _startAt, startedAt: _startedAt, scheduledStartErrors: _errors, runNumber: _run, dispatchOwner: _owner,
    dispatchLeaseUntil: _lease, finishedAt: _finished, importStatus: _import, importSummary: _summary, createdById: _by, createdAt: _created, updatedAt: _updated, deletedAt: _deleted,
    config, ...settings
  } = await ctx.db.campaign.findUniqueOrThrow({ where: { id: original.id } });
  const copyId = await ctx.db.$transaction(async (tx) => {
    const lists = await tx.campaignDndList.findMany({ where: { campaignId: original.id, list: { deletedAt: null } }, select: { dndListId: true } });
    const copy = await tx.campaign.create({
      data: {
        ...settings, config: config ?? {}, name: body.name ?? copyName(name), state: 'stopped', desiredState: 'stopped', createdById: session.userId,
        dndLists: { create: lists.map((l) => ({ dndListId: l.dndListId })) },
      },
    });
    if (body.with_subscribers) {
      // Set-based, one statement whatever the list's size, with the import's rules: a number on one of
      // the copy's DND lists now is 'dnd' (never sent), a row in error stays in error with its reason
      // (the screen re-checks it when put back to pending), every other row (a provider's refusal
      // included: worth another try) is pending again.
      await tx.$executeRaw`
        INSERT INTO "CampaignSubscriber" (id, "tenantId", "campaignId", "contactId", name, "phoneNumber", parameters, state, "errorMessage", "createdAt", "updatedAt")
        SELECT gen_random_uuid(), s."tenantId", ${copy.id}::uuid, s."contactId", s.name, s."phoneNumber", s.parameters,
          CASE WHEN EXISTS (
                 SELECT 1 FROM "CampaignDndList" cl JOIN "DndContact" d ON d."dndListId" = cl."dndListId" JOIN "Contact" ct ON ct.id = d."contactId"
                 WHERE cl."campaignId" = ${copy.id}::uuid AND ct."tenantId" = s."tenantId" AND ct."phoneNumber" = s."phoneNumber") THEN 'dnd'
               WHEN s.state = 'error' AND ${ROW_INVALID} THEN 'error'
               ELSE 'pending' END,
          CASE WHEN s.state = 'error' AND ${ROW_INVALID} THEN s."errorMessage" END,
          now(), now()
        FROM "CampaignSubscriber" s
        WHERE s."campaignId" = ${original.id}::uuid`;
    }
    return copy.id;
  });
  await announceCampaign(ctx, copyId);
  return campaigns.get(session, copyId);
}
