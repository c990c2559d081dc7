import type { Automation } from '@atende/contract';
import { runAutomations, type ConversationDeps } from '@atende/conversations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customChannel, inbound } from '../conversations/fixtures';
import { startTestApp, type TestApp } from '../../testing';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let other: Awaited<ReturnType<TestApp['tenant']>>;
let channel: { id: string };
let token: string;
let deps: ConversationDeps;
const events: { room: string | string[]; event: string }[] = [];
const tokens: Record<string, string> = {};
const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_IP: '1000' });
  acme = await t.tenant('Autom', { users: { agent: ['agent'], supervisor: ['supervisor'], admin: ['admin'] } });
  other = await t.tenant('AutomOther', { users: { admin: ['admin'] } });
  for (const name of ['agent', 'supervisor', 'admin']) tokens[name] = await t.login(`${name}@autom.test`);
  tokens.outsider = await t.login('admin@automother.test');
  ({ channel, token } = await customChannel(t.database.db, acme.tenantId, acme.workspaceId, acme.sectors[0]!.id, 'autom-token-0123456789'));
  deps = { db: t.database.db, realtime: { emit: (room, event) => void events.push({ room, event }) }, log: { error: () => undefined } };
});
afterAll(() => t.close());

/** A contact writes and the agent takes the conversation; answers its uuid. */
async function answered(phone: string): Promise<string> {
  await t.database.db.conversation.updateMany({
    where: { tenantId: acme.tenantId, state: 'waiting' },
    data: { state: 'closed', closedAt: new Date() },
  });
  await inbound(t, channel.id, token, { phone, id: `a-${phone}`, content: 'Help' });
  const res = await t.http.patch('/api/v1/conversations').set(auth('agent')).send({ user_id: acme.users.agent!.id });
  expect(res.status).toBe(200);
  return res.body.data.uuid as string;
}
/** The agent's reply, dated `minutes` ago (the contact's message before it). */
async function agentReplied(conversationId: string, minutes: number) {
  await t.database.db.message.updateMany({ where: { conversationId }, data: { createdAt: minutesAgo(minutes + 1) } });
  await t.database.db.message.create({
    data: {
      id: crypto.randomUUID(),
      tenantId: acme.tenantId,
      conversationId,
      author: 'USER',
      userId: acme.users.agent!.id,
      content: 'Anything else?',
      state: 'sent',
      createdAt: minutesAgo(minutes),
    },
  });
}

