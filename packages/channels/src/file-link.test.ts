import { describe, expect, it } from 'vitest';
import { fileLinkSignature, signedFileUrl, verifyFileLink } from './file-link';

const secret = 'test-file-link-secret-of-enough-length';
const fileId = '7b0f2f43-5a43-4c53-9d0e-6f4f1f1b2a10';
const otherId = '0c4e9b8a-2f1d-4e8b-8a51-3f0c7a1d9e22';
const now = Date.UTC(2026, 0, 1);

describe('signed file links', () => {
  it('builds an absolute link that verifies for its file until it expires (24 h by default)', () => {
    const url = new URL(signedFileUrl({ publicUrl: 'https://atende.example/', secret, fileId, now }));
    expect(url.pathname).toBe(`/api/v1/storage/files/${fileId}/signed`);
    const expires = Number(url.searchParams.get('expires'));
    expect(expires).toBe(now / 1000 + 24 * 3600);
    const signature = url.searchParams.get('signature')!;
    expect(verifyFileLink(secret, fileId, expires, signature, now)).toBe('valid');
    expect(verifyFileLink(secret, fileId, expires, signature, expires * 1000)).toBe('expired');
  });

  it('refuses a link for another file, another expiry, another secret or an altered signature', () => {
    const expires = now / 1000 + 60;
    const signature = fileLinkSignature(secret, fileId, expires);
    expect(verifyFileLink(secret, otherId, expires, signature, now)).toBe('invalid');
    expect(verifyFileLink(secret, fileId, expires + 3600, signature, now)).toBe('invalid');
    expect(verifyFileLink('another-secret-of-enough-length-xxxxx', fileId, expires, signature, now)).toBe('invalid');
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    expect(verifyFileLink(secret, fileId, expires, flipped, now)).toBe('invalid');
    expect(verifyFileLink(secret, fileId, expires, signature.slice(1), now)).toBe('invalid');
    expect(verifyFileLink(secret, fileId, expires, '', now)).toBe('invalid');
  });
});
