import { randomUUID } from 'node:crypto';
import { verifyFileLink } from '@atende/channels';
import {
  AppError,
  downloadFile,
  downloadSignedFile,
  UPLOAD_ALLOWED_TYPES,
  UPLOAD_MAX_BYTES,
  uploadFile,
  uploadFileFromUrl,
  URL_IMAGE_TYPES,
  VoiceUploadSchema,
} from '@atende/contract';
import { findStoredFile, findStoredFileById, insertStoredFile } from '@atende/db';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bind } from '../../bind';
import { payloadTooLarge } from '../../payload-limit';
import { countInWindow } from '../../rate-window';
import { downloadFromUrl, URL_DOWNLOADS, urlDownloadClient } from './from-url';
import { mayDownload } from './access';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { fileTypeRefusal, safeFilename, storageFromEnv, type Storage } from '@atende/storage';

/**
 * The multipart field "file" of a request, whole, with its declared type and a safe name; a file over
 * `maxBytes` is refused (413), never kept cut at the limit.
 */
export async function readMultipartFile(
  request: FastifyRequest,
  maxBytes: number,
): Promise<{ bytes: Buffer; contentType: string; filename: string }> {
  let file;
  try {
    file = await request.file();
  } catch {
    throw new AppError('multipart_unreadable', 'The multipart body could not be read');
  }
  if (!file || file.fieldname !== 'file') throw new AppError('multipart_file_required', 'The multipart field "file" is required');
  let bytes: Buffer;
  try {
    bytes = await file.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw payloadTooLarge(maxBytes);
    throw new AppError('file_unreadable', 'The file could not be read');
  }
  // The parser stops at the limit and marks the file truncated; when the limit falls exactly at the
  // end of a chunk it says nothing more, and toBuffer hands back the first `maxBytes` bytes as if whole.
  if (file.file.truncated || bytes.length > maxBytes) throw payloadTooLarge(maxBytes);
  return { bytes, contentType: file.mimetype.split(';')[0]!.trim().toLowerCase(), filename: safeFilename(file.filename) };
}

async function readUpload(request: FastifyRequest): Promise<{ bytes: Buffer; contentType: string; filename: string }> {
  if (request.isMultipart()) return readMultipartFile(request, UPLOAD_MAX_BYTES);
  // Voice notes arrive as JSON with base64 content.
  const parsed = VoiceUploadSchema.safeParse(request.body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue?.code === 'too_big' && issue.path[0] === 'file') throw payloadTooLarge(UPLOAD_MAX_BYTES);
    throw new AppError('validation_failed', issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'Missing parameters');
  }
  const { file, content_type, filename } = parsed.data;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(file) || file.length % 4 !== 0) throw new AppError('file_base64_invalid', 'file: not valid base64');
  const extension = content_type.split('/')[1] ?? 'bin';
  return { bytes: Buffer.from(file, 'base64'), contentType: content_type, filename: safeFilename(filename, `voice.${extension}`) };
}

/**
 * Uploads and downloads: 5 MB, allowed types checked against the bytes,
 * tenant-only; and signed, time-limited links for those without a session (channel receivers).
 */
