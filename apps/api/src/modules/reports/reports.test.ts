import type { ReportTable } from '@atende/contract';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customChannel } from '../conversations/fixtures';
import { ALL_ON, startTestApp, type TestApp } from '../../testing';
import { zonedText } from '@atende/core';
import { neutralise } from './export';
import { exportPaging } from './table';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let other: Awaited<ReturnType<TestApp['tenant']>>;
let sector2: string;
let otherSector: string;
/** Every conversation of acme the fixtures made, to compute expected buckets and averages. */
const made: { sectorId: string | null; createdAt: Date; timeAnswer?: Date; closedAt?: Date }[] = [];
const tokens: Record<string, string> = {};
const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000);
const day = (d: Date) => d.toISOString().slice(0, 10);
// Yesterday and today in UTC: every row below is from the last hour, so inside whatever the clock says.
const range = `start=${day(new Date(Date.now() - 86_400_000))}&end=${day(new Date())}&timezone=UTC`;
/** Yesterday and today in a zone's own calendar: its "today" may still be UTC's yesterday, and a later end is refused. */
const dayIn = (zone: string, d: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
const rangeIn = (zone: string) =>
  `start=${dayIn(zone, new Date(Date.now() - 86_400_000))}&end=${dayIn(zone, new Date())}&timezone=${encodeURIComponent(zone)}`;

async function conversation(
  tenant: typeof acme,
  channelId: string,
  f: {
    sectorId: string | null;
    userId?: number;
    createdAt: Date;
    timeAnswer?: Date;
    closedAt?: Date;
    contact?: string;
    messages?: { author: 'USER' | 'CONTACT'; userId?: number; internal?: boolean }[];
  },
) {
  const db = t.database.db;
  if (tenant === acme) made.push(f);
  const contact = await db.contact.create({
    data: { tenantId: tenant.tenantId, name: f.contact ?? 'Contact', phoneNumber: `+55119${Math.floor(1e7 + Math.random() * 8e7)}` },
  });
  const last = await db.conversation.aggregate({ where: { tenantId: tenant.tenantId }, _max: { ticketNumber: true } });
  const conv = await db.conversation.create({
    data: {
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      contactId: contact.id,
      channelId,
      sectorId: f.sectorId,
      userId: f.userId ?? null,
      state: f.closedAt ? 'closed' : f.timeAnswer ? 'answered' : 'waiting',
      ticketNumber: (last._max.ticketNumber ?? 0) + 1,
      createdAt: f.createdAt,
      timeJoin: f.createdAt,
      timeAnswer: f.timeAnswer ?? null,
      closedAt: f.closedAt ?? null,
    },
  });
  for (const [i, m] of (f.messages ?? []).entries()) {
    await db.message.create({
      data: {
        id: crypto.randomUUID(),
        tenantId: tenant.tenantId,
        conversationId: conv.id,
        author: m.author,
        userId: m.userId ?? null,
        content: `m${i}`,
        internal: m.internal ?? false,
        createdAt: new Date(f.createdAt.getTime() + (i + 1) * 1000),
      },
    });
  }
  return conv;
}

beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_IP: '1000' });
  acme = await t.tenant('Reports', {
    features: ALL_ON,
    users: { ana: ['agent'], bruno: ['agent'], supervisor: ['supervisor'], manager: ['manager'] },
  });
  other = await t.tenant('ReportsOther', { features: ALL_ON, users: { ana: ['agent'], manager: ['manager'] } });
  for (const name of ['ana', 'supervisor', 'manager']) tokens[name] = await t.login(`${name}@reports.test`);
  tokens.outsider = await t.login('manager@reportsother.test');
  const db = t.database.db;
  await db.user.update({ where: { id: acme.users.ana!.id }, data: { username: 'Ana' } });
  await db.user.update({ where: { id: acme.users.bruno!.id }, data: { username: 'Bruno' } });
  sector2 = (await db.sector.create({ data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, name: 'Billing' } })).id;
  const { channel } = await customChannel(db, acme.tenantId, acme.workspaceId, acme.sectors[0]!.id, 'reports-token-0123456789');
  const s1 = acme.sectors[0]!.id;
  const ana = acme.users.ana!.id;
  const bruno = acme.users.bruno!.id;
  // Ana: answered after 120 s, closed after 1200 s; answered after 60 s, still open. Two public messages, one note.
  await conversation(acme, channel.id, {
    sectorId: s1,
    userId: ana,
    createdAt: ago(60),
    timeAnswer: ago(58),
    closedAt: ago(40),
    contact: 'Zé Carlos',
    messages: [
      { author: 'CONTACT' },
      { author: 'USER', userId: ana },
      { author: 'USER', userId: ana },
      { author: 'USER', userId: ana, internal: true },
    ],
  });
  await conversation(acme, channel.id, { sectorId: s1, userId: ana, createdAt: ago(30), timeAnswer: ago(29) });
  // Bruno: answered after 600 s, closed after 900 s, one message. The contact's name is a formula.
  await conversation(acme, channel.id, {
    sectorId: s1,
    userId: bruno,
    createdAt: ago(20),
    timeAnswer: ago(10),
    closedAt: ago(5),
    contact: '=HYPERLINK("http://x")',
    messages: [{ author: 'USER', userId: bruno }],
  });
  // Closed without an answer, in Billing.
  await conversation(acme, channel.id, { sectorId: sector2, createdAt: ago(15), closedAt: ago(14), contact: 'Dora' });
  // Another tenant's conversation never counts.
  const { channel: otherChannel } = await customChannel(
    db,
    other.tenantId,
    other.workspaceId,
    other.sectors[0]!.id,
    'reports-other-0123456789',
  );
  otherSector = other.sectors[0]!.id;
  await conversation(other, otherChannel.id, {
    sectorId: otherSector,
    userId: other.users.ana!.id,
    createdAt: ago(10),
    timeAnswer: ago(9),
    closedAt: ago(8),
    contact: 'Outsider',
    messages: [{ author: 'USER', userId: other.users.ana!.id }],
  });
});
afterAll(() => t.close());

