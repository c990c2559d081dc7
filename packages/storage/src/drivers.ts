import type { StorageSettings } from '@atende/config';
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

/** Storage settings (STORAGE_DRIVER, S3_*...), declared and validated with the other settings in @atende/config. */
export type StorageEnv = StorageSettings;

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
        credentials:
          env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
            ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
            : undefined,
      })
    : null;
  const drivers = new Map<string, StorageDriver>([[local.service, local]]);
  if (s3) drivers.set(s3.service, s3);
  if (env.STORAGE_DRIVER === 's3' && !s3) throw new Error('Invalid configuration:\n  S3_BUCKET: required when STORAGE_DRIVER is s3');
  const writer = env.STORAGE_DRIVER === 's3' && s3 ? s3 : local;
  return { writer, driverFor: (service) => drivers.get(service) ?? null, close: () => s3?.close() };
}
