import { randomUUID } from 'node:crypto';
import {
  AppError, deleteSubscriber, downloadSubscribersTemplate, importSubscribers, listSubscribers, queues, resendUnknownSubscribers, SUBSCRIBER_IMPORT_ERRORS, SUBSCRIBERS_FILE_MAX_BYTES, updateSubscriber, type Subscriber,
  type SubscriberImportJob,
  DELIVERY_STATES,
} from '@atende/contract';
import { Readable } from 'node:stream';
import {
  announceCampaign, openSubscriberFile, presentTemplate, SubscriberFileError, sniffSubscriberFile, subscriberTemplateCsv, subscriberTemplateXlsx, templateInclude,
} from '@atende/conversations';
import { missingParameter, templateParameterCount, templateParameterNames } from '@atende/core';
import { enqueue, releaseUnknownSubscribers, type Prisma } from '@atende/db';
import type { Storage } from '@atende/storage';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { bind, type Access } from '../../bind';
import type { AppContext } from '../../context';
import { readMultipartFile } from '../storage/routes';
import type { CampaignService } from './service';
import { pageWindow } from '../../paging';

export const IMPORT_MESSAGES = {
  notCsv: 'File parameter must be a csv file',
  columns: SUBSCRIBER_IMPORT_ERRORS.columns,
  templateDeleted: 'Não é possível importar assinantes para uma campanha que teve seu template deletado',
  busy: 'An import is already in progress for this campaign',
  onlyPending: 'Only subscribers with pending state can be deleted',
  notEditable: 'Only pending, error or completed subscribers can be edited',
} as const;

const CSV_TYPES = new Set(['text/csv', 'application/csv', 'text/comma-separated-values']);
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Types browsers give a .csv or .xlsx on machines that know no better (Windows with Excel says vnd.ms-excel for .csv). */
const VAGUE_TYPES = new Set(['application/vnd.ms-excel', 'application/octet-stream', '']);
const isSubscriberFile = (type: string, filename: string) =>
  CSV_TYPES.has(type) || type === XLSX_TYPE || (/\.(csv|xlsx)$/i.test(filename) && VAGUE_TYPES.has(type));
/** Of a CSV the header is in its first bytes; an .xlsx is read up to its header row. */
const HEADER_BYTES = 64 * 1024;
const EDITABLE = new Set(['pending', 'error', 'completed']);

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

type SubscriberRow = Prisma.CampaignSubscriberGetPayload<object>;
const present = (s: SubscriberRow): Subscriber => ({
  uuid: s.id,
  contact: { uuid: s.contactId ?? s.id, name: s.name, phone_number: s.phoneNumber },
  state: s.state as Subscriber['state'],
  parameters: s.parameters,
  error_message: s.errorMessage,
  sent_at: s.sentAt?.toISOString() ?? null,
  delivery: (DELIVERY_STATES as readonly string[]).includes(s.delivery ?? '') ? (s.delivery as Subscriber['delivery']) : null,
  delivered_at: s.deliveredAt?.toISOString() ?? null,
  read_at: s.readAt?.toISOString() ?? null,
  replied_at: s.repliedAt?.toISOString() ?? null,
});

