import { z } from 'zod';
import { defaultStorageDir, LocalDiskDriver, type StorageDriver } from './driver';
import { S3Driver } from './s3-driver';

/** The drivers of this process: one keeps new uploads, each reads back the files it kept. */
export interface Storage {
  /** The driver STORAGE_DRIVER names: where new uploads go. */
  writer: StorageDriver;
  /** The driver of a StoredFile row's `service`, or null when this api is not configured for it. */
  driverFor(service: string): StorageDriver | null;
  close(): void;
}

/** Storage settings, read by the api and the worker alike (both write files). */
export const StorageEnvSchema = z.object({
  /** Where uploaded files are kept (local disk storage driver). */
  STORAGE_DIR: z.string().optional(),
  /** Which storage driver keeps new uploads: local disk, or an S3-compatible service (S3_*). */
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  /** S3-compatible endpoint (MinIO, R2, ...); unset for AWS S3 itself. */
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z.string().min(1).optional(),
  /** Both or neither: without them the AWS SDK's default credential chain (IAM role, profile) applies. */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Bucket in the path (http://host/bucket/key) rather than the host name: MinIO and most self-hosted services. */
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
});
export type StorageEnv = z.infer<typeof StorageEnvSchema>;

/** The settings' cross-field rules, for the env schema that includes StorageEnvSchema's fields. */
export function refineStorageEnv(env: StorageEnv, ctx: z.RefinementCtx): void {
  if (env.STORAGE_DRIVER === 's3' && !env.S3_BUCKET) ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'required when STORAGE_DRIVER is s3' });
  if (!env.S3_ACCESS_KEY_ID !== !env.S3_SECRET_ACCESS_KEY) {
    ctx.addIssue({ code: 'custom', path: ['S3_SECRET_ACCESS_KEY'], message: 'set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither' });
  }
}

/**
 * Local disk is always readable (files uploaded before a switch to S3 stay downloadable); S3 is
 * there when a bucket is configured.
 */
export function storageFromEnv(env: StorageEnv): Storage {
  const local = new LocalDiskDriver(env.STORAGE_DIR ?? defaultStorageDir());
  const s3 = env.S3_BUCKET
    ? new S3Driver({
        bucket: env.S3_BUCKET,
        region: env.S3_REGION,
        endpoint: env.S3_ENDPOINT,
        forcePathStyle: env.S3_FORCE_PATH_STYLE,
        credentials: env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY } : undefined,
      })
    : null;
  const drivers = new Map<string, StorageDriver>([[local.service, local]]);
  if (s3) drivers.set(s3.service, s3);
  if (env.STORAGE_DRIVER === 's3' && !s3) throw new Error('Invalid configuration:\n  S3_BUCKET: required when STORAGE_DRIVER is s3');
  const writer = env.STORAGE_DRIVER === 's3' && s3 ? s3 : local;
  return { writer, driverFor: (service) => drivers.get(service) ?? null, close: () => s3?.close() };
}
