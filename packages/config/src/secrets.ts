/**
 * The development defaults of the secrets both processes hold, and the check of the channel key.
 * Production refuses each default (see settings.ts); channels encrypts and signs with the values.
 */

/** Development-only key for channel credentials at rest (32 bytes, base64). */
export const DEV_CHANNEL_SECRETS_KEY = Buffer.from('atende-dev-only-channel-secrets!').toString('base64');

/** Development-only secret of the signed file links given to channel receivers. */
export const DEV_FILE_LINK_SECRET = 'dev-only-file-link-secret-change-me-dev-only';

/** Decodes a base64 key and checks it is 32 bytes; throws with a readable message otherwise. */
export function parseSecretsKey(base64: string): Buffer {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== 32 || key.toString('base64') !== base64.replace(/\s/g, '')) {
    throw new Error('CHANNEL_SECRETS_KEY must be 32 bytes encoded in base64 (e.g. `openssl rand -base64 32`)');
  }
  return key;
}
