import { createHmac, timingSafeEqual } from 'node:crypto';
import { downloadSignedFile } from '@atende/contract';

/**
 * Signed, time-limited download links for stored files: what a channel receiver (a webhook with no
 * session) is given as annex url. The worker signs, the api verifies; both hold FILE_LINK_SECRET.
 */

// The development default of FILE_LINK_SECRET lives with the settings (@atende/config).
export { DEV_FILE_LINK_SECRET } from '@atende/config';
/** How long an annex link stays valid by default (24 h). */
export const FILE_LINK_TTL_SECONDS = 24 * 3600;

/** base64url HMAC-SHA256 of the file id and expiry; the prefix keeps it from meaning anything else. */
export function fileLinkSignature(secret: string, fileId: string, expires: number): string {
  return createHmac('sha256', secret).update(`atende-file-link:v1:${fileId.toLowerCase()}:${expires}`).digest('base64url');
}

/** The path (and query) of a signed download link, valid until `expires` (Unix seconds). */
export function signedFilePath(secret: string, fileId: string, expires: number): string {
  const query = new URLSearchParams({ expires: String(expires), signature: fileLinkSignature(secret, fileId, expires) });
  return `${downloadSignedFile.path.replace(':id', encodeURIComponent(fileId))}?${query.toString()}`;
}

/** An absolute signed link for a receiver, valid for `ttlSeconds` from `now`. */
export function signedFileUrl(options: { publicUrl: string; secret: string; fileId: string; ttlSeconds?: number; now?: number }): string {
  const expires = Math.floor((options.now ?? Date.now()) / 1000) + (options.ttlSeconds ?? FILE_LINK_TTL_SECONDS);
  return `${options.publicUrl.replace(/\/+$/, '')}${signedFilePath(options.secret, options.fileId, expires)}`;
}

/** Whether a link is genuine and still valid. The signature is checked first, in constant time. */
export function verifyFileLink(
  secret: string,
  fileId: string,
  expires: number,
  signature: string,
  now = Date.now(),
): 'valid' | 'invalid' | 'expired' {
  const expected = Buffer.from(fileLinkSignature(secret, fileId, expires));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return expires * 1000 <= now ? 'expired' : 'valid';
}
