import { queues, WEEKDAYS, type Weekday } from '@atende/contract';
import { wallClock } from '@atende/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';
import { customChannel, inbound } from '../conversations/fixtures';

// (opening hours: weekdays, time ranges, out-of-hours message; time zone),
// ('at least one weekday', 'message required'); the out-of-hours reply goes once per conversation.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let globex: Awaited<ReturnType<TestApp['tenant']>>;
const token: Record<string, string> = {};
const as = (who: string) => ({ Authorization: `Bearer ${token[who]}` });
const PATH = '/api/v1/workspaces/me/opening_hours';
const TZ = 'America/Sao_Paulo';
const today = (): Weekday => wallClock(new Date(), TZ).weekday;
/** Every day but today, all day: whenever the test runs, it is out of hours. */
const closedToday = () => WEEKDAYS.filter((d) => d !== today()).map((weekday) => ({ weekday, ranges: [{ start: '00:00', end: '24:00' }] }));
const openAlways = () => WEEKDAYS.map((weekday) => ({ weekday, ranges: [{ start: '00:00', end: '24:00' }] }));
const hours = (overrides: Record<string, unknown> = {}) => ({
  enabled: true,
  timezone: TZ,
  days: closedToday(),
  out_of_hours_message: 'Estamos fechados, voltamos amanhã às 8h.',
  ...overrides,
});

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme');
  globex = await t.tenant('Globex');
  for (const who of ['agent', 'supervisor', 'manager', 'admin']) token[who] = await t.login(`${who}@acme.test`);
  token.globex = await t.login('admin@globex.test');
});
afterAll(() => t.close());

describe('GET/PUT /api/v1/workspaces/me/opening_hours', () => {
  it('answers the defaults (off, Monday to Friday 08:00-18:00) until saved', async () => {
    const res = await t.http.get(PATH).set(as('supervisor'));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ enabled: false, timezone: TZ, out_of_hours_message: '' });
    expect(res.body.data.days.map((d: { weekday: string }) => d.weekday)).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday']);
  });

  it('saves and reads back the hours of the caller workspace only, weekdays in week order', async () => {
    const body = hours({
      days: [
        { weekday: 'saturday', ranges: [{ start: '09:00', end: '13:00' }] },
        {
          weekday: 'monday',
          ranges: [
            { start: '08:00', end: '12:00' },
            { start: '13:00', end: '18:00' },
          ],
        },
      ],
    });
    const res = await t.http.put(PATH).set(as('manager')).send(body);
    expect(res.status).toBe(200);
    expect(res.body.data.days.map((d: { weekday: string }) => d.weekday)).toEqual(['monday', 'saturday']);
    expect((await t.http.get(PATH).set(as('admin'))).body.data).toEqual({ ...body, days: [body.days[1], body.days[0]] });
    expect((await t.http.get(PATH).set(as('globex'))).body.data.enabled).toBe(false);
  });

  it('refuses bad input with the spec messages and changes nothing', async () => {
    const before = (await t.http.get(PATH).set(as('admin'))).body.data;
    const cases: [Record<string, unknown>, string][] = [
      [{ days: [] }, 'Select at least one weekday'],
      [{ days: undefined }, 'Select at least one weekday'],
      [{ out_of_hours_message: '   ' }, 'Message is required'],
      [{ out_of_hours_message: undefined }, 'Message is required'],
      [{ out_of_hours_message: 'x'.repeat(1001) }, 'Máximo de 1000 caracteres'],
      [{ timezone: 'Nowhere/City' }, 'Invalid time zone'],
      [{ days: [{ weekday: 'monday', ranges: [] }] }, 'Add at least one time range'],
      [{ days: [{ weekday: 'monday', ranges: [{ start: '18:00', end: '08:00' }] }] }, 'The end must be after the start'],
      [
        {
          days: [
            {
              weekday: 'monday',
              ranges: [
                { start: '08:00', end: '12:00' },
                { start: '11:00', end: '14:00' },
              ],
            },
          ],
        },
        'Time ranges must not overlap',
      ],
      [{ days: [{ weekday: 'monday', ranges: [{ start: '25:00', end: '26:00' }] }] }, 'Use the format HH:MM'],
      [
        {
          days: [
            { weekday: 'monday', ranges: [{ start: '08:00', end: '09:00' }] },
            { weekday: 'monday', ranges: [{ start: '10:00', end: '11:00' }] },
          ],
        },
        'Each weekday may appear once',
      ],
    ];
    for (const [patch, message] of cases) {
      const res = await t.http.put(PATH).set(as('admin')).send(hours(patch));
      expect(res.status, message).toBe(400);
      expect(
        res.body.fields.map((f: { message: string }) => f.message),
        message,
      ).toContain(message);
    }
    expect(
      (
        await t.http
          .put(PATH)
          .set(as('admin'))
          .send({ ...hours(), workspace_id: globex.workspaceId })
      ).status,
    ).toBe(400);
    expect((await t.http.get(PATH).set(as('admin'))).body.data).toEqual(before);
  });

  it('lets supervisors read and only managers and above save', async () => {
    expect((await t.http.get(PATH).set(as('agent'))).status).toBe(403);
    for (const who of ['agent', 'supervisor']) expect((await t.http.put(PATH).set(as(who)).send(hours())).status, who).toBe(403);
  });
});

