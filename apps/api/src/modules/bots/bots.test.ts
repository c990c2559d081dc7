import type { Bot } from '@atende/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ON, startTestApp, type TestApp } from '../../testing';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
const tokens: Record<string, string> = {};
const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });

beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_IP: '1000' });
  acme = await t.tenant('Bots', { features: ALL_ON, users: { admin: ['admin'], manager: ['manager'] } });
  await t.tenant('BotsOther', { features: ALL_ON, users: { admin: ['admin'] } });
  tokens.admin = await t.login('admin@bots.test');
  tokens.manager = await t.login('manager@bots.test');
  tokens.outsider = await t.login('admin@botsother.test');
});
afterAll(() => t.close());

const flow = (): { id: string; type: string; [k: string]: unknown; options?: { key: string; label: string; next: string | null }[] }[] => [
  { id: 's', type: 'start', next: 'menu' },
  {
    id: 'menu',
    type: 'options',
    text: 'Pick one',
    invalid_option_message: 'Pick 1 or 2',
    options: [
      { key: '1', label: 'Human', next: 'human' },
      { key: '2', label: 'Bye', next: 'bye' },
    ],
  },
  { id: 'human', type: 'transfer', sector_uuid: acme.sectors[0]!.id },
  { id: 'bye', type: 'end', text: 'Bye!' },
];

describe('bots (settings/bots, flow rules, messages)', () => {
  let bot: Bot;
  it('saves a valid flow; refuses broken ones with the field and message', async () => {
    const created = await t.http.post('/api/v1/bots').set(auth('admin')).send({ name: 'Support bot', nodes: flow() });
    expect(created.status).toBe(201);
    bot = created.body.data;
    expect(bot.nodes).toHaveLength(4);
    const broken = flow();
    broken[1]!.options = [
      { key: '1', label: 'a', next: 'human' },
      { key: '1', label: 'b', next: null },
    ];
    const res = await t.http.post('/api/v1/bots').set(auth('admin')).send({ name: 'Other', nodes: broken });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([
      { path: 'nodes.1.options.1.key', message: 'Option keys must be unique', code: 'option_keys_unique' },
      { path: 'nodes.1.options.1.next', message: 'Connect this handle to a node', code: 'bot_handle_unconnected' },
    ]);
    const dup = await t.http.post('/api/v1/bots').set(auth('admin')).send({ name: 'support BOT', nodes: flow() });
    expect(dup.status).toBe(409);
    expect(dup.body.error_message).toBe('There is already a bot with this name');
    const http = await t.http
      .patch(`/api/v1/bots/${bot.uuid}`)
      .set(auth('admin'))
      .send({ nodes: [...flow(), { id: 'api', type: 'http', url: 'https://x.test', next: 'bye', on_error: 'bye' }] });
    expect(http.body.error_message).toBe('The error text is required');
    expect(await t.database.db.bot.count({ where: { tenantId: acme.tenantId } })).toBe(1);
  });

  it('is for admins with bots_interface (campaign managers only list them); other tenants get 404', async () => {
    // A manager is also a campaign manager: they pick bots for campaign reply actions, nothing more.
    expect((await t.http.get('/api/v1/bots').set(auth('manager'))).body.data.map((b: Bot) => b.name)).toEqual(['Support bot']);
    expect((await t.http.get(`/api/v1/bots/${bot.uuid}`).set(auth('manager'))).status).toBe(403);
    expect((await t.http.post('/api/v1/bots').set(auth('manager')).send({ name: 'x', nodes: flow() })).status).toBe(403);
    expect((await t.http.get(`/api/v1/bots/${bot.uuid}`).set(auth('outsider'))).status).toBe(404);
    expect((await t.http.delete(`/api/v1/bots/${bot.uuid}`).set(auth('outsider'))).status).toBe(404);
    await t.database.db.tenant.update({
      where: { id: acme.tenantId },
      data: { config: { features: { ...ALL_ON, bots_interface: false } } },
    });
    expect((await t.http.get('/api/v1/bots').set(auth('admin'))).status).toBe(403);
    await t.database.db.tenant.update({ where: { id: acme.tenantId }, data: { config: { features: ALL_ON } } });
    expect((await t.http.delete(`/api/v1/bots/${bot.uuid}`).set(auth('admin'))).status).toBe(200);
    expect((await t.http.get('/api/v1/bots').set(auth('admin'))).body.data).toEqual([]);
  });
});
