import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { AppError, downloadFile, UPLOAD_ALLOWED_TYPES, UPLOAD_MAX_BYTES, uploadFile, VoiceUploadSchema } from '@atende/contract';
import { scoped } from '@atende/db';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { LocalDiskDriver, type StorageDriver } from './driver';
import { bytesMatchType, safeFilename } from './sniff';

const TOO_BIG = 'Maximum file size exceeded (5 MB)';
const ALLOWED = new Set<string>(UPLOAD_ALLOWED_TYPES);

async function readUpload(request: FastifyRequest): Promise<{ bytes: Buffer; contentType: string; filename: string }> {
  if (request.isMultipart()) {
    let file;
    try {
      file = await request.file();
    } catch {
      throw new AppError('bad_request', 'The multipart body could not be read');
    }
    if (!file || file.fieldname !== 'file') throw new AppError('validation_failed', 'The multipart field "file" is required');
    let bytes: Buffer;
    try {
      bytes = await file.toBuffer();
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('payload_too_large', TOO_BIG);
      throw new AppError('bad_request', 'The file could not be read');
    }
    return { bytes, contentType: file.mimetype.split(';')[0]!.trim().toLowerCase(), filename: safeFilename(file.filename) };
  }
  // Voice notes arrive as JSON with base64 content (spec 000 §7).
  const parsed = VoiceUploadSchema.safeParse(request.body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue?.message === TOO_BIG) throw new AppError('payload_too_large', TOO_BIG);
    throw new AppError('validation_failed', issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'Missing parameters');
  }
  const { file, content_type, filename } = parsed.data;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(file) || file.length % 4 !== 0) throw new AppError('validation_failed', 'file: not valid base64');
  const extension = content_type.split('/')[1] ?? 'bin';
  return { bytes: Buffer.from(file, 'base64'), contentType: content_type, filename: safeFilename(filename, `voice.${extension}`) };
}

/** Uploads and downloads (spec 000 §5, §7): 5 MB, allowed types checked against the bytes, tenant-only. */
export async function storageRoutes(app: FastifyInstance, ctx: AppContext, driver?: StorageDriver): Promise<void> {
  const storage = driver ?? new LocalDiskDriver(ctx.env.STORAGE_DIR ?? fileURLToPath(new URL('../../../storage', import.meta.url)));
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 4, parts: 5 } });
    bind(scope, uploadFile, {}, async ({ session, request }) => ({ data: { data: await store(session, await readUpload(request)) } }));
  });

  async function store(session: Session, upload: { bytes: Buffer; contentType: string; filename: string }) {
    const { bytes, contentType, filename } = upload;
    if (bytes.length === 0) throw new AppError('validation_failed', 'The file is empty');
    if (bytes.length > UPLOAD_MAX_BYTES) throw new AppError('payload_too_large', TOO_BIG);
    if (!ALLOWED.has(contentType)) throw new AppError('unsupported_media_type', `${contentType || 'This type'} is not supported.`);
    if (!bytesMatchType(bytes, contentType)) throw new AppError('unsupported_media_type', `The file's content is not ${contentType}.`);
    const id = randomUUID();
    const key = `${session.tenantId}/${id}`;
    await storage.put(key, bytes);
    const row = await ctx.db.storedFile.create({
      data: { id, tenantId: session.tenantId, originalFilename: filename, contentType, size: bytes.length, service: storage.service, storageKey: key, uploadedById: session.userId },
    });
    return { uuid: row.id, content_type: row.contentType, original_filename: row.originalFilename, uri: `/api/v1/storage/files/${row.id}`, size: row.size };
  }

  bind(app, downloadFile, {}, async ({ session, params, reply }) => {
    const row = await scoped(ctx.db, session).storedFile.findFirst({ where: { id: params.id } });
    if (!row) throw new AppError('not_found', 'File not found');
    const ascii = row.originalFilename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
    reply
      .header('Content-Type', row.contentType)
      .header('Content-Length', String(row.size))
      .header('Content-Disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(row.originalFilename)}`)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, max-age=3600');
    return reply.send(storage.get(row.storageKey));
  });
}
