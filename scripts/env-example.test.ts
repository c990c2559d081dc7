import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_SETTINGS } from '../apps/api/src/env';
import { WORKER_SETTINGS } from '../apps/worker/src/env';
import { SHARED_SETTINGS } from '../packages/config/src/index';
import { ENV_EXAMPLE_PATH, envExampleText } from './env-example';

// .env.example is generated from the settings schemas: a variable added, renamed or given another
// default without regenerating it makes this fail (run `pnpm config:example`).
describe('.env.example', () => {
  it('is exactly what `pnpm config:example` writes from the settings schemas', () => {
    expect(readFileSync(ENV_EXAMPLE_PATH, 'utf8')).toBe(envExampleText());
  });

  it('lists every variable the api and the worker read once, with its default, the production-required ones marked', () => {
    const text = envExampleText();
    const names = [...Object.keys(SHARED_SETTINGS.shape), ...Object.keys(API_SETTINGS.shape), ...Object.keys(WORKER_SETTINGS.shape)];
    for (const name of names) expect(text.match(new RegExp(`^(# )?${name}=`, 'gm')), name).toHaveLength(1);
    expect(text).toMatch(/^PORT=3000$/m);
    expect(text).toMatch(/^MAIL_FROM="Atende <no-reply@localhost>"$/m);
    expect(text).toMatch(/# Required in production\.\n# PUBLIC_URL=\n/);
    for (const name of ['JWT_SECRET', 'LIVECHAT_TOKEN_SECRET', 'CHANNEL_SECRETS_KEY', 'FILE_LINK_SECRET']) {
      expect(text).toMatch(new RegExp(`# Required in production: the default below is for development only\\.\\n${name}=`));
    }
  });
});