describe('out-of-hours reply', () => {
  let channel: { id: string };
  let channelToken: string;
  const replies = (conversationId: string) =>
    t.database.db.message.findMany({ where: { conversationId, tags: { has: 'out_of_hours' } }, orderBy: { createdAt: 'asc' } });

  beforeAll(async () => {
    const made = await customChannel(t.database.db, acme.tenantId, acme.workspaceId, acme.sectors[0]!.id);
    channel = made.channel;
    channelToken = made.token;
  });

  it('sends the message back once per conversation through channel delivery, and the conversation still enters the queue', async () => {
    expect((await t.http.put(PATH).set(as('admin')).send(hours())).status).toBe(200);
    const first = await inbound(t, channel.id, channelToken, { phone: '+5511988887777', content: 'Olá, alguém aí?' });
    expect(first.status).toBe(202);
    const conversationId = first.body.data.conversation_uuid as string;
    const conv = await t.database.db.conversation.findUniqueOrThrow({ where: { id: conversationId } });
    expect(conv.state).toBe('waiting');
    expect(conv.userId).toBeNull();

    let sent = await replies(conversationId);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      author: 'USER',
      userId: null,
      content: 'Estamos fechados, voltamos amanhã às 8h.',
      state: 'pending',
      status: 'sending',
    });
    const jobs = await t.database.db.outboxJob.findMany({ where: { tenantId: acme.tenantId, queue: queues.channelDelivery.name } });
    expect(jobs.map((j) => (j.payload as { message_uuid: string }).message_uuid)).toContain(sent[0]!.id);

    // The contact writes again in the same conversation (the fast append path): no second reply.
    const second = await inbound(t, channel.id, channelToken, { phone: '+5511988887777', content: 'Oi?' });
    expect(second.body.data.conversation_uuid).toBe(conversationId);
    sent = await replies(conversationId);
    expect(sent).toHaveLength(1);
    // The agent panel reads it like any outbound message, after the contact's first message.
    const agentView = await t.http.get(`/api/v1/conversations/${conversationId}/messages`).set(as('supervisor'));
    expect(agentView.status).toBe(200);
  });

  it('sends nothing inside the opening hours, or while they are off', async () => {
    await t.http
      .put(PATH)
      .set(as('admin'))
      .send(hours({ days: openAlways() }));
    const inside = await inbound(t, channel.id, channelToken, { phone: '+5511977776666', content: 'Bom dia' });
    expect(await replies(inside.body.data.conversation_uuid)).toHaveLength(0);

    await t.http
      .put(PATH)
      .set(as('admin'))
      .send(hours({ enabled: false }));
    const off = await inbound(t, channel.id, channelToken, { phone: '+5511966665555', content: 'Boa noite' });
    expect(await replies(off.body.data.conversation_uuid)).toHaveLength(0);
  });

  it('replies again in a new conversation of the same contact, once the first is closed', async () => {
    await t.http.put(PATH).set(as('admin')).send(hours());
    const first = await inbound(t, channel.id, channelToken, { phone: '+5511955554444', content: 'Um' });
    await t.database.db.conversation.update({
      where: { id: first.body.data.conversation_uuid },
      data: { state: 'closed', closedAt: new Date() },
    });
    const next = await inbound(t, channel.id, channelToken, { phone: '+5511955554444', content: 'Dois' });
    expect(next.body.data.conversation_uuid).not.toBe(first.body.data.conversation_uuid);
    expect(await replies(first.body.data.conversation_uuid)).toHaveLength(1);
    expect(await replies(next.body.data.conversation_uuid)).toHaveLength(1);
  });

  it("never answers with another workspace's hours", async () => {
    // Globex has no hours saved; its channel gets no reply though Acme is closed now.
    const made = await customChannel(t.database.db, globex.tenantId, globex.workspaceId, globex.sectors[0]!.id, 'globex-token-0123456789');
    const res = await inbound(t, made.channel.id, made.token, { phone: '+5511944443333', content: 'Oi' });
    expect(await replies(res.body.data.conversation_uuid)).toHaveLength(0);
  });
});
