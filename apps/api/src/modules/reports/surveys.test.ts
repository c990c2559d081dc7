import type { ReportTable } from '@atende/contract';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customChannel } from '../conversations/fixtures';
import { ALL_ON, startTestApp, type TestApp } from '../../testing';

// Reports > Surveys (reports child surveys, flag surveys_report; "repeated answers are
// flagged"; filter rules): survey runs as the conversation engine records them.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let other: Awaited<ReturnType<TestApp['tenant']>>;
let nps = '';
let service = '';
const tokens: Record<string, string> = {};
const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000);
/** Yesterday and today in a zone's own calendar (its "today" may be UTC's yesterday or tomorrow). */
const dayIn = (zone: string, d: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
const rangeIn = (zone: string) =>
  `start=${dayIn(zone, new Date(Date.now() - 86_400_000))}&end=${dayIn(zone, new Date())}&timezone=${encodeURIComponent(zone)}`;
const range = rangeIn('UTC');
const report = (query: string) => `/api/v1/reports/surveys?${range}&${query}`;
/** Every acme run the fixtures made: when it was sent, to compute the per-day buckets in any zone. */
const sent: Date[] = [];

async function run(
  tenant: typeof acme,
  channelId: string,
  surveyId: string,
  f: {
    contact: string;
    userId?: number;
    sentAt: Date;
    state: 'answered' | 'pending' | 'expired';
    index?: number;
    answer?: string;
    answeredAt?: Date;
  },
) {
  const db = t.database.db;
  let contact = await db.contact.findFirst({ where: { tenantId: tenant.tenantId, name: f.contact } });
  contact ??= await db.contact.create({
    data: { tenantId: tenant.tenantId, name: f.contact, phoneNumber: `+55119${Math.floor(1e7 + Math.random() * 8e7)}` },
  });
  const last = await db.conversation.aggregate({ where: { tenantId: tenant.tenantId }, _max: { ticketNumber: true } });
  const conv = await db.conversation.create({
    data: {
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      contactId: contact.id,
      channelId,
      sectorId: tenant.sectors[0]!.id,
      userId: f.userId ?? null,
      state: 'closed',
      ticketNumber: (last._max.ticketNumber ?? 0) + 1,
      createdAt: new Date(f.sentAt.getTime() - 600_000),
      closedAt: f.sentAt,
    },
  });
  if (tenant === acme) sent.push(f.sentAt);
  await db.surveyRun.create({
    data: {
      tenantId: tenant.tenantId,
      surveyId,
      conversationId: conv.id,
      contactId: contact.id,
      channelId,
      sectorId: tenant.sectors[0]!.id,
      userId: f.userId ?? null,
      state: f.state,
      answerIndex: f.index ?? null,
      answer: f.answer ?? null,
      sentAt: f.sentAt,
      expiresAt: new Date(f.sentAt.getTime() + 86_400_000),
      answeredAt: f.answeredAt ?? null,
    },
  });
  return conv.id;
}

let repeatedConversation = '';
beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_IP: '1000' });
  acme = await t.tenant('Survey reports', { features: ALL_ON, users: { ana: ['agent'], bruno: ['agent'], supervisor: ['supervisor'] } });
  other = await t.tenant('Survey reports other', { features: ALL_ON, users: { supervisor: ['supervisor'] } });
  tokens.ana = await t.login('ana@surveyreports.test');
  tokens.supervisor = await t.login('supervisor@surveyreports.test');
  tokens.outsider = await t.login('supervisor@surveyreportsother.test');
  const db = t.database.db;
  await db.user.update({ where: { id: acme.users.ana!.id }, data: { username: 'Ana' } });
  await db.user.update({ where: { id: acme.users.bruno!.id }, data: { username: 'Bruno' } });
  const { channel } = await customChannel(db, acme.tenantId, acme.workspaceId, acme.sectors[0]!.id, 'survey-reports-0123456789');
  const survey = (tenant: typeof acme, name: string, options: string[]) =>
    db.survey.create({
      data: {
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        name,
        question: `${name}?`,
        options,
        greetingMessage: 'Thanks',
        sectorIds: [tenant.sectors[0]!.id],
      },
    });
  nps = (await survey(acme, 'NPS', ['1', '2', '3', '4', '5'])).id;
  service = (await survey(acme, 'Service', ['Good', 'Bad'])).id;
  const ana = acme.users.ana!.id;
  const bruno = acme.users.bruno!.id;
  // NPS: Carla answers 5 (Ana), then 3 on a later conversation (Ana): the second is repeated. Davi answers 4 (Bruno);
  // Eva has not answered yet (Bruno); Fabio's ran out (no agent).
  await run(acme, channel.id, nps, {
    contact: 'Carla',
    userId: ana,
    sentAt: ago(120),
    state: 'answered',
    index: 4,
    answer: '5',
    answeredAt: ago(118),
  });
  repeatedConversation = await run(acme, channel.id, nps, {
    contact: 'Carla',
    userId: ana,
    sentAt: ago(60),
    state: 'answered',
    index: 2,
    answer: '3',
    answeredAt: ago(58),
  });
  await run(acme, channel.id, nps, {
    contact: 'Davi',
    userId: bruno,
    sentAt: ago(50),
    state: 'answered',
    index: 3,
    answer: '4',
    answeredAt: ago(49),
  });
  await run(acme, channel.id, nps, { contact: 'Eva', userId: bruno, sentAt: ago(40), state: 'pending' });
  await run(acme, channel.id, nps, { contact: 'Fabio', sentAt: ago(30), state: 'expired' });
  // Service: worded answers have no score. Davi answered NPS, not Service: not repeated.
  await run(acme, channel.id, service, {
    contact: 'Davi',
    userId: ana,
    sentAt: ago(20),
    state: 'answered',
    index: 0,
    answer: 'Good',
    answeredAt: ago(19),
  });
  // Another tenant's answers never count.
  const { channel: otherChannel } = await customChannel(
    db,
    other.tenantId,
    other.workspaceId,
    other.sectors[0]!.id,
    'survey-reports-other-0123456789',
  );
  const outsiderSurvey = (await survey(other, 'NPS', ['1', '2'])).id;
  await run(other, otherChannel.id, outsiderSurvey, {
    contact: 'Outsider',
    sentAt: ago(10),
    state: 'answered',
    index: 1,
    answer: '2',
    answeredAt: ago(9),
  });
});
afterAll(() => t.close());

