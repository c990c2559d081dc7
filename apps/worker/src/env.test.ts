import { describe, expect, it } from 'vitest';
import { loadEnv } from './env';

// The worker puts PUBLIC_URL into Twilio's StatusCallback and into the file links it
// sends to channels. It once defaulted to http://localhost:3000 whatever port the api served, so
// delivery reports and media went to another server; now both apps share one default.
describe('the worker settings', () => {
  it('derives PUBLIC_URL from the api port when unset: PORT=3400 gives http://localhost:3400, as the api computes', () => {
    expect(loadEnv({ PORT: '3400' }).PUBLIC_URL).toBe('http://localhost:3400');
    expect(loadEnv({ PORT: '3400', PUBLIC_URL: 'https://atende.example.com/' }).PUBLIC_URL).toBe('https://atende.example.com');
  });

  it('refuses to start in production without PUBLIC_URL, naming the variable', () => {
    const production = {
      NODE_ENV: 'production',
      CHANNEL_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
      FILE_LINK_SECRET: 'a-production-file-link-secret-of-32-characters',
    };
    expect(() => loadEnv(production)).toThrow(/PUBLIC_URL: must be set in production/);
    expect(loadEnv({ ...production, PUBLIC_URL: 'https://atende.example.com' }).PUBLIC_URL).toBe('https://atende.example.com');
  });
});
