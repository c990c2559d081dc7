import type { Survey, SurveyResult } from '@atende/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customChannel, inbound } from '../conversations/fixtures';
import { startTestApp, type TestApp } from '../../testing';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let other: Awaited<ReturnType<TestApp['tenant']>>;
let channel: { id: string };
let token: string;
let sectorId: string;
let otherSector: string;
const tokens: Record<string, string> = {};
const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });
const valid = {
  name: 'Satisfaction',
  question: 'How did we do?',
  options: ['Great', 'Okay', 'Bad'],
  greeting_message: 'Thank you for your answer!',
};

beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_IP: '1000' });
  acme = await t.tenant('Survey', { users: { agent: ['agent'], supervisor: ['supervisor'], admin: ['admin'] } });
  other = await t.tenant('SurveyOther', { users: { admin: ['admin'] } });
  for (const name of ['agent', 'supervisor', 'admin']) tokens[name] = await t.login(`${name}@survey.test`);
  tokens.outsider = await t.login('admin@surveyother.test');
  sectorId = acme.sectors[0]!.id;
  otherSector = other.sectors[0]!.id;
  ({ channel, token } = await customChannel(t.database.db, acme.tenantId, acme.workspaceId, sectorId, 'survey-token-0123456789'));
});
afterAll(() => t.close());

/** A contact writes, the agent accepts and finishes the conversation; answers its uuid. */
async function finishedConversation(phone: string): Promise<string> {
  await t.database.db.conversation.updateMany({
    where: { tenantId: acme.tenantId, state: 'waiting' },
    data: { state: 'closed', closedAt: new Date() },
  });
  expect((await inbound(t, channel.id, token, { phone, id: `first-${phone}`, content: 'My order is late' })).status).toBe(202);
  const taken = await t.http.patch('/api/v1/conversations').set(auth('agent')).send({ user_id: acme.users.agent!.id });
  expect(taken.status).toBe(200);
  const id = taken.body.data.uuid as string;
  const done = await t.http.patch(`/api/v1/conversations/${id}`).set(auth('agent')).send({ state: 'closed' });
  expect(done.status).toBe(200);
  return id;
}
const messagesOf = (conversationId: string) =>
  t.database.db.message.findMany({
    where: { conversationId },
    orderBy: { createdAt: 'asc' },
    select: { author: true, content: true, tags: true, state: true },
  });

describe('surveys: settings', () => {
  let survey: Survey;

  it('refuses a survey that breaks a rule, with the field and the message', async () => {
    const repeated = await t.http
      .post('/api/v1/surveys')
      .set(auth('admin'))
      .send({ ...valid, options: ['Great', 'great '] });
    expect(repeated.status).toBe(400);
    expect(repeated.body.error_message).toBe('Repeated answer');
    expect(repeated.body.fields).toEqual([{ path: 'options.1', message: 'Repeated answer', code: 'survey_answer_repeated' }]);
    const empty = await t.http
      .post('/api/v1/surveys')
      .set(auth('admin'))
      .send({ ...valid, question: ' ', options: ['One'] });
    expect(empty.status).toBe(400);
    expect(empty.body.fields).toEqual([
      { path: 'question', message: 'Question is required', code: 'question_required' },
      { path: 'options', message: 'Add at least 2 answers', code: 'answers_too_few', params: { min: 2 } },
    ]);
    const missing = await t.http.post('/api/v1/surveys').set(auth('admin')).send({ name: 'x' });
    expect(missing.status).toBe(400);
    const foreign = await t.http
      .post('/api/v1/surveys')
      .set(auth('admin'))
      .send({ ...valid, sector_uuids: [otherSector] });
    expect(foreign.status).toBe(404);
    expect(await t.database.db.survey.count({ where: { tenantId: acme.tenantId } })).toBe(0);
  });

  it('lets admins create and edit, supervisors read, agents nothing', async () => {
    expect((await t.http.post('/api/v1/surveys').set(auth('supervisor')).send(valid)).status).toBe(403);
    const created = await t.http
      .post('/api/v1/surveys')
      .set(auth('admin'))
      .send({ ...valid, sector_uuids: [sectorId] });
    expect(created.status).toBe(201);
    survey = created.body.data;
    expect(survey).toMatchObject({ ...valid, sector_uuids: [sectorId], enabled: true });
    const listed = await t.http.get('/api/v1/surveys').set(auth('supervisor'));
    expect(listed.body.data.map((s: Survey) => s.uuid)).toEqual([survey.uuid]);
    expect((await t.http.get('/api/v1/surveys').set(auth('agent'))).status).toBe(403);
    const renamed = await t.http.patch(`/api/v1/surveys/${survey.uuid}`).set(auth('admin')).send({ name: 'After-sales' });
    expect(renamed.body.data).toMatchObject({ name: 'After-sales', question: valid.question });
    const broken = await t.http
      .patch(`/api/v1/surveys/${survey.uuid}`)
      .set(auth('admin'))
      .send({ options: ['Only one'] });
    expect(broken.status).toBe(400);
    expect((await t.http.get(`/api/v1/surveys/${survey.uuid}`).set(auth('admin'))).body.data.survey.options).toEqual(valid.options);
  });

  it('keeps one enabled survey per sector, and other tenants out', async () => {
    const clash = await t.http
      .post('/api/v1/surveys')
      .set(auth('admin'))
      .send({ ...valid, name: 'Second', sector_uuids: [sectorId] });
    expect(clash.status).toBe(409);
    expect(clash.body.error_message).toBe('A sector already has the survey "After-sales"');
    const disabled = await t.http
      .post('/api/v1/surveys')
      .set(auth('admin'))
      .send({ ...valid, name: 'Draft', sector_uuids: [sectorId], enabled: false });
    expect(disabled.status).toBe(201);
    expect((await t.http.patch(`/api/v1/surveys/${disabled.body.data.uuid}`).set(auth('admin')).send({ enabled: true })).status).toBe(409);
    expect((await t.http.delete(`/api/v1/surveys/${disabled.body.data.uuid}`).set(auth('admin'))).status).toBe(200);
    expect((await t.http.get(`/api/v1/surveys/${survey.uuid}`).set(auth('outsider'))).status).toBe(404);
    expect((await t.http.patch(`/api/v1/surveys/${survey.uuid}`).set(auth('outsider')).send({ name: 'Mine' })).status).toBe(404);
    expect((await t.http.delete(`/api/v1/surveys/${survey.uuid}`).set(auth('outsider'))).status).toBe(404);
    expect((await t.http.get('/api/v1/surveys/not-a-uuid').set(auth('admin'))).status).toBe(400);
  });
});