const table = async (path: string, who = 'supervisor'): Promise<ReportTable> => {
  const res = await t.http.get(path).set(auth(who));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as ReportTable;
};
const binary = (path: string, language: string) =>
  t.http
    .get(path)
    .set(auth('supervisor'))
    .set('Accept-Language', language)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });

describe('surveys report (flag surveys_report)', () => {
  it('per survey: sent, answered, waiting, no answer, answer rate, the average of numeric answers, repeated answers', async () => {
    const data = await table(report('report_type=survey'));
    expect(data.rows).toEqual([
      {
        survey: 'NPS',
        question: 'NPS?',
        sent: 5,
        answered: 3,
        waiting: 1,
        no_answer: 1,
        answer_rate: '60.00%',
        average_score: 4,
        repeated: 1,
      },
      {
        survey: 'Service',
        question: 'Service?',
        sent: 1,
        answered: 1,
        waiting: 0,
        no_answer: 0,
        answer_rate: '100.00%',
        average_score: null,
        repeated: 0,
      },
    ]);
    // The default type is per survey; one survey narrows it.
    expect((await table(report(`survey_uuid=${service}`))).rows.map((r) => r.survey)).toEqual(['Service']);
  });

  it('per option: every option of the survey with its count and share, unanswered options too', async () => {
    const data = await table(report(`report_type=option&survey_uuid=${nps}`));
    expect(data.rows.map((r) => [r.option, r.answers, r.share, r.repeated])).toEqual([
      ['1', 0, '0.00%', 0],
      ['2', 0, '0.00%', 0],
      ['3', 1, '33.33%', 1],
      ['4', 1, '33.33%', 0],
      ['5', 1, '33.33%', 0],
    ]);
  });

  it("per agent: the answers of each agent's conversations; one no agent took has none", async () => {
    const data = await table(report('report_type=agent'));
    expect(data.rows).toEqual([
      { agent: 'Ana', survey: 'NPS', sent: 2, answered: 2, answer_rate: '100.00%', average_score: 4, repeated: 1 },
      { agent: 'Ana', survey: 'Service', sent: 1, answered: 1, answer_rate: '100.00%', average_score: null, repeated: 0 },
      { agent: 'Bruno', survey: 'NPS', sent: 2, answered: 1, answer_rate: '50.00%', average_score: 4, repeated: 0 },
      { agent: null, survey: 'NPS', sent: 1, answered: 0, answer_rate: '0.00%', average_score: null, repeated: 0 },
    ]);
    const bruno = await table(report(`report_type=agent&user_id=${acme.users.bruno!.id}`));
    expect(bruno.rows.map((r) => r.agent)).toEqual(['Bruno']);
  });

  it('answer by answer, newest first, the repeated one flagged, with its conversation', async () => {
    const data = await table(report('report_type=answers'));
    expect(data.rows.map((r) => [r.contact, r.survey, r.answer, r.score, r.repeated, r.agent])).toEqual([
      ['Davi', 'Service', 'Good', null, 'No', 'Ana'],
      ['Davi', 'NPS', '4', 4, 'No', 'Bruno'],
      ['Carla', 'NPS', '3', 3, 'Yes', 'Ana'],
      ['Carla', 'NPS', '5', 5, 'No', 'Ana'],
    ]);
    expect(data.rows[2]!.conversation_uuid).toBe(repeatedConversation);
    expect(data.columns.find((c) => c.key === 'repeated')).toMatchObject({ translated: true });
  });

  it("per day in the caller's zone", async () => {
    for (const zone of ['UTC', 'Pacific/Kiritimati', 'America/Sao_Paulo']) {
      const data = await table(`/api/v1/reports/surveys?${rangeIn(zone)}&report_type=day`);
      const perDay = new Map<string, number>();
      for (const at of sent) perDay.set(dayIn(zone, at), (perDay.get(dayIn(zone, at)) ?? 0) + 1);
      expect(
        data.rows.map((r) => [r.day, r.sent]),
        zone,
      ).toEqual([...perDay.entries()].sort());
    }
  });

  it("downloads CSV and Excel with the headers in the requester's language, numbers as numbers", async () => {
    const csv = await t.http
      .get(`${report('report_type=survey')}&format=csv`)
      .set(auth('supervisor'))
      .set('Accept-Language', 'pt-BR,pt;q=0.9');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="surveys-by-survey-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = parse(csv.text, { bom: true }) as string[][];
    expect(lines[0]).toEqual([
      'Pesquisa',
      'Pergunta',
      'Enviadas',
      'Atendidos',
      'Aguardando resposta',
      'Sem resposta',
      'Taxa de atendimento',
      'Nota média',
      'Respostas repetidas',
    ]);
    expect(lines[1]).toEqual(['NPS', 'NPS?', '5', '3', '1', '1', '60.00%', '4', '1']);
    const en = parse(
      (
        await t.http
          .get(`${report('report_type=answers')}&format=csv`)
          .set(auth('supervisor'))
          .set('Accept-Language', 'en-US')
      ).text,
      { bom: true },
    ) as string[][];
    expect(en[0]!.slice(0, 6)).toEqual(['Answered at', 'Survey', 'Question', 'Answer', 'Score', 'Repeated']);
    expect(en.slice(1).map((l) => l[5])).toEqual(['No', 'No', 'Yes', 'No']);

    const xlsx = await binary(`${report('report_type=answers')}&format=excel`, 'pt-BR');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(new Uint8Array(xlsx.body as Buffer).buffer);
    const sheet = book.worksheets[0]!;
    const header = sheet.getRow(1).values as unknown[];
    expect(header.slice(1, 7)).toEqual(['Respondida em', 'Pesquisa', 'Pergunta', 'Resposta', 'Nota', 'Repetida']);
    // The repeated answer (third, newest first): a date cell, its score a number, the flag in Portuguese.
    const row = sheet.getRow(4);
    expect(row.getCell(1).value).toBeInstanceOf(Date);
    expect(row.getCell(5).value).toBe(3);
    expect(row.getCell(6).value).toBe('Sim');
    expect(row.getCell(header.indexOf('Ticket')).value).toEqual(expect.any(Number));
    const agents = await binary(`${report('report_type=agent')}&format=excel`, 'en');
    const agentBook = new ExcelJS.Workbook();
    await agentBook.xlsx.load(new Uint8Array(agents.body as Buffer).buffer);
    expect(agentBook.worksheets[0]!.getRow(2).values).toEqual([undefined, 'Ana', 'NPS', 2, 2, '100.00%', 4, 1]);
    // JSON keeps the keys and English values.
    const json = JSON.parse(
      (
        await t.http
          .get(`${report('report_type=answers')}&format=json`)
          .set(auth('supervisor'))
          .set('Accept-Language', 'pt-BR')
      ).text,
    ) as Record<string, unknown>[];
    expect(json[2]).toMatchObject({ repeated: 'Yes', score: 3 });
  });

  it('refuses bad ranges, types and ids with a 400; agents, other tenants and a disabled flag get nothing', async () => {
    const today = dayIn('UTC', new Date());
    const cases: [string, string, string][] = [
      [`end=${today}`, 'Please define a start date for this report.', 'report_start_required'],
      [`start=2999-01-01&end=2999-01-02`, 'Cannot load report for a start date in future.', 'report_start_future'],
      ['start=2026-01-01&end=2026-03-01', 'O intervalo máximo é de 31 dias.', 'report_range_too_long'],
      [`${range}&report_type=weekly`, 'Invalid query: report_type: Invalid report type', 'validation_failed'],
    ];
    for (const [q, message, code] of cases) {
      const res = await t.http.get(`/api/v1/reports/surveys?${q}`).set(auth('supervisor'));
      expect(res.status, q).toBe(400);
      expect(res.body, q).toMatchObject({ error_message: message, code });
    }
    expect((await t.http.get(report('survey_uuid=nope')).set(auth('supervisor'))).status).toBe(400);
    const download = await t.http.get(`/api/v1/reports/surveys?end=${today}&format=csv`).set(auth('supervisor'));
    expect(download.status).toBe(400);
    expect(download.headers['content-disposition']).toBeUndefined();
    expect((await t.http.get(report('')).set(auth('ana'))).status).toBe(403);
    // The other tenant sees its own answer only, and acme's survey id finds nothing there.
    expect((await table(report('report_type=answers'), 'outsider')).rows.map((r) => r.contact)).toEqual(['Outsider']);
    expect((await table(report(`survey_uuid=${nps}`), 'outsider')).rows).toEqual([]);
    await t.database.db.tenant.update({
      where: { id: acme.tenantId },
      data: { config: { features: { ...ALL_ON, surveys_report: false } } },
    });
    try {
      expect((await t.http.get(report('')).set(auth('supervisor'))).status).toBe(403);
    } finally {
      await t.database.db.tenant.update({ where: { id: acme.tenantId }, data: { config: { features: ALL_ON } } });
    }
  });
});
