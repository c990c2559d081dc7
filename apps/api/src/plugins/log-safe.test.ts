import { describe, expect, it } from 'vitest';
import { logSafeUrl } from './log-safe';

// Secrets out of access logs.
describe('logSafeUrl', () => {
  it('hides the webhook verify token, signed-link signatures and tokens in query strings', () => {
    expect(logSafeUrl('/api/v1/channels/x/webhook?hub.mode=subscribe&hub.verify_token=s3cr3t&hub.challenge=42')).toBe(
      '/api/v1/channels/x/webhook?hub.mode=subscribe&hub.verify_token=%5Bredacted%5D&hub.challenge=42',
    );
    expect(logSafeUrl('/api/v1/storage/files/1/signed?expires=9&signature=abc')).not.toContain('abc');
    expect(logSafeUrl('/socket/?token=eyJhbGci&EIO=4')).not.toContain('eyJhbGci');
  });
  it('leaves other URLs as they are', () => {
    expect(logSafeUrl('/api/v1/users/me')).toBe('/api/v1/users/me');
    expect(logSafeUrl('/api/v2/conversations?_limit=10&state=waiting')).toBe('/api/v2/conversations?_limit=10&state=waiting');
  });
});
