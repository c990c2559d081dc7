import {
  AppError,
  downloadFile,
  downloadSignedFile,
  UPLOAD_MAX_BYTES,
  uploadFile,
  uploadFileFromUrl,
  VoiceUploadSchema,
} from '@atende/contract';
import multipart from '@fastify/multipart';
import { safeFilename, storageFromEnv, type Storage } from '@atende/storage';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import { payloadTooLarge } from '../../payload-limit';
import { zodIssueField } from '../../plugins/errors';
import { StorageService, type OpenedFile, type Upload } from './service';

/**
 * The multipart field "file" of a request, whole, with its declared type and a safe name; a file over
 * `maxBytes` is refused (413), never kept cut at the limit.
 */
export async function readMultipartFile(request: FastifyRequest, maxBytes: number): Promise<Upload> {
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

async function readUpload(request: FastifyRequest): Promise<Upload> {
  if (request.isMultipart()) return readMultipartFile(request, UPLOAD_MAX_BYTES);
  // Voice notes arrive as JSON with base64 content.
  const parsed = VoiceUploadSchema.safeParse(request.body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue?.code === 'too_big' && issue.path[0] === 'file') throw payloadTooLarge(UPLOAD_MAX_BYTES);
    throw new AppError(
      'validation_failed',
      issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'Missing parameters',
      issue ? [zodIssueField(issue)] : undefined,
    );
  }
  const { file, content_type, filename } = parsed.data;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(file) || file.length % 4 !== 0) throw new AppError('file_base64_invalid', 'file: not valid base64');
  const extension = content_type.split('/')[1] ?? 'bin';
  return { bytes: Buffer.from(file, 'base64'), contentType: content_type, filename: safeFilename(filename, `voice.${extension}`) };
}

/** Sends an opened file as an attachment, with its original name and type. */
function sendFile(reply: FastifyReply, file: OpenedFile) {
  const ascii = file.originalFilename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  reply
    .header('Content-Type', file.contentType)
    .header('Content-Length', String(file.size))
    .header('Content-Disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.originalFilename)}`)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'private, max-age=3600');
  return reply.send(file.stream);
}

/**
 * Uploads and downloads: 5 MB, allowed types checked against the bytes,
 * tenant-only; and signed, time-limited links for those without a session (channel receivers).
 */
export async function storageRoutes(app: FastifyInstance, ctx: AppContext, storage: Storage = storageFromEnv(ctx.env)): Promise<void> {
  const files = new StorageService(ctx, storage);
  app.addHook('onClose', async () => storage.close());
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 4, parts: 5 } });
    bind(scope, uploadFile, 'signed_in', async ({ session, request }) => ({
      data: { data: await files.store(session, await readUpload(request)) },
    }));
  });

  bind(app, uploadFileFromUrl, 'signed_in', async ({ session, body }) => ({ data: { data: await files.storeFromUrl(session, body) } }));

  bind(app, downloadFile, 'signed_in', async ({ session, params, reply }) => sendFile(reply, await files.open(session, params.id)));

  bind(app, downloadSignedFile, 'public', async ({ params, query, reply }) => sendFile(reply, await files.openSigned(params.id, query)));
}
