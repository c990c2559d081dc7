import { describe, expect, it } from 'vitest';
import { loadEnv } from './env';

// One public address. The api and the worker read PUBLIC_URL from one shared module
// (packages/config); apps/worker/src/env.test.ts holds the worker's half of each case.
describe('the api settings', () => {
  it('derives PUBLIC_URL from the port it serves when unset: PORT=3400 gives http://localhost:3400, as the worker computes', () => {
    expect(loadEnv({ PORT: '3400' }).PUBLIC_URL).toBe('http://localhost:3400');
    expect(loadEnv({}).PUBLIC_URL).toBe('http://localhost:3000');
    expect(loadEnv({ PORT: '3400', PUBLIC_URL: 'https://atende.example.com/' }).PUBLIC_URL).toBe('https://atende.example.com');
  });

  it('refuses to start in production without PUBLIC_URL, naming the variable', () => {
    const production = {
      NODE_ENV: 'production',
      JWT_SECRET: 'a-production-jwt-secret-of-at-least-32-characters',
      LIVECHAT_TOKEN_SECRET: 'a-production-livechat-secret-of-32-characters',
      CHANNEL_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
      FILE_LINK_SECRET: 'a-production-file-link-secret-of-32-characters',
    };
    expect(() => loadEnv(production)).toThrow(/PUBLIC_URL: must be set in production/);
    expect(() => loadEnv({ ...production, PUBLIC_URL: '' })).toThrow(/PUBLIC_URL: must be set in production/);
    expect(loadEnv({ ...production, PUBLIC_URL: 'https://atende.example.com' }).PUBLIC_URL).toBe('https://atende.example.com');
    expect(() => loadEnv({ ...production, PUBLIC_URL: 'ftp://atende.example.com' })).toThrow(/PUBLIC_URL: must be an http\(s\) address/);
  });

  it('refuses to start in production with the development session or livechat secret, naming each', () => {
    const production = {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://atende.example.com',
      CHANNEL_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
      FILE_LINK_SECRET: 'a-production-file-link-secret-of-32-characters',
    };
    expect(() => loadEnv(production)).toThrow(
      /JWT_SECRET: must be set in production\n {2}LIVECHAT_TOKEN_SECRET: must be set in production/,
    );
    const secrets = {
      JWT_SECRET: 'a-production-jwt-secret-of-at-least-32-characters',
      LIVECHAT_TOKEN_SECRET: 'a-production-livechat-secret-of-32-characters',
    };
    expect(() => loadEnv({ ...production, ...secrets, JWT_SECRET: 'dev-only-secret-but-not-the-default-one' })).toThrow(
      /JWT_SECRET: must be set in production/,
    );
    expect(loadEnv({ ...production, ...secrets }).JWT_SECRET).toBe(secrets.JWT_SECRET);
  });

  it('allows browser origins and names the QR domain from the served address, not a fixed localhost:3000', () => {
    const local = loadEnv({ PORT: '3400' });
    expect(local.ALLOWED_ORIGINS).toBe('http://localhost:3400');
    expect(local.TENANT_DOMAIN).toBe('localhost:3400');
    const served = loadEnv({ PUBLIC_URL: 'https://atende.example.com/base' });
    expect(served.ALLOWED_ORIGINS).toBe('https://atende.example.com');
    expect(served.TENANT_DOMAIN).toBe('atende.example.com');
    expect(loadEnv({ ALLOWED_ORIGINS: 'https://a.example,https://b.example' }).ALLOWED_ORIGINS).toBe('https://a.example,https://b.example');
    // docker-compose passes unset variables as empty strings: those take the defaults too.
    const compose = loadEnv({ PUBLIC_URL: 'https://atende.example.com', ALLOWED_ORIGINS: '', TENANT_DOMAIN: '' });
    expect([compose.ALLOWED_ORIGINS, compose.TENANT_DOMAIN]).toEqual(['https://atende.example.com', 'atende.example.com']);
  });

  it('makes cookies Secure (and HSTS) whenever PUBLIC_URL is https; COOKIE_SECURE may still force it', () => {
    expect(loadEnv({ PUBLIC_URL: 'https://atende.example.com' }).COOKIE_SECURE).toBe(true);
    expect(loadEnv({ PUBLIC_URL: 'https://atende.example.com', COOKIE_SECURE: 'false' }).COOKIE_SECURE).toBe(true);
    expect(loadEnv({ PUBLIC_URL: 'http://10.0.0.5:3000' }).COOKIE_SECURE).toBe(false);
    expect(loadEnv({ PUBLIC_URL: 'http://10.0.0.5:3000', COOKIE_SECURE: 'true' }).COOKIE_SECURE).toBe(true);
  });
});
