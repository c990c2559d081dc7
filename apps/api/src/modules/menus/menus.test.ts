import type { AutomatedMenu } from '@atende/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customChannel, inbound } from '../conversations/fixtures';
import { ALL_ON, startTestApp, type TestApp } from '../../testing';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let other: Awaited<ReturnType<TestApp['tenant']>>;
let channel: { id: string };
let token: string;
const tokens: Record<string, string> = {};
const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });
let support: string;
let billing: string;
let main: AutomatedMenu;
let more: AutomatedMenu;

beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_IP: '1000' });
  acme = await t.tenant('Menus', { features: ALL_ON, users: { agent: ['agent'], supervisor: ['supervisor'], admin: ['admin'] } });
  other = await t.tenant('MenusOther', { features: ALL_ON, users: { admin: ['admin'] } });
  for (const name of ['agent', 'supervisor', 'admin']) tokens[name] = await t.login(`${name}@menus.test`);
  tokens.outsider = await t.login('admin@menusother.test');
  support = acme.sectors[0]!.id;
  billing = (await t.database.db.sector.create({ data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, name: 'Billing' } })).id;
  ({ channel, token } = await customChannel(t.database.db, acme.tenantId, acme.workspaceId, support, 'menus-token-0123456789'));
});
afterAll(() => t.close());

const messagesOf = async (conversationId: string) =>
  (
    await t.database.db.message.findMany({
      where: { conversationId },
      orderBy: { createdAt: 'asc' },
      select: { author: true, content: true, tags: true },
    })
  ).map((m) => `${m.author}${m.tags.includes('menu') ? '(menu)' : ''}: ${m.content}`);
const conversation = (id: string) => t.database.db.conversation.findUniqueOrThrow({ where: { id } });

