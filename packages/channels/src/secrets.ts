import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// The key's development default and its check belong to the settings (@atende/config).
export { DEV_CHANNEL_SECRETS_KEY, parseSecretsKey } from '@atende/config';

/**
 * Channel secrets (webhook secrets, provider tokens) are stored encrypted at rest in
 * Channel.credentialsEncrypted with AES-256-GCM: a stolen database dump alone does not reveal them,
 * and a modified ciphertext is refused rather than decrypted to garbage.
 *
 * Format: `v1.<iv>.<tag>.<ciphertext>`, each part base64url. The key is 32 bytes, given base64 in
 * CHANNEL_SECRETS_KEY to every process that reads or writes channel credentials (api and worker).
 */

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function encryptSecret(plaintext: string, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join('.');
}

/** Throws when the value is malformed, was encrypted with another key or was tampered with. */
export function decryptSecret(sealed: string, key: Buffer): string {
  const parts = sealed.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new Error('Not an encrypted channel secret');
  const [, ivPart, tagPart, dataPart] = parts as [string, string, string, string];
  const iv = Buffer.from(ivPart, 'base64url');
  const tag = Buffer.from(tagPart, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error('Not an encrypted channel secret');
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(Buffer.from(dataPart, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('Channel secret could not be decrypted (wrong key or tampered value)');
  }
}

/** Channel credentials are a JSON object (custom channel: {webhook_secret}) encrypted as a whole. */
export function encryptCredentials(credentials: Record<string, unknown>, key: Buffer): string {
  return encryptSecret(JSON.stringify(credentials), key);
}

export function decryptCredentials(sealed: string, key: Buffer): Record<string, unknown> {
  const value: unknown = JSON.parse(decryptSecret(sealed, key));
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('Channel credentials are not an object');
  return value as Record<string, unknown>;
}