describe('automations: settings (/api/v1/actions)', () => {
  let auto: Automation;
  it('validates, and lets admins build an automation from conditions and operations', async () => {
    const bad = await t.http.post('/api/v1/actions').set(auth('admin')).send({ name: '', trigger: 'sometimes', minutes: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.map((f: { message: string }) => f.message).sort()).toEqual([
      'At least 1 minute',
      'Choose when it runs',
      'Name is required',
    ]);
    expect(
      (await t.http.post('/api/v1/actions').set(auth('supervisor')).send({ name: 'x', trigger: 'contact_inactive', minutes: 5 })).status,
    ).toBe(403);
    const created = await t.http
      .post('/api/v1/actions')
      .set(auth('admin'))
      .send({ name: 'Close silent chats', trigger: 'contact_inactive', minutes: 30 });
    expect(created.status).toBe(201);
    auto = created.body.data;
    const cond = await t.http
      .post(`/api/v1/actions/${auto.uuid}/conditions`)
      .set(auth('admin'))
      .send({ field: 'sector', operator: 'equals', value: acme.sectors[0]!.id });
    expect(cond.status).toBe(201);
    expect(
      (
        await t.http
          .post(`/api/v1/actions/${auto.uuid}/conditions`)
          .set(auth('admin'))
          .send({ field: 'sector', operator: 'equals', value: other.sectors[0]!.id })
      ).body.error_message,
    ).toBe('Sector not found');
    expect(
      (await t.http.post(`/api/v1/actions/${auto.uuid}/operations`).set(auth('admin')).send({ type: 'send_message', value: ' ' })).body
        .error_message,
    ).toBe('Message is required');
    await t.http
      .post(`/api/v1/actions/${auto.uuid}/operations`)
      .set(auth('admin'))
      .send({ type: 'send_message', value: 'We are closing this chat. Write again any time!' });
    const closing = await t.http.post(`/api/v1/actions/${auto.uuid}/operations`).set(auth('admin')).send({ type: 'close' });
    expect(closing.body.data.operations.map((o: { type: string }) => o.type)).toEqual(['send_message', 'close']);
    expect(
      (await t.http.post(`/api/v1/actions/${auto.uuid}/operations`).set(auth('admin')).send({ type: 'return_to_queue' })).body
        .error_message,
    ).toBe('Nothing can follow closing the conversation');
    const listed = await t.http.get(`/api/v1/actions/${auto.uuid}/conditions`).set(auth('supervisor'));
    expect(listed.body.data).toEqual([
      { uuid: cond.body.data.conditions[0].uuid, field: 'sector', operator: 'equals', value: acme.sectors[0]!.id },
    ]);
    expect((await t.http.get(`/api/v1/actions/${auto.uuid}`).set(auth('outsider'))).status).toBe(404);
    expect((await t.http.get('/api/v1/actions').set(auth('agent'))).status).toBe(403);
  });

  it('closes an answered conversation whose contact stayed silent past the timer, once, with its message', async () => {
    const silent = await answered('11966660001');
    await agentReplied(silent, 45);
    const recent = await answered('11966660002');
    await agentReplied(recent, 5);
    const first = await runAutomations(deps);
    expect(first.applied).toBe(1);
    const closed = await t.database.db.conversation.findUniqueOrThrow({ where: { id: silent } });
    expect(closed).toMatchObject({ state: 'closed', endedBy: 'automation' });
    const last = await t.database.db.message.findFirstOrThrow({ where: { conversationId: silent }, orderBy: { createdAt: 'desc' } });
    expect(last).toMatchObject({
      author: 'USER',
      content: 'We are closing this chat. Write again any time!',
      tags: ['automation'],
      state: 'pending',
    });
    const event = await t.database.db.conversationEvent.findFirstOrThrow({ where: { conversationId: silent, type: 'closed' } });
    expect(event.detail).toMatchObject({ ended_by: 'automation', custom_action_name: 'Close silent chats' });
    expect((await t.database.db.conversation.findUniqueOrThrow({ where: { id: recent } })).state).toBe('answered');
    expect(events.some((e) => e.event === 'update-conversation')).toBe(true);
    // Running again changes nothing.
    expect((await runAutomations(deps)).applied).toBe(0);
    // The history of the closed conversation reads as the contract says (closed by custom action).
    expect((await t.http.get(`/api/v1/conversations/${silent}`).set(auth('supervisor'))).status).toBe(200);
  });

  it('returns conversations waiting too long to the queue of another sector; disabled or conditions unmet do nothing', async () => {
    const sales = await t.database.db.sector.create({ data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, name: 'Overflow' } });
    const created = await t.http
      .post('/api/v1/actions')
      .set(auth('admin'))
      .send({ name: 'Overflow', trigger: 'waiting_too_long', minutes: 10 });
    const id = created.body.data.uuid as string;
    await t.http.post(`/api/v1/actions/${id}/operations`).set(auth('admin')).send({ type: 'transfer_to_sector', value: sales.id });
    await t.http
      .post(`/api/v1/actions/${id}/conditions`)
      .set(auth('admin'))
      .send({ field: 'channel', operator: 'equals', value: channel.id });
    await t.database.db.conversation.updateMany({
      where: { tenantId: acme.tenantId, state: 'waiting' },
      data: { state: 'closed', closedAt: new Date() },
    });
    const res = await inbound(t, channel.id, token, { phone: '11966660003', id: 'w-1', content: 'Hello?' });
    const waiting = res.body.data.conversation_uuid as string;
    expect((await runAutomations(deps)).applied).toBe(0);
    await t.database.db.conversation.update({ where: { id: waiting }, data: { timeJoin: minutesAgo(11) } });
    await t.http.patch(`/api/v1/actions/${id}`).set(auth('admin')).send({ enabled: false });
    expect((await runAutomations(deps)).applied).toBe(0);
    await t.http.patch(`/api/v1/actions/${id}`).set(auth('admin')).send({ enabled: true });
    expect((await runAutomations(deps)).applied).toBe(1);
    expect(await t.database.db.conversation.findUniqueOrThrow({ where: { id: waiting } })).toMatchObject({
      state: 'waiting',
      sectorId: sales.id,
    });
    // The transfer is in the conversation's history, named as the automation's.
    const history = (await t.http.get(`/api/v1/conversations/${waiting}`).set(auth('admin'))).body.data.history as {
      event: string;
      detail: Record<string, unknown>;
    }[];
    expect(history.filter((h) => h.event === 'transfer')).toEqual([
      expect.objectContaining({
        detail: expect.objectContaining({
          done_by: 'automation',
          custom_action_name: 'Overflow',
          new_sector: { uuid: sales.id, name: 'Overflow' },
        }),
      }),
    ]);
    expect((await t.http.delete(`/api/v1/actions/${id}`).set(auth('admin'))).status).toBe(200);
    expect((await t.http.get('/api/v1/actions').set(auth('admin'))).body.data.map((a: Automation) => a.name)).toEqual([
      'Close silent chats',
    ]);
  });
});