const table = async (path: string, who = 'supervisor'): Promise<ReportTable> => {
  const res = await t.http.get(path).set(auth(who));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as ReportTable;
};
const sum = (rows: ReportTable['rows'], key: string) => rows.reduce((s, r) => s + Number(r[key]), 0);

describe('admin reports', () => {
  it('agents productivity: answered, closed, average times as hh:mm:ss, public messages', async () => {
    const data = await table(`/api/v1/reports/agents/productivity?${range}`);
    expect(data.columns.map((c) => c.key)).toEqual(['agent', 'answered', 'closed', 'avg_first_response', 'avg_session', 'messages']);
    expect(data.rows).toEqual([
      { agent: 'Ana', answered: 2, closed: 1, avg_first_response: '00:01:30', avg_session: '00:20:00', messages: 2 },
      { agent: 'Bruno', answered: 1, closed: 1, avg_first_response: '00:10:00', avg_session: '00:15:00', messages: 1 },
    ]);
    const onlyBruno = await table(`/api/v1/reports/agents/productivity?${range}&user_id=${acme.users.bruno!.id}`);
    expect(onlyBruno.rows.map((r) => r.agent)).toEqual(['Bruno']);
  });

  it('session rate per day and per agent', async () => {
    const trend = await table(`/api/v1/reports/summary/conversations?${range}&report_type=trend`);
    expect([
      sum(trend.rows, 'new_sessions'),
      sum(trend.rows, 'answered'),
      sum(trend.rows, 'closed'),
      sum(trend.rows, 'unanswered'),
    ]).toEqual([4, 3, 3, 1]);
    const agents = await table(`/api/v1/reports/summary/conversations?${range}&report_type=agent`);
    expect(agents.rows).toEqual([
      { agent: 'Ana', new_sessions: 2, answered: 2, closed: 1, unanswered: 0, answer_rate: '100.00%' },
      { agent: 'Bruno', new_sessions: 1, answered: 1, closed: 1, unanswered: 0, answer_rate: '100.00%' },
      { agent: null, new_sessions: 1, answered: 0, closed: 1, unanswered: 1, answer_rate: '0.00%' },
    ]);
    expect((await t.http.get(`/api/v1/reports/summary/conversations?${range}&report_type=week`).set(auth('supervisor'))).status).toBe(400);
  });

  it('volume trends by weekday and by hour, every bucket present', async () => {
    const weekday = await table(`/api/v1/reports/trends/conversations?${range}&report_type=weekday`);
    expect(weekday.rows).toHaveLength(7);
    expect(weekday.rows[0]!.weekday).toBe('Monday');
    expect(sum(weekday.rows, 'sessions')).toBe(4);
    const hour = await table(`/api/v1/reports/trends/conversations?${range}&report_type=hour`);
    expect(hour.rows).toHaveLength(24);
    expect(hour.rows[13]!.hour).toBe('13:00');
    expect(sum(hour.rows, 'sessions')).toBe(4);
  });

  it('session metrics behind their flag; login history for managers', async () => {
    const metrics = await table(`/api/v1/reports/metrics/conversations?${range}&sector_uuid=${sector2}`);
    expect(sum(metrics.rows, 'sessions')).toBe(1);
    const logins = await table(`/api/v1/reports/login_history?${range}`, 'manager');
    expect(
      logins.rows
        .filter((r) => r.event === 'login')
        .map((r) => r.email)
        .sort(),
    ).toEqual(['ana@reports.test', 'manager@reports.test', 'supervisor@reports.test']);
    expect((await t.http.get(`/api/v1/reports/login_history?${range}`).set(auth('supervisor'))).status).toBe(403);
    expect((await table(`/api/v1/reports/login_history?${range}`, 'outsider')).rows.every((r) => r.email !== 'ana@reports.test')).toBe(
      true,
    );
  });

  it('chat history lists the finished conversations, filtered by sector or contact', async () => {
    const all = await table(`/api/v1/reports/chat_history?${range}`);
    expect(all.rows.map((r) => r.contact)).toEqual(['=HYPERLINK("http://x")', 'Dora', 'Zé Carlos']);
    expect(all.rows[2]).toMatchObject({ agent: 'Ana', duration: '00:20:00', channel: 'API' });
    expect((await table(`/api/v1/reports/chat_history?${range}&sector_uuid=${sector2}`)).rows.map((r) => r.contact)).toEqual(['Dora']);
    expect((await table(`/api/v1/reports/chat_history?${range}&contact=carl`)).rows.map((r) => r.contact)).toEqual(['Zé Carlos']);
    const short = await t.http.get(`/api/v1/reports/chat_history?${range}&contact=ca`).set(auth('supervisor'));
    expect(short.status).toBe(400);
    expect(short.body.error_message).toBe('Filter contact should have at least 3 characters');
  });

  it('exports the same rows as CSV, Excel and JSON, formula cells neutralised', async () => {
    const screen = await table(`/api/v1/reports/chat_history?${range}`);
    const csv = await t.http.get(`/api/v1/reports/chat_history?${range}&format=csv`).set(auth('supervisor'));
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="chat-history-\d{4}-\d{2}-\d{2}\.csv"/);
    // The file starts with a UTF-8 byte order mark (Excel reads accents right); parsers skip it.
    expect(csv.text.startsWith('\uFEFF')).toBe(true);
    const lines = parse(csv.text, { columns: true, bom: true }) as Record<string, string>[];
    // The header is the columns' labels (English without a Portuguese Accept-Language).
    expect(lines.map((l) => l.Ticket)).toEqual(screen.rows.map((r) => String(r.ticket)));
    expect(lines[0]!.Contact).toBe('\'=HYPERLINK("http://x")');
    const xlsx = await t.http
      .get(`/api/v1/reports/agents/productivity?${range}&format=excel`)
      .set(auth('supervisor'))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(new Uint8Array(xlsx.body as Buffer).buffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'Agent',
      'Answered sessions',
      'Closed sessions',
      'Average first response time',
      'Average session time',
      'Messages sent',
    ]);
    // Numbers are numbers in Excel; durations stay the text the screen shows.
    expect(sheet.getRow(2).values).toEqual([undefined, 'Ana', 2, 1, '00:01:30', '00:20:00', 2]);
    expect(sheet.rowCount).toBe(3);
    const json = await t.http.get(`/api/v1/reports/agents/productivity?${range}&format=json`).set(auth('supervisor'));
    expect(JSON.parse(json.text)).toEqual((await table(`/api/v1/reports/agents/productivity?${range}`)).rows);
  });

  it('applies filter rules and the roles', async () => {
    const today = day(new Date());
    const cases: [string, string][] = [
      [`end=${today}`, 'Please define a start date for this report.'],
      [`start=${today}`, 'Please define an end date for this report.'],
      [`start=2999-01-01&end=2999-01-02`, 'Cannot load report for a start date in future.'],
      [`start=2026-01-01&end=2026-03-01`, 'O intervalo máximo é de 31 dias.'],
    ];
    for (const [q, message] of cases) {
      const res = await t.http.get(`/api/v1/reports/agents/productivity?${q}`).set(auth('supervisor'));
      expect(res.status).toBe(400);
      expect(res.body.error_message).toBe(message);
    }
    expect((await t.http.get(`/api/v1/reports/agents/productivity?${range}`).set(auth('ana'))).status).toBe(403);
    expect((await t.http.get(`/api/v1/reports/agents/productivity?${range}&sector_uuid=x`).set(auth('supervisor'))).status).toBe(400);
    await t.database.db.tenant.update({
      where: { id: acme.tenantId },
      data: { config: { features: { ...ALL_ON, session_metrics_report: false } } },
    });
    expect((await t.http.get(`/api/v1/reports/metrics/conversations?${range}`).set(auth('supervisor'))).status).toBe(403);
    await t.database.db.tenant.update({ where: { id: acme.tenantId }, data: { config: { features: ALL_ON } } });
    expect((await t.http.get(`/api/v1/reports/metrics/conversations?${range}`).set(auth('supervisor'))).status).toBe(200);
  });
});