describe('surveys: sent when a conversation of the sector is finished', () => {
  it('asks the contact, records the numbered answer on the finished conversation and thanks them', async () => {
    const survey = (await t.http.get('/api/v1/surveys').set(auth('admin'))).body.data[0] as Survey;
    const id = await finishedConversation('11944440001');
    // The conversation's sector names its survey (sector.survey_uuid).
    expect((await t.http.get(`/api/v1/conversations/${id}`).set(auth('admin'))).body.data.sector).toMatchObject({
      uuid: sectorId,
      survey_uuid: survey.uuid,
    });
    const asked = await messagesOf(id);
    expect(asked.at(-1)).toMatchObject({
      author: 'USER',
      content: 'How did we do?\n\n1. Great\n2. Okay\n3. Bad',
      tags: ['survey'],
      state: 'pending',
    });
    // The question is delivered like any reply: an outbox job for channel delivery.
    expect(await t.database.db.outboxJob.count({ where: { tenantId: acme.tenantId, queue: 'channel-delivery' } })).toBeGreaterThan(0);

    const answer = await inbound(t, channel.id, token, { phone: '11944440001', id: 'answer-1', content: '2' });
    expect(answer.status).toBe(202);
    expect(answer.body.data.conversation_uuid).toBe(id);
    const after = await messagesOf(id);
    expect(after.slice(-2)).toEqual([
      { author: 'CONTACT', content: '2', tags: ['survey-answer'], state: 'sent' },
      { author: 'USER', content: 'Thank you for your answer!', tags: ['survey'], state: 'pending' },
    ]);
    expect((await t.database.db.conversation.findUniqueOrThrow({ where: { id } })).state).toBe('closed');
    // A repeated delivery of the answer changes nothing.
    const again = await inbound(t, channel.id, token, { phone: '11944440001', id: 'answer-1', content: '2' });
    expect(again.body.data.conversation_uuid).toBe(id);
    expect(await messagesOf(id)).toHaveLength(after.length);

    const result = (await t.http.get(`/api/v1/surveys/${survey.uuid}`).set(auth('supervisor'))).body.data as SurveyResult;
    expect(result).toMatchObject({ sent: 1, answered: 1, pending: 0 });
    expect(result.answers).toEqual([
      { option: 'Great', count: 0 },
      { option: 'Okay', count: 1 },
      { option: 'Bad', count: 0 },
    ]);
    // The next message is an ordinary one: a new conversation in the queue.
    const next = await inbound(t, channel.id, token, { phone: '11944440001', id: 'later-1', content: 'Hi again' });
    expect(next.body.data.conversation_uuid).not.toBe(id);
  });

  it('treats anything but an answer as a new message and stops waiting', async () => {
    const id = await finishedConversation('11944440002');
    const reply = await inbound(t, channel.id, token, {
      phone: '11944440002',
      id: 'not-an-answer',
      content: 'Actually my order is still late',
    });
    expect(reply.status).toBe(202);
    expect(reply.body.data.conversation_uuid).not.toBe(id);
    const run = await t.database.db.surveyRun.findUniqueOrThrow({ where: { conversationId: id } });
    expect(run.state).toBe('skipped');
    const conv = await t.database.db.conversation.findUniqueOrThrow({ where: { id: reply.body.data.conversation_uuid } });
    expect(conv.state).toBe('waiting');
  });

  it('sends nothing for a sector without an enabled survey, or after the survey is deleted', async () => {
    const survey = (await t.http.get('/api/v1/surveys').set(auth('admin'))).body.data[0] as Survey;
    await t.http.patch(`/api/v1/surveys/${survey.uuid}`).set(auth('admin')).send({ enabled: false });
    const quiet = await finishedConversation('11944440003');
    expect((await messagesOf(quiet)).some((m) => m.tags.includes('survey'))).toBe(false);
    await t.http.patch(`/api/v1/surveys/${survey.uuid}`).set(auth('admin')).send({ enabled: true });
    const pending = await finishedConversation('11944440004');
    expect((await t.http.delete(`/api/v1/surveys/${survey.uuid}`).set(auth('admin'))).status).toBe(200);
    expect((await t.database.db.surveyRun.findUniqueOrThrow({ where: { conversationId: pending } })).state).toBe('expired');
    const reply = await inbound(t, channel.id, token, { phone: '11944440004', id: 'late-answer', content: '1' });
    expect(reply.body.data.conversation_uuid).not.toBe(pending);
    expect((await t.http.get('/api/v1/surveys').set(auth('admin'))).body.data).toEqual([]);
  });
});
