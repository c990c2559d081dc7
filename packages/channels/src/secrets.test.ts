import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEV_CHANNEL_SECRETS_KEY, decryptCredentials, decryptSecret, encryptCredentials, encryptSecret, parseSecretsKey } from './secrets';

const key = randomBytes(32);

describe('channel secrets (AES-256-GCM at rest)', () => {
  it('round-trips a secret, with a fresh IV each time', () => {
    const a = encryptSecret('whsec_ção✓', key);
    const b = encryptSecret('whsec_ção✓', key);
    expect(a).not.toBe(b);
    expect(a).not.toContain('whsec');
    expect(decryptSecret(a, key)).toBe('whsec_ção✓');
    expect(decryptSecret(b, key)).toBe('whsec_ção✓');
  });

  it('round-trips channel credentials as a JSON object', () => {
    const sealed = encryptCredentials({ webhook_secret: 's3cret' }, key);
    expect(decryptCredentials(sealed, key)).toEqual({ webhook_secret: 's3cret' });
  });

  it('refuses a tampered ciphertext', () => {
    const sealed = encryptSecret('secret-value', key);
    const [v, iv, tag, data] = sealed.split('.') as [string, string, string, string];
    const bytes = Buffer.from(data, 'base64url');
    bytes[0] = bytes[0]! ^ 0x01;
    expect(() => decryptSecret([v, iv, tag, bytes.toString('base64url')].join('.'), key)).toThrow(/tampered/);
    const tagBytes = Buffer.from(tag, 'base64url');
    tagBytes[3] = tagBytes[3]! ^ 0x80;
    expect(() => decryptSecret([v, iv, tagBytes.toString('base64url'), data].join('.'), key)).toThrow(/tampered/);
    expect(() => decryptSecret('plain text', key)).toThrow(/Not an encrypted/);
  });

  it('refuses a value encrypted with another key', () => {
    const sealed = encryptSecret('secret-value', randomBytes(32));
    expect(() => decryptSecret(sealed, key)).toThrow();
  });

  it('accepts only 32-byte base64 keys', () => {
    expect(parseSecretsKey(DEV_CHANNEL_SECRETS_KEY)).toHaveLength(32);
    expect(parseSecretsKey(randomBytes(32).toString('base64'))).toHaveLength(32);
    expect(() => parseSecretsKey(randomBytes(16).toString('base64'))).toThrow(/32 bytes/);
    expect(() => parseSecretsKey('not base64 at all!')).toThrow(/32 bytes/);
  });
});
