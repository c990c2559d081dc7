import { DEFAULT_LIVECHAT_APPEARANCE, USER_PATTERN_PROGRAM_MAX, type LivechatAppearance } from '@atende/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

let t: TestApp;
let admin = '';

beforeAll(async () => {
  t = await startTestApp();
  await t.tenant('Acme', { users: { admin: ['admin'] } });
  admin = await t.login('admin@acme.test');
});
afterAll(() => t.close());

// 177 characters (under the 200 allowed) that RE2 compiles to about 32,000
// instructions; on 3 fields of 2,000 characters the unauthenticated session start took 61 s.
const HEAVY = `${'[^!]{0,999}'.repeat(16)}b`;
const heavyFields = ['a', 'b', 'c'].map((key) => ({
  key,
  label: key.toUpperCase(),
  required: true,
  max_length: 2000,
  validator: HEAVY,
  validator_message: 'Invalid',
}));
const appearance: LivechatAppearance = { ...DEFAULT_LIVECHAT_APPEARANCE, custom_fields: heavyFields };
const timed = async <T>(request: PromiseLike<T>): Promise<{ res: T; ms: number }> => {
  const started = performance.now();
  const res = await request;
  return { res, ms: performance.now() - started };
};

describe('user patterns within a budget', () => {
  let channelId = '';

  it('refuses to save a validator whose compiled program is over the budget, naming the limit', async () => {
    expect(HEAVY).toHaveLength(177);
    const created = await t.http
      .post('/api/v1/channels')
      .set({ Authorization: `Bearer ${admin}` })
      .type('form')
      .send({ name: 'Site', type: 'livechat' });
    channelId = created.body.data.uuid;
    const res = await t.http
      .patch(`/api/v1/channels/${channelId}`)
      .set({ Authorization: `Bearer ${admin}` })
      .send({ appearance });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.error_message).toContain(`at most ${USER_PATTERN_PROGRAM_MAX} instructions`);
    expect(res.body.fields.map((f: { path: string }) => f.path)).toEqual([
      'appearance.custom_fields.0.validator',
      'appearance.custom_fields.1.validator',
      'appearance.custom_fields.2.validator',
    ]);
    // Worded by the web from the catalogue code of each message (contract field-messages.ts).
    for (const field of res.body.fields as { code?: string }[])
      expect(['custom_field_validator_too_complex', 'validators_over_budget']).toContain(field.code);
  });

  it('answers a session start within 1 s, health staying fast, when such a validator was stored before the budget', async () => {
    // A channel saved before the budget existed: the validators are in the database as they were.
    await t.database.db.channel.update({
      where: { id: channelId },
      data: { config: { ...DEFAULT_LIVECHAT_APPEARANCE, custom_fields: heavyFields } },
    });
    const values = { a: 'a'.repeat(2000), b: 'a'.repeat(2000), c: 'a'.repeat(2000) };
    const session = timed(t.http.post(`/api/v1/livechat/${channelId}/sessions`).send({ name: 'Eve', custom_fields: values }));
    // A moment for the session start to reach the api, so the health check is asked while it runs.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const health = await timed(t.http.get('/api/health'));
    const { res, ms } = await session;
    expect(health.ms).toBeLessThan(300);
    expect(health.res.status).toBe(200);
    expect(ms).toBeLessThan(1000);
    // Validators that cannot run within the budget are skipped (and logged), as the widget skips them.
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });
});
