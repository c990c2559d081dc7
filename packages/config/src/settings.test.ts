import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { renderEnvExample } from './env-example';
import { DEV_CHANNEL_SECRETS_KEY } from './secrets';
import { defaultOf, parseSettings, readSharedSettings, settingsGroup, settingsSchema } from './settings';

const schema = settingsSchema(
  settingsGroup(
    { APP_SECRET: z.string().min(32).default('dev-only-app-secret-of-at-least-32-chars').describe('Signs things.') },
    { APP_SECRET: 'must be set in production' },
  ),
);
const production = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://atende.example.com',
  CHANNEL_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
  FILE_LINK_SECRET: 'a-production-file-link-secret-of-32-characters',
  APP_SECRET: 'a-production-app-secret-of-at-least-32-characters',
};

describe('the shared settings', () => {
  it('refuses in production every required variable left unset or holding a development value, naming each', () => {
    expect(parseSettings(schema, production).APP_SECRET).toBe(production.APP_SECRET);
    expect(() => parseSettings(schema, { ...production, APP_SECRET: undefined })).toThrow(/APP_SECRET: must be set in production/);
    expect(() => parseSettings(schema, { ...production, APP_SECRET: 'dev-only-something-else-of-32-characters' })).toThrow(
      /APP_SECRET: must be set in production/,
    );
    expect(() =>
      parseSettings(schema, { ...production, CHANNEL_SECRETS_KEY: DEV_CHANNEL_SECRETS_KEY, FILE_LINK_SECRET: undefined }),
    ).toThrow(/CHANNEL_SECRETS_KEY: must be set in production\n {2}FILE_LINK_SECRET: must be set in production/);
    // Outside production the development defaults apply.
    expect(parseSettings(schema, {}).APP_SECRET).toBe('dev-only-app-secret-of-at-least-32-chars');
  });

  it("puts the e-mail forwarding addresses on PUBLIC_URL's host unless another mail domain is set", () => {
    expect(parseSettings(schema, production).EMAIL_INBOUND_DOMAIN).toBe('atende.example.com');
    expect(parseSettings(schema, { ...production, EMAIL_INBOUND_DOMAIN: 'inbound.example.com' }).EMAIL_INBOUND_DOMAIN).toBe(
      'inbound.example.com',
    );
    expect(parseSettings(schema, { PORT: '3400', EMAIL_INBOUND_DOMAIN: '' }).EMAIL_INBOUND_DOMAIN).toBe('localhost');
  });

  it('checks the storage settings together: s3 needs a bucket, and the two keys come as a pair', () => {
    expect(() => parseSettings(schema, { STORAGE_DRIVER: 's3' })).toThrow(/S3_BUCKET: required when STORAGE_DRIVER is s3/);
    expect(() => parseSettings(schema, { S3_ACCESS_KEY_ID: 'id' })).toThrow(/S3_SECRET_ACCESS_KEY: set both/);
    expect(parseSettings(schema, { STORAGE_DRIVER: 's3', S3_BUCKET: 'files', S3_FORCE_PATH_STYLE: 'true' })).toMatchObject({
      STORAGE_DRIVER: 's3',
      S3_FORCE_PATH_STYLE: true,
    });
  });

  it('gives the command-line tools the same defaults and checks as the apps for the few variables they read', () => {
    expect(readSharedSettings(['DATABASE_URL', 'CHANNEL_SECRETS_KEY'], {})).toEqual({
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/atende',
      CHANNEL_SECRETS_KEY: DEV_CHANNEL_SECRETS_KEY,
    });
    expect(() => readSharedSettings(['CHANNEL_SECRETS_KEY'], { CHANNEL_SECRETS_KEY: 'c2hvcnQ=' })).toThrow(
      /CHANNEL_SECRETS_KEY: must be 32 bytes/,
    );
  });

  it('reads the default a variable takes as it would be written in the environment, through transforms and empty-means-unset', () => {
    expect(
      defaultOf(
        z
          .enum(['true', 'false'])
          .default('false')
          .transform((v) => v === 'true'),
      ),
    ).toBe('false');
    expect(defaultOf(z.coerce.number().int().default(900).describe('x'))).toBe(900);
    expect(defaultOf(z.preprocess((v) => v, z.string().optional()))).toBeUndefined();
  });
});

describe('renderEnvExample', () => {
  it('refuses a variable without a description and a variable declared twice, so the file cannot leave one out', () => {
    expect(() => renderEnvExample('intro', [{ title: 'app', group: settingsGroup({ UNDESCRIBED: z.string().default('x') }) }])).toThrow(
      /UNDESCRIBED has no description/,
    );
    const twice = settingsGroup({ SAME: z.string().default('x').describe('One.') });
    expect(() =>
      renderEnvExample('intro', [
        { title: 'a', group: twice },
        { title: 'b', group: twice },
      ]),
    ).toThrow(/SAME is declared by two settings groups/);
  });
});
