import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { verifyFileLink, type OutboundClient } from '@atende/channels';
import {
  AppError,
  UPLOAD_ALLOWED_TYPES,
  UPLOAD_MAX_BYTES,
  URL_IMAGE_TYPES,
  type BodyOf,
  type downloadSignedFile,
  type QueryOf,
  type uploadFileFromUrl,
} from '@atende/contract';
import { findStoredFile, findStoredFileById, insertStoredFile } from '@atende/db';
import { fileTypeRefusal, type Storage } from '@atende/storage';
import type { AppContext } from '../../context';
import { payloadTooLarge } from '../../payload-limit';
import { countInWindow } from '../../rate-window';
import type { Session } from '../session/session';
import { mayDownload } from './access';
import { downloadFromUrl, URL_DOWNLOADS, urlDownloadClient } from './from-url';

/** A file as a request hands it over: its bytes, declared type and a safe name. */
export interface Upload {
  bytes: Buffer;
  contentType: string;
  filename: string;
}

/** A kept file as the upload routes answer it. */
export interface StoredFileRef {
  uuid: string;
  content_type: string;
  original_filename: string;
  uri: string;
  size: number;
}

/** A stored file opened for reading: its bytes as a stream, with what a download names it by. */
export interface OpenedFile {
  stream: Readable;
  size: number;
  contentType: string;
  originalFilename: string;
}

/**
 * Uploads and downloads: 5 MB, allowed types checked against the bytes,
 * tenant-only; and signed, time-limited links for those without a session (channel receivers).
 */
export class StorageService {
  private readonly urlClient: OutboundClient;

  constructor(
    private readonly ctx: AppContext,
    private readonly storage: Storage,
  ) {
    this.urlClient = urlDownloadClient(ctx.env.OUTBOUND_ALLOW_HOSTS);
  }

  /** Keeps one file of the caller's: not empty, within the upload limit, of an `accepted` type its bytes agree with. */
  async store(session: Session, upload: Upload, accepted: readonly string[] = UPLOAD_ALLOWED_TYPES): Promise<StoredFileRef> {
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
    const driver = this.storage.writer;
    await driver.put(key, bytes, { contentType, size: bytes.length });
    let row;
    try {
      row = await insertStoredFile(this.ctx.db, {
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
      await driver.remove(key).catch((cleanup: unknown) => this.ctx.log.warn({ err: cleanup, key }, 'could not remove an orphaned upload'));
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

  /**
   * A pasted markdown image: the server downloads it, so the app's pages connect to no other site.
   * Each user fetches at most URL_DOWNLOADS.limit addresses a window.
   */
  async storeFromUrl(session: Session, body: BodyOf<typeof uploadFileFromUrl>): Promise<StoredFileRef> {
    const { count, retryAfterSeconds } = await countInWindow(
      this.ctx.redis,
      `${this.ctx.env.REDIS_PREFIX}file-from-url:${session.tenantId}:${session.userId}`,
      URL_DOWNLOADS.windowSeconds,
    );
    if (count > URL_DOWNLOADS.limit)
      throw new AppError('remote_file_rate_limited', 'Too many images fetched from addresses, try again in a minute', undefined, {
        retry_after_seconds: retryAfterSeconds,
      });
    return this.store(session, await downloadFromUrl(this.urlClient, body.url, body.alt), URL_IMAGE_TYPES);
  }

  /**
   * A file of the caller's tenant, read through what it belongs to (access.ts). One the caller may
   * not read answers the same 404 as a missing one, as the messages route answers for a conversation
   * they may not read.
   */
  async open(session: Session, id: string): Promise<OpenedFile> {
    const row = await findStoredFile(this.ctx.db, session.tenantId, id);
    if (!row || !(await mayDownload(this.ctx.db, session, row))) throw new AppError('file_not_found', 'File not found');
    return this.read(row);
  }

  /** The signature is the permission: it names one file, until `expires`, and only the server can make it. */
  async openSigned(id: string, query: QueryOf<typeof downloadSignedFile>): Promise<OpenedFile> {
    const link = verifyFileLink(this.ctx.env.FILE_LINK_SECRET, id, query.expires, query.signature);
    if (link === 'invalid') throw new AppError('download_link_invalid', 'This download link is not valid');
    if (link === 'expired') throw new AppError('download_link_expired', 'This download link has expired');
    const row = await findStoredFileById(this.ctx.db, id);
    if (!row) throw new AppError('file_not_found', 'File not found');
    return this.read(row);
  }

  /** A stored file's bytes, from the driver that kept them. */
  private async read(row: {
    id: string;
    originalFilename: string;
    contentType: string;
    service: string;
    storageKey: string;
  }): Promise<OpenedFile> {
    const driver = this.storage.driverFor(row.service);
    if (!driver)
      throw new AppError(
        'storage_not_configured',
        `This file is kept in ${row.service} storage, which this server is not configured for`,
        undefined,
        { service: row.service },
      );
    const object = await driver.get(row.storageKey);
    if (!object) {
      this.ctx.log.warn({ fileId: row.id, service: row.service }, 'stored file has no object');
      throw new AppError('file_not_found', 'File not found');
    }
    return { stream: object.stream, size: object.size, contentType: row.contentType, originalFilename: row.originalFilename };
  }
}
