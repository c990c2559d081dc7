import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
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

/** The AWS SDK is large: a process loads it when it first touches a bucket, not at start-up. */
const loadSdk = () => import('@aws-sdk/client-s3');

/** Keeps file bytes in a bucket of an S3-compatible service, under the same keys as the local driver. */
export class S3Driver implements StorageDriver {
  readonly service = 's3';
  private client: S3Client | null = null;
  private readonly bucket: string;

  constructor(private readonly options: S3DriverOptions) {
    this.bucket = options.bucket;
  }

  private async sdk() {
    const sdk = await loadSdk();
    const options = this.options;
    this.client ??= new sdk.S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle ?? false,
      credentials: options.credentials,
      // The SDK's default (CRC32 trailers on every upload, aws-chunked) is refused by many
      // S3-compatible services; checksums are sent where the operation requires them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    return { sdk, client: this.client };
  }

  async put(key: string, body: StorageBody, meta: { contentType: string; size: number }): Promise<void> {
    const { sdk, client } = await this.sdk();
    await client.send(
      new sdk.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: meta.contentType, ContentLength: meta.size }),
    );
  }

  async get(key: string): Promise<StoredObject | null> {
    const { sdk, client } = await this.sdk();
    try {
      const object = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!(object.Body instanceof Readable)) throw new Error('S3 answered without a readable body');
      return { stream: object.Body, size: object.ContentLength ?? 0 };
    } catch (error) {
      // A missing bucket is a configuration fault, not a missing file.
      if (
        error instanceof sdk.S3ServiceException &&
        error.name !== 'NoSuchBucket' &&
        (error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404)
      )
        return null;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    const { sdk, client } = await this.sdk();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  close(): void {
    this.client?.destroy();
  }
}