/** Spec 001 §2, §4, §5, §7: a campaign's subscribers, their import and its template file. */
export async function subscriberRoutes(app: FastifyInstance, ctx: AppContext, campaigns: CampaignService, storage: Storage, access: Access): Promise<void> {
  const findSubscriber = async (tenantId: string, campaignId: string, id: string) => {
    const row = await ctx.db.campaignSubscriber.findFirst({ where: { tenantId, campaignId, OR: [{ contactId: id }, { id }] } });
    if (!row) throw new AppError('not_found', 'Subscriber not found');
    return row;
  };

  bind(app, listSubscribers, access, async ({ session, params, query }) => {
    await campaigns.row(session, params.id);
    const states = query.states ?? query['states[]'];
    const where: Prisma.CampaignSubscriberWhereInput = { tenantId: session.tenantId, campaignId: params.id, ...(states?.length ? { state: { in: states } } : {}) };
    const [rows, total] = await Promise.all([
      ctx.db.campaignSubscriber.findMany({ where, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], ...pageWindow(query) }),
      ctx.db.campaignSubscriber.count({ where }),
    ]);
    return { data: rows.map(present), pagination: { total, limit: query._limit, offset: query._offset } };
  });

  bind(app, updateSubscriber, access, async ({ session, params, body }) => {
    await campaigns.row(session, params.id);
    const row = await findSubscriber(session.tenantId, params.id, params.contact);
    if (!EDITABLE.has(row.state)) throw new AppError('unprocessable', IMPORT_MESSAGES.notEditable);
    if (!EDITABLE.has(body.state)) throw new AppError('validation_failed', IMPORT_MESSAGES.notEditable, [{ path: 'state', message: IMPORT_MESSAGES.notEditable }]);
    if (body.state === 'pending' && row.state !== 'pending') {
      // Issue 14 item 6: a subscriber who got the campaign is never queued again (the provider would
      // take the same idempotency key as a send already made), and one back from an error must now
      // have every parameter the template needs.
      if (row.sentAt || row.state === 'completed') throw new AppError('subscriber_already_sent', 'This subscriber already received the campaign: it cannot be sent it again');
      const campaign = await campaigns.row(session, params.id);
      const template = await ctx.db.outboundTemplate.findUniqueOrThrow({ where: { id: campaign.templateId }, include: templateInclude });
      const missing = missingParameter(row.parameters, templateParameterCount(presentTemplate(template).config.components));
      if (missing !== null) throw new AppError('subscriber_parameter_missing', `Parameter ${missing} is required`, [{ path: 'parameters', message: `Parameter ${missing} is required` }], { n: missing });
    }
    // Only a row still in the state read is changed: a sender that took it meanwhile wins.
    const changed = await ctx.db.campaignSubscriber.updateMany({ where: { id: row.id, state: row.state }, data: { state: body.state, ...(body.state === 'pending' ? { errorMessage: null } : {}) } });
    if (changed.count === 0) throw new AppError('conflict', 'The subscriber changed meanwhile; reload and try again');
    await announceCampaign(ctx, params.id);
    return { data: present(await ctx.db.campaignSubscriber.findUniqueOrThrow({ where: { id: row.id } })) };
  });

  bind(app, resendUnknownSubscribers, access, async ({ session, params }) => {
    await campaigns.row(session, params.id);
    // The dispatcher never sends an 'unknown' subscriber again by itself (the
    // provider would make a repeat a second message); the manager, warned by the screen, may.
    const resent = await releaseUnknownSubscribers(ctx.db, session.tenantId, params.id);
    if (resent > 0) await announceCampaign(ctx, params.id);
    return { data: { resent } };
  });

  bind(app, deleteSubscriber, access, async ({ session, params }) => {
    await campaigns.row(session, params.id);
    const row = await findSubscriber(session.tenantId, params.id, params.contact);
    const removed = await ctx.db.campaignSubscriber.deleteMany({ where: { id: row.id, state: 'pending' } });
    if (removed.count === 0) throw new AppError('unprocessable', IMPORT_MESSAGES.onlyPending);
    await announceCampaign(ctx, params.id);
    return { data: { ok: true as const } };
  });

  bind(app, downloadSubscribersTemplate, access, async ({ session, params, request, reply }) => {
    const campaign = await campaigns.row(session, params.id);
    const template = presentTemplate(await ctx.db.outboundTemplate.findUniqueOrThrow({ where: { id: campaign.templateId }, include: templateInclude }));
    const names = templateParameterNames(template.config.components);
    const language = /^pt\b/i.test(String(request.headers['accept-language'] ?? '')) ? 'pt' : 'en';
    const base = `subscribers-${campaign.name.replace(/[^\w-]+/g, '_').slice(0, 40) || 'campaign'}`;
    const accept = String(request.headers.accept ?? '');
    if (/excel|spreadsheet/.test(accept)) {
      const bytes = await subscriberTemplateXlsx(names, language);
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', `attachment; filename="${base}.xlsx"`)
        .send(bytes);
    }
    return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${base}.csv"`).send(subscriberTemplateCsv(names, language));
  });

  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: SUBSCRIBERS_FILE_MAX_BYTES, files: 1, fields: 2, parts: 3 } });
    bind(scope, importSubscribers, access, async ({ session, params, request, reply }) => {
      const campaign = await campaigns.row(session, params.id);
      if (campaign.template.deletedAt) throw new AppError('unprocessable', IMPORT_MESSAGES.templateDeleted);
      if (campaign.importStatus === 'pending' || campaign.importStatus === 'in_progress') throw new AppError('conflict', IMPORT_MESSAGES.busy);
      if (!request.isMultipart()) throw new AppError('validation_failed', IMPORT_MESSAGES.notCsv);
      const file = await readMultipartFile(request, SUBSCRIBERS_FILE_MAX_BYTES);
      if (!isSubscriberFile(file.contentType, file.filename)) throw new AppError('unsupported_media_type', IMPORT_MESSAGES.notCsv);
      const bytes = file.bytes;
      const xlsx = sniffSubscriberFile(bytes).kind === 'xlsx';
      const contentType = xlsx ? XLSX_TYPE : 'text/csv';
      const columns = await headerOf(bytes, xlsx);
      if (!columns.includes('name') || !columns.includes('phone')) throw new AppError('validation_failed', IMPORT_MESSAGES.columns);
      const id = randomUUID();
      const key = `${session.tenantId}/${id}`;
      await storage.writer.put(key, bytes, { contentType, size: bytes.length });
      const payload: SubscriberImportJob = { tenant_uuid: session.tenantId, campaign_uuid: campaign.id, file_uuid: id };
      // The file, the task and its job together: the worker picks it up once committed.
      const started = await ctx.db.$transaction(async (tx) => {
        const claimed = await tx.campaign.updateMany({
          where: { id: campaign.id, OR: [{ importStatus: null }, { importStatus: 'done' }] },
          data: { importStatus: 'pending', importSummary: { imported: 0, ignored: 0, imported_with_error: 0 } },
        });
        if (claimed.count === 0) return false;
        await tx.storedFile.create({
          data: { id, tenantId: session.tenantId, originalFilename: file.filename.slice(0, 200) || (xlsx ? 'subscribers.xlsx' : 'subscribers.csv'), contentType, size: bytes.length, service: storage.writer.service, storageKey: key, uploadedById: session.userId, campaignId: campaign.id },
        });
        await enqueue(tx, queues.subscriberImport.name, payload);
        return true;
      });
      if (!started) {
        await storage.writer.remove(key).catch(() => undefined);
        throw new AppError('conflict', IMPORT_MESSAGES.busy);
      }
      await announceCampaign(ctx, campaign.id);
      reply.status(202);
      return { data: { import_status: 'pending' as const } };
    });
  });
}