export async function storageRoutes(app: FastifyInstance, ctx: AppContext, storage: Storage = storageFromEnv(ctx.env)): Promise<void> {
  app.addHook('onClose', async () => storage.close());
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 4, parts: 5 } });
    bind(scope, uploadFile, 'signed_in', async ({ session, request }) => ({
      data: { data: await store(session, await readUpload(request)) },
    }));
  });

  // A pasted markdown image: the server downloads it, so the app's pages connect to no other site.
  const urlClient = urlDownloadClient(ctx.env.OUTBOUND_ALLOW_HOSTS);
  bind(app, uploadFileFromUrl, 'signed_in', async ({ session, body }) => {
    const { count, retryAfterSeconds } = await countInWindow(
      ctx.redis,
      `${ctx.env.REDIS_PREFIX}file-from-url:${session.tenantId}:${session.userId}`,
      URL_DOWNLOADS.windowSeconds,
    );
    if (count > URL_DOWNLOADS.limit)
      throw new AppError('remote_file_rate_limited', 'Too many images fetched from addresses, try again in a minute', undefined, {
        retry_after_seconds: retryAfterSeconds,
      });
    return { data: { data: await store(session, await downloadFromUrl(urlClient, body.url, body.alt), URL_IMAGE_TYPES) } };
  });

  /** Keeps one file of the caller's: not empty, within the upload limit, of an `accepted` type its bytes agree with. */
  async function store(
    session: Session,
    upload: { bytes: Buffer; contentType: string; filename: string },
    accepted: readonly string[] = UPLOAD_ALLOWED_TYPES,
  ) {
    const { bytes, contentType, filename } = upload;
    if (bytes.length === 0) throw new AppError('file_empty', 'The file is empty');
    if (bytes.length > UPLOAD_MAX_BYTES) throw payloadTooLarge(UPLOAD_MAX_BYTES);
    const refusal = fileTypeRefusal({ contentType, bytes }, accepted);
    if (refusal?.code === 'file_type_not_allowed')
      throw new AppError('file_type_not_allowed', `${contentType || 'This type'} is not supported.`, undefined, {
        type: contentType || 'This type',
      });
    if (refusal) throw new AppError('file_content_mismatch', `The file's content is not ${contentType}.`, undefined, { type: contentType });
    const id = randomUUID();
    const key = `${session.tenantId}/${id}`;
    const driver = storage.writer;
    await driver.put(key, bytes, { contentType, size: bytes.length });
    let row;
    try {
      row = await insertStoredFile(ctx.db, {
        id,
        tenantId: session.tenantId,
        originalFilename: filename,
        contentType,
        size: bytes.length,
        service: driver.service,
        storageKey: key,
        uploadedById: session.userId,
      });
    } catch (error) {
      // No row, no file: bytes nobody can reach are not kept.
      await driver.remove(key).catch((cleanup: unknown) => ctx.log.warn({ err: cleanup, key }, 'could not remove an orphaned upload'));
      throw error;
    }
    return {
      uuid: row.id,
      content_type: row.contentType,
      original_filename: row.originalFilename,
      uri: `/api/v1/storage/files/${row.id}`,
      size: row.size,
    };
  }

  /** Streams a stored file with its original name and type. */
  async function sendFile(
    reply: FastifyReply,
    row: { id: string; originalFilename: string; contentType: string; service: string; storageKey: string },
  ) {
    const driver = storage.driverFor(row.service);
    if (!driver)
      throw new AppError(
        'storage_not_configured',
        `This file is kept in ${row.service} storage, which this server is not configured for`,
        undefined,
        { service: row.service },
      );
    const object = await driver.get(row.storageKey);
    if (!object) {
      ctx.log.warn({ fileId: row.id, service: row.service }, 'stored file has no object');
      throw new AppError('file_not_found', 'File not found');
    }
    const ascii = row.originalFilename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
    reply
      .header('Content-Type', row.contentType)
      .header('Content-Length', String(object.size))
      .header('Content-Disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(row.originalFilename)}`)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, max-age=3600');
    return reply.send(object.stream);
  }

  // A file is read through what it belongs to (access.ts). One the caller may not read answers the
  // same 404 as a missing one, as the messages route answers for a conversation they may not read.
  bind(app, downloadFile, 'signed_in', async ({ session, params, reply }) => {
    const row = await findStoredFile(ctx.db, session.tenantId, params.id);
    if (!row || !(await mayDownload(ctx.db, session, row))) throw new AppError('file_not_found', 'File not found');
    return sendFile(reply, row);
  });

  // The signature is the permission: it names one file, until `expires`, and only the server can make it.
  bind(app, downloadSignedFile, 'public', async ({ params, query, reply }) => {
    const link = verifyFileLink(ctx.env.FILE_LINK_SECRET, params.id, query.expires, query.signature);
    if (link === 'invalid') throw new AppError('download_link_invalid', 'This download link is not valid');
    if (link === 'expired') throw new AppError('download_link_expired', 'This download link has expired');
    const row = await findStoredFileById(ctx.db, params.id);
    if (!row) throw new AppError('file_not_found', 'File not found');
    return sendFile(reply, row);
  });
}
