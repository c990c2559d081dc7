import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { StorageBody, StorageDriver, StoredObject } from './driver';

export interface S3DriverOptions {
  bucket: string;
  region: string;
  /** An S3-compatible service's address (MinIO, R2, ...); unset for AWS S3. */
  endpoint?: string;
  forcePathStyle?: boolean;
  /** Without them the SDK's default credential chain applies (environment, profile, IAM role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** Keeps file bytes in a bucket of an S3-compatible service, under the same keys as the local driver. */
export class S3Driver implements StorageDriver {
  readonly service = 's3';
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(options: S3DriverOptions) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle ?? false,
      credentials: options.credentials,
      // The SDK's default (CRC32 trailers on every upload, aws-chunked) is refused by many
      // S3-compatible services; checksums are sent where the operation requires them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: StorageBody, meta: { contentType: string; size: number }): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: meta.contentType, ContentLength: meta.size }));
  }

  async get(key: string): Promise<StoredObject | null> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!(object.Body instanceof Readable)) throw new Error('S3 answered without a readable body');
      return { stream: object.Body, size: object.ContentLength ?? 0 };
    } catch (error) {
      // A missing bucket is a configuration fault, not a missing file.
      if (error instanceof S3ServiceException && error.name !== 'NoSuchBucket' && (error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404)) return null;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  close(): void {
    this.client.destroy();
  }
}