/** Every report the admin screens ask for, with the query that picks its variant. */
const REPORTS = [
  'agents/productivity',
  'summary/conversations?report_type=trend',
  'summary/conversations?report_type=agent',
  'trends/conversations?report_type=weekday',
  'trends/conversations?report_type=hour',
  'metrics/conversations',
  'login_history',
  'chat_history',
].map((p) => `/api/v1/reports/${p}${p.includes('?') ? '&' : '?'}${range}`);

const binary = (path: string, who = 'manager') =>
  t.http
    .get(path)
    .set(auth(who))
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
const hms = (seconds: number) => new Date(Math.round(seconds) * 1000).toISOString().slice(11, 19);
const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('admin reports: every export is the table, numbers from the fixtures, tenancy', () => {
  it('CSV, Excel and JSON of every report parse back to the rows on screen', async () => {
    for (const path of REPORTS) {
      const screen = await table(path, 'manager');
      expect(screen.rows.length, path).toBeGreaterThan(0);
      const keys = screen.columns.map((c) => c.key);
      const labels = screen.columns.map((c) => c.label);
      // Times are written in the asked zone (UTC here), as "yyyy-mm-dd hh:mm:ss" in CSV and as date cells in Excel.
      const isInstant = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T.*Z$/.test(v);
      const cells = screen.rows.map((r) => keys.map((k) => (isInstant(r[k]) ? zonedText(r[k], 'UTC') : neutralise(String(r[k] ?? '')))));

      const json = await t.http.get(`${path}&format=json`).set(auth('manager'));
      expect(json.headers['content-disposition'], path).toMatch(/\.json"$/);
      expect(JSON.parse(json.text), path).toEqual(screen.rows);

      const csv = await t.http.get(`${path}&format=csv`).set(auth('manager'));
      expect(csv.status, path).toBe(200);
      expect(parse(csv.text, { bom: true }) as string[][], path).toEqual([labels, ...cells]);

      const xlsx = await binary(`${path}&format=excel`);
      expect(xlsx.headers['content-type'], path).toContain('spreadsheetml');
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(new Uint8Array(xlsx.body as Buffer).buffer);
      const sheet = book.worksheets[0]!;
      const read: string[][] = [];
      const excelText = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 19).replace('T', ' ') : String(v ?? ''));
      sheet.eachRow({ includeEmpty: true }, (row) => read.push(keys.map((_, i) => excelText(row.getCell(i + 1).value))));
      expect(read, path).toEqual([labels, ...cells]);
    }
  });

  it("writes times in the caller's zone: CSV text and Excel date cells, JSON as instants", async () => {
    const zoned = rangeIn('America/Sao_Paulo');
    const path = `/api/v1/reports/chat_history?${zoned}`;
    const json = JSON.parse((await t.http.get(`${path}&format=json`).set(auth('manager'))).text) as Record<string, unknown>[];
    const key = Object.keys(json[0]!).find((k) => typeof json[0]![k] === 'string' && /T.*Z$/.test(json[0]![k] as string))!;
    expect(key).toBeTruthy();
    const instant = json[0]![key] as string;
    // São Paulo is UTC-3 all year (no daylight saving since 2019).
    const local = new Date(Date.parse(instant) - 3 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
    const csv = parse((await t.http.get(`${path}&format=csv`).set(auth('manager'))).text, { columns: true, bom: true }) as Record<
      string,
      string
    >[];
    const label = (await table(path, 'manager')).columns.find((c) => c.key === key)!.label;
    expect(csv[0]![label]).toBe(local);
    const xlsx = await binary(`${path}&format=excel`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(new Uint8Array(xlsx.body as Buffer).buffer);
    const sheet = book.worksheets[0]!;
    const column = (sheet.getRow(1).values as unknown[]).indexOf(label);
    const cell = sheet.getRow(2).getCell(column);
    expect(cell.value).toBeInstanceOf(Date);
    expect((cell.value as Date).toISOString().slice(0, 19).replace('T', ' ')).toBe(local);
    expect(cell.numFmt).toBe('yyyy-mm-dd hh:mm:ss');
  });

  it('a long chat history is downloaded page after page, the same rows in the same order', async () => {
    const path = `/api/v1/reports/chat_history?${range}`;
    const whole = JSON.parse((await t.http.get(`${path}&format=json`).set(auth('manager'))).text) as unknown[];
    exportPaging.rows = 1;
    try {
      expect(JSON.parse((await t.http.get(`${path}&format=json`).set(auth('manager'))).text)).toEqual(whole);
      expect(JSON.parse((await t.http.get(`${path}&sector_uuid=${sector2}&format=json`).set(auth('manager'))).text)).toHaveLength(1);
    } finally {
      exportPaging.rows = 5_000;
    }
    expect(whole).toHaveLength(3);
  });

  it('an empty report downloads as its header alone, or [] in JSON', async () => {
    const path = `/api/v1/reports/chat_history?${range}&sector_uuid=${otherSector}`;
    const header = (await table(path, 'manager')).columns.map((c) => c.label);
    expect(JSON.parse((await t.http.get(`${path}&format=json`).set(auth('manager'))).text)).toEqual([]);
    expect(parse((await t.http.get(`${path}&format=csv`).set(auth('manager'))).text, { bom: true })).toEqual([header]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(new Uint8Array((await binary(`${path}&format=excel`)).body as Buffer).buffer);
    expect(book.worksheets[0]!.rowCount).toBe(1);
    expect(book.worksheets[0]!.getRow(1).values).toEqual([undefined, ...header]);
  });

  it('neutralises formula cells but leaves phone numbers and negative figures as they are', () => {
    expect(['+5511987654321', '-12.5', '=1+1', '+1+cmd|calc', '-2-3', '@SUM(A1)', '\tx', 'plain'].map(neutralise)).toEqual([
      '+5511987654321',
      '-12.5',
      "'=1+1",
      "'+1+cmd|calc",
      "'-2-3",
      "'@SUM(A1)",
      "'\tx",
      'plain',
    ]);
  });
  // The forms the first rule missed.
  it('neutralises formulas behind a semicolon, spaces, tabs, new lines, quotes, and in full-width characters', () => {
    const sneaky = [
      ';=1+1',
      ' =cmd|calc',
      '\t=1+1',
      '\n=1',
      '"=HYPERLINK(1)"',
      "'=1+1",
      '\uFF1D1+1',
      '\uFF0B1',
      '\uFF0D1',
      '\uFF20SUM(A1)',
      '  @x',
    ];
    for (const cell of sneaky) expect(neutralise(cell), JSON.stringify(cell)).toBe(`'${cell}`);
    expect(['Ana; Bia', 'a = b', '+55 11 98765-4321'].map(neutralise)).toEqual(['Ana; Bia', 'a = b', "'+55 11 98765-4321"]);
  });

  // The download's header, and the values the screen translates, in the requester's language.
  it('writes the CSV and Excel headers and translated values in Portuguese for a Portuguese Accept-Language, English otherwise', async () => {
    const path = `/api/v1/reports/trends/conversations?${range}&report_type=weekday`;
    const csv = (language: string) => t.http.get(`${path}&format=csv`).set(auth('manager')).set('Accept-Language', language);
    const pt = parse((await csv('pt-BR,pt;q=0.9,en;q=0.8')).text, { bom: true }) as string[][];
    expect(pt[0]).toEqual(['Dia da semana', 'Atendimentos', 'Participação']);
    expect(pt.slice(1).map((r) => r[0])).toEqual([
      'Segunda-feira',
      'Terça-feira',
      'Quarta-feira',
      'Quinta-feira',
      'Sexta-feira',
      'Sábado',
      'Domingo',
    ]);
    // The preferred language decides: an English browser that also reads Portuguese gets English.
    const en = parse((await csv('en-US,en;q=0.9,pt;q=0.8')).text, { bom: true }) as string[][];
    expect(en[0]).toEqual(['Weekday', 'Sessions', 'Share']);
    expect(en[1]![0]).toBe('Monday');
    const book = new ExcelJS.Workbook();
    const xlsx = await t.http
      .get(`/api/v1/reports/agents/productivity?${range}&format=excel`)
      .set(auth('manager'))
      .set('Accept-Language', 'pt-BR')
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    await book.xlsx.load(new Uint8Array(xlsx.body as Buffer).buffer);
    expect(book.worksheets[0]!.getRow(1).values).toEqual([
      undefined,
      'Agente',
      'Atendimentos atendidos',
      'Atendimentos finalizados',
      'Tempo médio de primeira resposta',
      'Tempo médio de atendimento',
      'Mensagens enviadas',
    ]);
    // JSON keeps the keys and the values as the api answers them.
    const json = JSON.parse((await t.http.get(`${path}&format=json`).set(auth('manager')).set('Accept-Language', 'pt-BR')).text) as Record<
      string,
      unknown
    >[];
    expect(json[0]).toMatchObject({ weekday: 'Monday' });
  });

  it("the Accept header picks the download when format is absent (the campaign report's rule)", async () => {
    const csv = await t.http.get(`/api/v1/reports/agents/productivity?${range}`).set(auth('supervisor')).set('Accept', 'text/csv');
    // Without format the screen's table answers: the Accept header only matters for downloads.
    expect(csv.status).toBe(200);
    expect(csv.body.data.rows).toHaveLength(2);
  });

  it("hours and days are the caller's time zone", async () => {
    const zone = 'America/Sao_Paulo';
    const hourOf = (d: Date) => Number(new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(d));
    const expected = Array.from({ length: 24 }, (_, h) => made.filter((c) => hourOf(c.createdAt) === h).length);
    const hours = await table(`/api/v1/reports/trends/conversations?${rangeIn(zone)}&report_type=hour`);
    expect(hours.rows.map((r) => r.sessions)).toEqual(expected);
    const dayOf = (d: Date) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
    const days = await table(`/api/v1/reports/summary/conversations?${rangeIn(zone)}&report_type=trend`);
    const perDay = new Map<string, number>();
    for (const c of made) perDay.set(dayOf(c.createdAt), (perDay.get(dayOf(c.createdAt)) ?? 0) + 1);
    expect(days.rows.map((r) => [r.day, r.new_sessions])).toEqual([...perDay.entries()].sort());
  });

  it('session metrics: average and longest wait, first response and session time per day', async () => {
    const s1 = acme.sectors[0]!.id;
    const data = await table(`/api/v1/reports/metrics/conversations?${range}&sector_uuid=${s1}`);
    const byDay = new Map<string, typeof made>();
    for (const c of made.filter((m) => m.sectorId === s1)) byDay.set(day(c.createdAt), [...(byDay.get(day(c.createdAt)) ?? []), c]);
    const secs = (a: Date, b: Date) => (a.getTime() - b.getTime()) / 1000;
    const expected = [...byDay.entries()].sort().map(([d, cs]) => {
      const answered = cs.filter((c) => c.timeAnswer);
      const closed = cs.filter((c) => c.closedAt);
      const waits = answered.map((c) => secs(c.timeAnswer!, c.createdAt));
      return {
        day: d,
        sessions: cs.length,
        avg_wait: waits.length ? hms(avg(waits)) : null,
        max_wait: waits.length ? hms(Math.max(...waits)) : null,
        avg_first_response: waits.length ? hms(avg(waits)) : null,
        avg_session: closed.length ? hms(avg(closed.map((c) => secs(c.closedAt!, c.createdAt)))) : null,
      };
    });
    expect(data.rows).toEqual(expected);
  });

  it("another tenant's conversations, messages, sign-ins and ids never count", async () => {
    // The outsider (manager of the other tenant) sees only its own one conversation and agent.
    const productivity = await table(`/api/v1/reports/agents/productivity?${range}`, 'outsider');
    expect(productivity.rows).toEqual([
      { agent: expect.any(String), answered: 1, closed: 1, avg_first_response: '00:01:00', avg_session: '00:02:00', messages: 1 },
    ]);
    const history = await table(`/api/v1/reports/chat_history?${range}`, 'outsider');
    expect(history.rows.map((r) => r.contact)).toEqual(['Outsider']);
    const logins = await table(`/api/v1/reports/login_history?${range}`, 'outsider');
    expect(logins.rows.map((r) => r.email)).toEqual(['manager@reportsother.test']);
    // Filtering acme's reports by the other tenant's sector or agent finds nothing of theirs.
    for (const path of REPORTS.filter((p) => !p.includes('login_history'))) {
      const bySector = await table(`${path}&sector_uuid=${otherSector}`, 'manager');
      expect(
        bySector.rows.reduce((n, r) => n + Number(r.sessions ?? r.new_sessions ?? r.answered ?? (r.ticket ? 1 : 0)), 0),
        path,
      ).toBe(0);
    }
    const byAgent = await table(`/api/v1/reports/agents/productivity?${range}&user_id=${other.users.ana!.id}`, 'manager');
    expect(byAgent.rows).toEqual([]);
  });

  it('the end date may not be in the future nor before the start; 31 days is the longest range', async () => {
    const tomorrow = day(new Date(Date.now() + 86_400_000));
    const today = day(new Date());
    const cases: [string, number, string | null, string | null][] = [
      [`start=${today}&end=${tomorrow}`, 400, 'Cannot load report for an end date in future.', 'report_end_future'],
      [
        `start=${today}&end=${day(new Date(Date.now() - 2 * 86_400_000))}`,
        400,
        'The start date must not be after the end date.',
        'report_end_before_start',
      ],
      ['start=2026-01-01&end=2026-01-31', 200, null, null],
      ['start=2026-01-01&end=2026-02-01', 400, 'O intervalo máximo é de 31 dias.', 'report_range_too_long'],
      ['start=2026-02-30&end=2026-03-01', 400, 'Please define a start date for this report.', 'report_start_required'],
    ];
    for (const path of REPORTS.map((p) => p.replace(range, ''))) {
      for (const [q, status, message, code] of cases) {
        const res = await t.http.get(`${path}${q}`).set(auth('manager'));
        expect(res.status, `${path}${q}`).toBe(status);
        if (message) expect(res.body, `${path}${q}`).toMatchObject({ error_message: message, code });
      }
    }
    // A download with a bad filter is the same 400, never a file.
    const bad = await t.http.get(`/api/v1/reports/chat_history?${range}&contact=ab&format=csv`).set(auth('manager'));
    expect(bad.status).toBe(400);
    expect(bad.headers['content-disposition']).toBeUndefined();
  });

  it('roles: agents get none of the reports, supervisors all but login history', async () => {
    for (const path of REPORTS) {
      expect((await t.http.get(path).set(auth('ana'))).status, path).toBe(403);
      expect((await t.http.get(path)).status, path).toBe(401);
      expect((await t.http.get(path).set(auth('supervisor'))).status, path).toBe(path.includes('login_history') ? 403 : 200);
    }
  });
});
