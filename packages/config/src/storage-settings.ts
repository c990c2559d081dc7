import { z } from 'zod';

/** Where files are kept (uploads, media of contacts' messages): read by the api and the worker alike. */
export const STORAGE_SETTINGS = {
  STORAGE_DIR: z
    .string()
    .optional()
    .describe('Directory of the local disk storage driver. Unset: the storage directory at the repository root.'),
  STORAGE_DRIVER: z
    .enum(['local', 's3'])
    .default('local')
    .describe(
      'Which driver keeps new uploads: local disk, or an S3-compatible service (S3_*). Files kept on disk stay readable after a switch.',
    ),
  S3_ENDPOINT: z.string().url().optional().describe('S3-compatible endpoint (MinIO, R2, ...); unset for AWS S3 itself.'),
  S3_REGION: z.string().min(1).default('us-east-1').describe('Region of the S3 bucket.'),
  S3_BUCKET: z.string().min(1).optional().describe('The S3 bucket; required when STORAGE_DRIVER is s3.'),
  S3_ACCESS_KEY_ID: z
    .string()
    .min(1)
    .optional()
    .describe('S3 access key; set both keys or neither (then the AWS default credential chain applies).'),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional().describe('S3 secret key; set both keys or neither.'),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .describe('Bucket in the path (http://host/bucket/key) rather than the host name: MinIO and most self-hosted services.'),
};

export const StorageSettingsSchema = z.object(STORAGE_SETTINGS);
/** The storage settings as parsed: what storageFromEnv takes. */
export type StorageSettings = z.infer<typeof StorageSettingsSchema>;

/** The storage settings' cross-field rules, for an env schema that includes STORAGE_SETTINGS. */
export function refineStorageSettings(env: StorageSettings, ctx: z.RefinementCtx): void {
  if (env.STORAGE_DRIVER === 's3' && !env.S3_BUCKET)
    ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'required when STORAGE_DRIVER is s3' });
  if (!env.S3_ACCESS_KEY_ID !== !env.S3_SECRET_ACCESS_KEY) {
    ctx.addIssue({
      code: 'custom',
      path: ['S3_SECRET_ACCESS_KEY'],
      message: 'set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither',
    });
  }
}
