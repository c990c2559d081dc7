// File storage shared by the api (uploads, downloads) and the worker (media of provider webhooks).
export { defaultStorageDir, LocalDiskDriver, type StorageBody, type StorageDriver, type StoredObject } from './driver';
export { storageFromEnv, type Storage, type StorageEnv } from './drivers';
export { S3Driver, type S3DriverOptions } from './s3-driver';
export { bytesMatchType, safeFilename, sniff } from './sniff';
export { fileTypeRefusal, type FileRefusal } from './file-policy';
