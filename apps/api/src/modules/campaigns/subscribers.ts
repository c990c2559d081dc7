import { randomUUID } from 'node:crypto';
import {
  AppError,
  deleteSubscriber,
  downloadSubscribersTemplate,
  importSubscribers,
  listSubscribers,
  resendUnknownSubscribers,
  SUBSCRIBER_IMPORT_ERRORS,
  SUBSCRIBERS_FILE_MAX_BYTES,
  updateSubscriber,
  type SubscriberImportJob,
} from '@atende/contract';
import { Readable } from 'node:stream';
import {
  announceCampaign,
  openSubscriberFile,
  SubscriberFileError,
  sniffSubscriberFile,
  subscriberTemplateCsv,
  subscriberTemplateXlsx,
} from '@atende/conversations';
import { templateParameterNames } from '@atende/core';
import type { Storage } from '@atende/storage';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { bind, type Access } from '../../bind';
import type { AppContext } from '../../context';
import { readMultipartFile } from '../storage/routes';
import type { CampaignService } from './service';
import { IMPORT_MESSAGES, SubscriberService } from './subscriber-service';

export { IMPORT_MESSAGES };

const CSV_TYPES = new Set(['text/csv', 'application/csv', 'text/comma-separated-values']);
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Types browsers give a .csv or .xlsx on machines that know no better (Windows with Excel says vnd.ms-excel for .csv). */
const VAGUE_TYPES = new Set(['application/vnd.ms-excel', 'application/octet-stream', '']);
const isSubscriberFile = (type: string, filename: string) =>
  CSV_TYPES.has(type) || type === XLSX_TYPE || (/\.(csv|xlsx)$/i.test(filename) && VAGUE_TYPES.has(type));
/** Of a CSV the header is in its first bytes; an .xlsx is read up to its header row. */
const HEADER_BYTES = 64 * 1024;

/**
 * The header of an uploaded file, its columns lower-cased (the worker reads the rest), read as the
 * worker will (every usual encoding and delimiter, or an .xlsx); a file that cannot be decoded is refused.
 */
async function headerOf(bytes: Buffer, xlsx: boolean): Promise<string[]> {
  const head = xlsx ? bytes : bytes.subarray(0, HEADER_BYTES);
  const file = await openSubscriberFile(Readable.from([head])).catch(refused);
  try {
    for await (const _ of file.rows) break;
  } catch (error) {
    // Past the header a failure may come of the cut at HEADER_BYTES: the worker reads the whole file.
    if (file.columns() === null) refused(error);
  }
  return file.columns() ?? [];
}
const refused = (error: unknown): never => {
  // One code, one message: binary, an unknown encoding and a damaged workbook alike.
  throw error instanceof SubscriberFileError ? new AppError('subscriber_file_unreadable', SUBSCRIBER_IMPORT_ERRORS.undecodable) : error;
};

/** A campaign's subscribers, their import and its template file. */
export async function subscriberRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  campaigns: CampaignService,
  storage: Storage,
  access: Access,
): Promise<void> {
  const subscribers = new SubscriberService(ctx, campaigns);

  bind(app, listSubscribers, access, async ({ session, params, query }) =>
    subscribers.list(session, params.id, query.states ?? query['states[]'], query),
  );
  bind(app, updateSubscriber, access, async ({ session, params, body }) => ({
    data: await subscribers.update(session, params.id, params.contact, body.state),
  }));
  bind(app, resendUnknownSubscribers, access, async ({ session, params }) => ({
    data: { resent: await subscribers.resendUnknown(session, params.id) },
  }));
  bind(app, deleteSubscriber, access, async ({ session, params }) => {
    await subscribers.remove(session, params.id, params.contact);
    return { data: { ok: true as const } };
  });

  bind(app, downloadSubscribersTemplate, access, async ({ session, params, request, reply }) => {
    const { campaign, template } = await subscribers.withTemplate(session, params.id);
    const names = templateParameterNames(template.config.components);
    const language = /^pt\b/i.test(String(request.headers['accept-language'] ?? '')) ? 'pt' : 'en';
    const base = `subscribers-${campaign.name.replace(/[^\w-]+/g, '_').slice(0, 40) || 'campaign'}`;
    const accept = String(request.headers.accept ?? '');
    if (/excel|spreadsheet/.test(accept)) {
      const bytes = await subscriberTemplateXlsx(names, language);
      return reply.header('content-type', XLSX_TYPE).header('content-disposition', `attachment; filename="${base}.xlsx"`).send(bytes);
    }
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${base}.csv"`)
      .send(subscriberTemplateCsv(names, language));
  });

  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: SUBSCRIBERS_FILE_MAX_BYTES, files: 1, fields: 2, parts: 3 } });
    bind(scope, importSubscribers, access, async ({ session, params, request, reply }) => {
      const campaign = await campaigns.row(session, params.id);
      if (campaign.template.deletedAt) throw new AppError('subscriber_import_template_deleted', IMPORT_MESSAGES.templateDeleted);
      if (campaign.importStatus === 'pending' || campaign.importStatus === 'in_progress')
        throw new AppError('subscriber_import_busy', IMPORT_MESSAGES.busy);
      if (!request.isMultipart()) throw new AppError('subscriber_file_not_multipart', IMPORT_MESSAGES.notCsv);
      const file = await readMultipartFile(request, SUBSCRIBERS_FILE_MAX_BYTES);
      if (!isSubscriberFile(file.contentType, file.filename)) throw new AppError('subscriber_file_not_csv', IMPORT_MESSAGES.notCsv);
      const bytes = file.bytes;
      const xlsx = sniffSubscriberFile(bytes).kind === 'xlsx';
      const contentType = xlsx ? XLSX_TYPE : 'text/csv';
      const columns = await headerOf(bytes, xlsx);
      if (!columns.includes('name') || !columns.includes('phone')) throw new AppError('subscriber_file_columns', IMPORT_MESSAGES.columns);
      const id = randomUUID();
      const key = `${session.tenantId}/${id}`;
      await storage.writer.put(key, bytes, { contentType, size: bytes.length });
      const payload: SubscriberImportJob = { tenant_uuid: session.tenantId, campaign_uuid: campaign.id, file_uuid: id };
      const started = await subscribers.startImport(
        {
          id,
          tenantId: session.tenantId,
          originalFilename: file.filename.slice(0, 200) || (xlsx ? 'subscribers.xlsx' : 'subscribers.csv'),
          contentType,
          size: bytes.length,
          service: storage.writer.service,
          storageKey: key,
          uploadedById: session.userId,
          campaignId: campaign.id,
        },
        payload,
      );
      if (!started) {
        await storage.writer.remove(key).catch(() => undefined);
        throw new AppError('subscriber_import_busy', IMPORT_MESSAGES.busy);
      }
      await announceCampaign(ctx, campaign.id);
      reply.status(202);
      return { data: { import_status: 'pending' as const } };
    });
  });
}