describe('automated menus: settings', () => {
  it('refuses menus that break a rule, with the field and message', async () => {
    const base = { name: 'Main', message: 'Hello! Pick one:', invalid_option_message: 'Sorry, that is not an option.' };
    const none = await t.http
      .post('/api/v1/automated-menus')
      .set(auth('admin'))
      .send({ ...base, answers: [] });
    expect(none.status).toBe(400);
    expect(none.body.error_message).toBe('Add at least one answer');
    const dup = await t.http
      .post('/api/v1/automated-menus')
      .set(auth('admin'))
      .send({
        ...base,
        answers: [
          { key: '1', label: 'Support', action: { type: 'transfer_to_sector', sector_uuid: support } },
          { key: '1 ', label: 'Other', action: { type: '' } },
        ],
      });
    expect(dup.status).toBe(400);
    // Each field carries the catalogue code of its message (packages/contract field-messages.ts).
    expect(dup.body.fields).toEqual([
      { path: 'answers.1.key', message: 'Answers must be unique', code: 'answer_keys_unique' },
      { path: 'answers.1.action', message: 'Choose an action for this answer', code: 'answer_action_required' },
    ]);
    const foreign = await t.http
      .post('/api/v1/automated-menus')
      .set(auth('admin'))
      .send({ ...base, answers: [{ key: '1', label: 'X', action: { type: 'transfer_to_sector', sector_uuid: other.sectors[0]!.id } }] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error_message).toBe('Sector not found');
    expect(await t.database.db.automatedMenu.count({ where: { tenantId: acme.tenantId } })).toBe(0);
  });

  it('lets admins create and edit menus that lead to each other; supervisors read; agents and other tenants nothing', async () => {
    const second = await t.http
      .post('/api/v1/automated-menus')
      .set(auth('admin'))
      .send({
        name: 'More',
        message: 'More options:',
        invalid_option_message: 'Please pick 1 or 2.',
        answers: [
          { key: '1', label: 'Billing', action: { type: 'transfer_to_sector', sector_uuid: billing, message: 'Passing you to billing.' } },
          { key: '2', label: 'Nothing else', action: { type: 'end_conversation', message: 'Bye!' } },
        ],
      });
    expect(second.status).toBe(201);
    more = second.body.data;
    const first = await t.http
      .post('/api/v1/automated-menus')
      .set(auth('admin'))
      .send({
        name: 'Main',
        message: 'Hello! Pick one:',
        invalid_option_message: 'Sorry, that is not an option.',
        answers: [
          { key: '1', label: 'Support', action: { type: 'transfer_to_sector', sector_uuid: support } },
          { key: '2', label: 'Something else', action: { type: 'go_to_menu', menu_uuid: more.uuid } },
        ],
      });
    expect(first.status).toBe(201);
    main = first.body.data;
    expect(main.answers[1]).toEqual({ key: '2', label: 'Something else', action: { type: 'go_to_menu', menu_uuid: more.uuid } });
    expect((await t.http.post('/api/v1/automated-menus').set(auth('supervisor')).send({})).status).toBe(403);
    expect((await t.http.get('/api/v1/automated-menus').set(auth('agent'))).status).toBe(403);
    const listed = await t.http.get('/api/v1/automated-menus').set(auth('supervisor'));
    expect(listed.body.data.map((m: AutomatedMenu) => m.name)).toEqual(['Main', 'More']);
    expect((await t.http.patch(`/api/v1/automated-menus/${main.uuid}`).set(auth('outsider')).send({ name: 'x' })).status).toBe(404);
    const self = await t.http
      .patch(`/api/v1/automated-menus/${more.uuid}`)
      .set(auth('admin'))
      .send({
        answers: [{ key: '1', label: 'Loop', action: { type: 'go_to_menu', menu_uuid: more.uuid } }],
      });
    expect(self.status).toBe(400);
    expect(self.body.error_message).toBe('Menu not found');
  });

  it('becomes a channel entry point; then it cannot be disabled or deleted', async () => {
    const bound = await t.http
      .patch(`/api/v1/channels/${channel.id}`)
      .set(auth('admin'))
      .send({ entry_point: main.uuid, entry_point_type: 'menu' });
    expect(bound.status).toBe(200);
    expect(bound.body.data.entry_point).toEqual({ uuid: main.uuid, name: 'Main', type: 'menu' });
    const off = await t.http.patch(`/api/v1/automated-menus/${main.uuid}`).set(auth('admin')).send({ enabled: false });
    expect(off.status).toBe(409);
    expect(off.body.error_message).toBe('Menus used by channels cannot be disabled');
    expect((await t.http.delete(`/api/v1/automated-menus/${main.uuid}`).set(auth('admin'))).status).toBe(409);
    const referenced = await t.http.delete(`/api/v1/automated-menus/${more.uuid}`).set(auth('admin'));
    expect(referenced.status).toBe(409);
    expect(referenced.body).toMatchObject({
      error_message: 'The menu "Main" leads to this menu',
      code: 'menu_referenced',
      params: { menu: 'Main' },
    });
    const listed = await t.http.get('/api/v1/automated-menus').set(auth('admin'));
    expect(listed.body.data[0].channels).toEqual([{ uuid: channel.id, name: 'API' }]);
    const wrong = await t.http
      .patch(`/api/v1/channels/${channel.id}`)
      .set(auth('admin'))
      .send({ entry_point: support, entry_point_type: 'menu' });
    expect(wrong.status).toBe(400);
  });
});

describe('automated menus: talking to contacts', () => {
  it('greets a new conversation (state bot), repeats itself on a wrong answer, follows a submenu and hands the contact to the chosen sector', async () => {
    const first = await inbound(t, channel.id, token, { phone: '11955550001', id: 'menu-1', content: 'Hi' });
    expect(first.status).toBe(202);
    const id = first.body.data.conversation_uuid as string;
    expect(await conversation(id)).toMatchObject({ state: 'bot', sectorId: null, botMenuId: main.uuid });
    expect((await t.http.get(`/api/v1/conversations/${id}`).set(auth('supervisor'))).body.data.state).toBe('bot');
    expect(await messagesOf(id)).toEqual(['CONTACT: Hi', 'USER(menu): Hello! Pick one:\n\n1 - Support\n2 - Something else']);
    // Not in the queue: nobody can take it while the menu talks.
    expect((await t.http.get('/api/v1/conversations/waiting-queue').set(auth('agent'))).body.data.quantity_waiting_queue).toBe(0);

    await inbound(t, channel.id, token, { phone: '11955550001', id: 'menu-2', content: 'banana' });
    expect((await messagesOf(id)).slice(-2)).toEqual([
      'USER(menu): Sorry, that is not an option.',
      'USER(menu): Hello! Pick one:\n\n1 - Support\n2 - Something else',
    ]);
    await inbound(t, channel.id, token, { phone: '11955550001', id: 'menu-3', content: 'something ELSE' });
    expect(await conversation(id)).toMatchObject({ state: 'bot', botMenuId: more.uuid });
    expect((await messagesOf(id)).at(-1)).toBe('USER(menu): More options:\n\n1 - Billing\n2 - Nothing else');
    await inbound(t, channel.id, token, { phone: '11955550001', id: 'menu-4', content: '1' });
    expect(await conversation(id)).toMatchObject({ state: 'waiting', sectorId: billing, botMenuId: null });
    expect((await messagesOf(id)).at(-1)).toBe('USER(menu): Passing you to billing.');
    const events = await t.database.db.conversationEvent.findMany({
      where: { conversationId: id },
      orderBy: { at: 'asc' },
      select: { type: true },
    });
    // The history holds only the types the contract knows (the menu's own turns are its messages).
    expect(events.map((e) => e.type)).toEqual(['enter-queue']);
    const read = await t.http.get(`/api/v1/conversations/${id}`).set(auth('supervisor'));
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ state: 'waiting', sector: { uuid: billing } });
    // A repeated delivery of the same answer is a duplicate and runs nothing again.
    const before = (await messagesOf(id)).length;
    expect((await inbound(t, channel.id, token, { phone: '11955550001', id: 'menu-4', content: '1' })).status).toBe(202);
    expect(await messagesOf(id)).toHaveLength(before);
    // Later messages go to the conversation as usual; the menu is done.
    await inbound(t, channel.id, token, { phone: '11955550001', id: 'menu-5', content: 'Still there?' });
    expect((await messagesOf(id)).at(-1)).toBe('CONTACT: Still there?');
  });

  it('ends the conversation when the contact picks a terminal answer', async () => {
    const first = await inbound(t, channel.id, token, { phone: '11955550002', id: 'end-1', content: 'Hello' });
    const id = first.body.data.conversation_uuid as string;
    await inbound(t, channel.id, token, { phone: '11955550002', id: 'end-2', content: '2' });
    await inbound(t, channel.id, token, { phone: '11955550002', id: 'end-3', content: 'nothing else' });
    expect(await conversation(id)).toMatchObject({ state: 'closed', endedBy: 'bot', botMenuId: null });
    expect((await messagesOf(id)).at(-1)).toBe('USER(menu): Bye!');
  });

  it('the bots report counts, per menu and answer, the conversations sent to the queue or ended', async () => {
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const range = `start=${day(new Date(Date.now() - 86_400_000))}&end=${day(new Date())}&timezone=UTC`;
    const res = await t.http.get(`/api/v1/reports/bots?${range}`).set(auth('supervisor'));
    expect(res.status).toBe(200);
    expect(res.body.data.rows).toEqual([
      { menu: 'More', answer: '1', outcome: 'Sent to the queue', conversations: 1 },
      { menu: 'More', answer: '2', outcome: 'Ended', conversations: 1 },
    ]);
    // The file's headers are the report's column labels in the reader's language.
    const csv = await t.http.get(`/api/v1/reports/bots?${range}&format=csv`).set(auth('supervisor')).set('Accept-Language', 'en');
    const [header, ...lines] = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(header).toMatch(/^Menu,/);
    expect(lines).toEqual(['More,1,Sent to the queue,1', 'More,2,Ended,1']);
    expect((await t.http.get(`/api/v1/reports/bots?${range}`).set(auth('agent'))).status).toBe(403);
  });

  it('goes straight to the queue again once the channel points at a sector', async () => {
    const back = await t.http.patch(`/api/v1/channels/${channel.id}`).set(auth('admin')).send({ entry_point: support });
    expect(back.body.data.entry_point).toMatchObject({ uuid: support, type: 'sector' });
    const res = await inbound(t, channel.id, token, { phone: '11955550003', id: 'plain-1', content: 'Hi' });
    expect(await conversation(res.body.data.conversation_uuid)).toMatchObject({ state: 'waiting', sectorId: support, botMenuId: null });
    expect((await t.http.patch(`/api/v1/automated-menus/${main.uuid}`).set(auth('admin')).send({ enabled: false })).status).toBe(200);
  });
});
