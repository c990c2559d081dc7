import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { SUBSCRIBER_IMPORT_ERRORS, type ServerEventPayload } from '@atende/contract';
import { subscriberTemplateCsv, subscriberTemplateXlsx } from '@atende/conversations';
import { ensureTenant } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { RealtimeOutbox, realtimeOutboxStream } from '@atende/queue';
import { LocalDiskDriver, type StorageDriver } from '@atende/storage';
import ExcelJS from 'exceljs';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSubscribers, type ImportDeps } from './import';
import { IMPORT_BATCH } from './import-staging';

const prefix = `atende-test-import:${randomBytes(4).toString('hex')}:`;
let t: TestDatabase;
let redis: Redis;
let storageDir: string;
let storage: StorageDriver;
let deps: ImportDeps;
let tenant: Awaited<ReturnType<typeof ensureTenant>>;
let other: Awaited<ReturnType<typeof ensureTenant>>;
let templateId: string;
let channelId: string;
const dndPhone = '+5511977770001';

beforeAll(async () => {
  t = await createTestDatabase();
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  storageDir = await mkdtemp(join(tmpdir(), 'atende-import-'));
  storage = new LocalDiskDriver(storageDir);
  deps = {
    db: t.db,
    databaseUrl: t.url,
    realtime: new RealtimeOutbox(redis, prefix),
    storage: () => storage,
    log: pino({ level: 'silent' }),
  };
  tenant = await ensureTenant(t.db, {
    name: 'Import',
    users: { manager: ['campaign_manager'] },
    emailDomain: 'import.test',
    password: 'x1234567',
  });
  other = await ensureTenant(t.db, {
    name: 'Other',
    users: { manager: ['campaign_manager'] },
    emailDomain: 'other-import.test',
    password: 'x1234567',
  });
  const channel = await t.db.channel.create({
    data: { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, name: 'WhatsApp', type: 'whatsapp_360dialog', config: {} },
  });
  channelId = channel.id;
  const template = await t.db.outboundTemplate.create({
    data: {
      tenantId: tenant.tenantId,
      channelId,
      name: 'oferta',
      language: 'pt_BR',
      category: 'MARKETING',
      status: 'APPROVED',
      components: [{ type: 'BODY', text: 'Olá {{1}}, {{2}}' }],
    },
  });
  templateId = template.id;
  const contact = await t.db.contact.create({ data: { tenantId: tenant.tenantId, name: 'Não perturbe', phoneNumber: dndPhone } });
  const list = await t.db.dndList.create({ data: { tenantId: tenant.tenantId, name: 'Opt-out' } });
  await t.db.dndContact.create({ data: { dndListId: list.id, contactId: contact.id, tenantId: tenant.tenantId } });
});
afterAll(async () => {
  await redis?.del(realtimeOutboxStream(prefix));
  redis?.disconnect();
  await t?.drop();
  await rm(storageDir, { recursive: true, force: true });
});

async function newCampaign(name: string, withDnd = false) {
  const lists = withDnd ? await t.db.dndList.findMany({ where: { tenantId: tenant.tenantId } }) : [];
  return t.db.campaign.create({
    data: {
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      name,
      channelId,
      templateId,
      createdById: tenant.users.manager!.id,
      config: { default_action: { action: 'end_with_message' }, reply_actions: {} },
      dndLists: { create: lists.map((l) => ({ dndListId: l.id })) },
    },
  });
}
async function storeFile(csv: string | Buffer) {
  const bytes = Buffer.from(csv);
  const id = randomUUID();
  const key = `${tenant.tenantId}/${id}`;
  await storage.put(key, bytes, { contentType: 'text/csv', size: bytes.length });
  await t.db.storedFile.create({
    data: {
      id,
      tenantId: tenant.tenantId,
      originalFilename: 's.csv',
      contentType: 'text/csv',
      size: bytes.length,
      service: storage.service,
      storageKey: key,
    },
  });
  return id;
}
async function importCsv(campaignId: string, csv: string | Buffer, extra: Partial<ImportDeps> = {}, options?: { finalAttempt?: boolean }) {
  const fileId = await storeFile(csv);
  return importSubscribers({ ...deps, ...extra }, { tenant_uuid: tenant.tenantId, campaign_uuid: campaignId, file_uuid: fileId }, options);
}
type TaskEvent = ServerEventPayload<'update-campaign-tasks'>;
async function taskEvents(campaignId: string): Promise<TaskEvent[]> {
  return (await redis.xrange(realtimeOutboxStream(prefix), '-', '+'))
    .map(([, f]) => JSON.parse(f[1]!) as { event: string; payload: TaskEvent })
    .filter((e) => e.event === 'update-campaign-tasks' && e.payload.campaign_uuid === campaignId)
    .map((e) => e.payload);
}
const phone = (i: number) => `+55119${String(20_000_000 + i).padStart(8, '0')}`;
const rowsOf = (campaignId: string) =>
  t.db.campaignSubscriber.findMany({ where: { campaignId }, orderBy: [{ createdAt: 'asc' }, { phoneNumber: 'asc' }] });
/** A file of n valid rows with the template's two parameters. */
const bigCsv = (n: number, from = 0) =>
  ['name,phone,1,2', ...Array.from({ length: n }, (_, i) => `S${from + i},${phone(from + i)},P${from + i},Q`)].join('\n');

describe('subscriber import rules', () => {
  it('keeps the first row of a phone in the file, ignores phones already in the campaign, keeps invalid phones as errors and marks DND contacts', async () => {
    const campaign = await newCampaign('Rules', true);
    await t.db.campaignSubscriber.create({
      data: {
        tenantId: tenant.tenantId,
        campaignId: campaign.id,
        name: 'Já estava',
        phoneNumber: '+5511988881111',
        parameters: ['x', 'y'],
        state: 'sent',
      },
    });
    // Another tenant's contact with a phone of the file is never linked (tenant isolation).
    await t.db.contact.create({ data: { tenantId: other.tenantId, name: 'Outro', phoneNumber: '+5511988882222' } });
    const own = await t.db.contact.create({ data: { tenantId: tenant.tenantId, name: 'Contato', phoneNumber: '+5511988883333' } });
    const csv = [
      'name,phone,1,2',
      'Primeira,(11) 98888-2222,a,b',
      'Segunda,+55 11 98888-2222,c,d', // the same phone written otherwise: ignored
      'Existente,11988881111,e,f', // already in the campaign: ignored, the stored row untouched
      'Inválido,12345,g,h', // kept as an error with the spec's message
      'Inválido de novo,12345,g,h', // the same invalid phone: ignored
      ',11988884444,i,j', // no name
      'Sem parâmetro,11988885555,k,', // parameter 2 missing
      'Sem telefone,,l,m', // no phone at all: nothing to keep
      `Quieto,${dndPhone},n,o`, // on the campaign's DND list
      'Contato,11988883333,p,q',
    ].join('\n');
    const counters = await importCsv(campaign.id, csv);
    expect(counters).toEqual({ imported: 3, ignored: 4, imported_with_error: 3 });
    const rows = await t.db.campaignSubscriber.findMany({ where: { campaignId: campaign.id }, orderBy: { phoneNumber: 'asc' } });
    expect(rows.map((r) => [r.name, r.phoneNumber, r.state, r.errorMessage, r.parameters])).toEqual([
      ['Quieto', dndPhone, 'dnd', null, ['n', 'o']],
      ['Já estava', '+5511988881111', 'sent', null, ['x', 'y']],
      ['Primeira', '+5511988882222', 'pending', null, ['a', 'b']],
      ['Contato', '+5511988883333', 'pending', null, ['p', 'q']],
      ['+5511988884444', '+5511988884444', 'error', 'Name is required', ['i', 'j']],
      ['Sem parâmetro', '+5511988885555', 'error', 'Parameter 2 is required', ['k', '']],
      ['Inválido', '12345', 'error', 'Número de telefone inválido', ['g', 'h']],
    ]);
    expect(rows.find((r) => r.phoneNumber === '+5511988882222')!.contactId).toBeNull();
    expect(rows.find((r) => r.phoneNumber === '+5511988883333')!.contactId).toBe(own.id);
    expect(await t.db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      importStatus: 'done',
      importSummary: { imported: 3, ignored: 4, imported_with_error: 3, error_message: null },
    });
  });

  it('stores every character of a cell as written (tabs, quotes, backslashes, line breaks, braces), minus NUL', async () => {
    const campaign = await newCampaign('Characters');
    const csv = ['name;phone;1;2', '"Ana\t\\ ""A"" {x}";11988886666;"linha 1\nlinha 2";"a,b\\""{}\u0000"'].join('\r\n');
    expect(await importCsv(campaign.id, csv)).toEqual({ imported: 1, ignored: 0, imported_with_error: 0 });
    const [row] = await rowsOf(campaign.id);
    expect(row).toMatchObject({ name: 'Ana\t\\ "A" {x}', phoneNumber: '+5511988886666', parameters: ['linha 1\nlinha 2', 'a,b\\"{}'] });
  });

  it(`keeps the first row of a phone across the ${IMPORT_BATCH}-row batches`, async () => {
    const campaign = await newCampaign('Batches');
    const csv = `${bigCsv(IMPORT_BATCH + 50)}\n${Array.from({ length: 50 }, (_, i) => `Depois ${i},${phone(i)},X,Y`).join('\n')}`;
    expect(await importCsv(campaign.id, csv)).toEqual({ imported: IMPORT_BATCH + 50, ignored: 50, imported_with_error: 0 });
    expect(await t.db.campaignSubscriber.count({ where: { campaignId: campaign.id, name: { startsWith: 'Depois' } } })).toBe(0);
  });

  it('gives imported rows distinct time-ordered ids (uuid version 7, stamped with the import time) and leaves them out of the provider-id index', async () => {
    const campaign = await newCampaign('Ids');
    const before = Date.now();
    await importCsv(campaign.id, bigCsv(IMPORT_BATCH + 10));
    const after = Date.now();
    const ids = (await t.db.campaignSubscriber.findMany({ where: { campaignId: campaign.id }, select: { id: true } })).map((r) => r.id);
    expect(ids).toHaveLength(IMPORT_BATCH + 10);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const stamped = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
      expect(stamped).toBeGreaterThanOrEqual(before);
      expect(stamped).toBeLessThanOrEqual(after);
    }
    // The index on the send's provider id holds sent rows only: none of these unsent ones.
    const [index] = await t.db.$queryRaw<{ predicate: string }[]>`
      SELECT pg_get_expr(i.indpred, i.indrelid) AS predicate FROM pg_index i WHERE i.indexrelid = '"CampaignSubscriber_tenantId_externalId_idx"'::regclass`;
    expect(index?.predicate).toBe('("externalId" IS NOT NULL)');
  });
});

describe('a file the import cannot use stores nothing', () => {
  it('refuses a file without name and phone columns with the spec message', async () => {
    const campaign = await newCampaign('Columns');
    expect(await importCsv(campaign.id, 'nome,telefone\nAna,11988887777')).toEqual({ imported: 0, ignored: 0, imported_with_error: 0 });
    expect(await rowsOf(campaign.id)).toEqual([]);
    expect(await t.db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      importStatus: 'done',
      importSummary: { error_message: SUBSCRIBER_IMPORT_ERRORS.columns },
    });
    expect((await taskEvents(campaign.id)).at(-1)).toMatchObject({ status: 'done', error_message: SUBSCRIBER_IMPORT_ERRORS.columns });
  });

  it('stores nothing of a file that stops being CSV after a batch was already stored', async () => {
    const campaign = await newCampaign('Broken');
    const csv = `${bigCsv(IMPORT_BATCH + 500)}\nQuebrado,"11988887777,a,b\n${bigCsv(10, 900_000).split('\n').slice(1).join('\n')}`;
    expect(await importCsv(campaign.id, csv)).toEqual({ imported: 0, ignored: 0, imported_with_error: 0 });
    expect(await t.db.campaignSubscriber.count({ where: { campaignId: campaign.id } })).toBe(0);
    expect(await t.db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      importStatus: 'done',
      importSummary: { imported: 0, ignored: 0, imported_with_error: 0, error_message: SUBSCRIBER_IMPORT_ERRORS.unreadable },
    });
  });

  it('stores nothing when reading the file fails halfway, and says so after the last attempt', async () => {
    const campaign = await newCampaign('Halfway');
    const bytes = Buffer.from(bigCsv(3 * IMPORT_BATCH));
    // A storage read that breaks after two thirds of the file (two batches already stored).
    const breaking: StorageDriver = Object.assign(Object.create(storage) as StorageDriver, {
      get: async () => ({
        size: bytes.length,
        stream: Readable.from(
          (async function* () {
            for (let at = 0; at < bytes.length; at += 64 * 1024) {
              if (at > (bytes.length * 2) / 3) throw new Error('connection reset');
              yield bytes.subarray(at, at + 64 * 1024);
            }
          })(),
        ),
      }),
    });
    const run = (finalAttempt: boolean) => importCsv(campaign.id, bytes, { storage: () => breaking }, { finalAttempt });
    await expect(run(false)).rejects.toThrow('connection reset');
    expect(await t.db.campaignSubscriber.count({ where: { campaignId: campaign.id } })).toBe(0);
    // A retry will follow: the screen still shows the import running.
    expect((await t.db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).importStatus).toBe('in_progress');
    await expect(run(true)).rejects.toThrow('connection reset');
    expect(await t.db.campaignSubscriber.count({ where: { campaignId: campaign.id } })).toBe(0);
    expect(await t.db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      importStatus: 'done',
      importSummary: { imported: 0, error_message: SUBSCRIBER_IMPORT_ERRORS.failed },
    });
    // The same file read whole is then imported in full.
    expect(await importCsv(campaign.id, bytes)).toEqual({ imported: 3 * IMPORT_BATCH, ignored: 0, imported_with_error: 0 });
  });
});

describe('import progress', () => {
  it('sends rows done / total with growing counts while reading a 10,000-row file, then the exact total', async () => {
    const campaign = await newCampaign('Progress');
    const counters = await importCsv(campaign.id, bigCsv(10_000), { progressEveryMs: 5 });
    expect(counters).toEqual({ imported: 10_000, ignored: 0, imported_with_error: 0 });
    const events = await taskEvents(campaign.id);
    const running = events.filter((e) => e.status === 'in_progress');
    const done = running.map((e) => e.rows_done);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(new Set(done).size).toBeGreaterThanOrEqual(3);
    // While the file is read the total is an estimate from the bytes read, and says so.
    const estimated = running.filter((e) => e.rows_total_estimated && e.rows_done > 0);
    expect(estimated.length).toBeGreaterThan(0);
    for (const e of estimated) expect(Math.abs(e.rows_total! - 10_000)).toBeLessThan(1_000);
    expect(events.at(-1)).toMatchObject({
      status: 'done',
      rows_done: 10_000,
      rows_total: 10_000,
      rows_total_estimated: false,
      imported: 10_000,
      error_message: null,
    });
    expect(events.slice(0, -1).every((e) => e.status === 'in_progress')).toBe(true);
  });
});

// The files a Brazilian office produces.
describe('subscriber files in any usual encoding, delimiter or as .xlsx', () => {
  const joao = 'Olá João';
  const lines = (sep: string) =>
    [['name', 'phone', 'body_1', 'body_2'].join(sep), [joao, '11988880001', joao, 'ação é já'].join(sep)].join('\r\n');
  /** The bytes of "Olá João" as Excel saves them in pt-BR (Windows-1252). */
  const cp1252 = Buffer.from([0x4f, 0x6c, 0xe1, 0x20, 0x4a, 0x6f, 0xe3, 0x6f]);
  const files: [string, Buffer][] = [
    ['UTF-8 with a BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines(','))])],
    ['UTF-8 without a BOM', Buffer.from(lines(','))],
    ['UTF-16LE with a BOM', Buffer.from(`\uFEFF${lines(',')}`, 'utf16le')],
    ['UTF-16LE without a BOM', Buffer.from(lines(';'), 'utf16le')],
    ['Windows-1252, ; separated', Buffer.from(lines(';'), 'latin1')],
    ['UTF-8, tab separated', Buffer.from(lines('\t'))],
  ];
  it.each(files)('stores "Olá João" as written from a file in %s', async (label, bytes) => {
    if (label.startsWith('Windows-1252')) expect(bytes.includes(cp1252)).toBe(true);
    const campaign = await newCampaign(`Encoding ${label}`);
    expect(await importCsv(campaign.id, bytes)).toEqual({ imported: 1, ignored: 0, imported_with_error: 0 });
    const [row] = await rowsOf(campaign.id);
    // What the send will use: the parameters exactly as typed.
    expect(row).toMatchObject({ name: joao, phoneNumber: '+5511988880001', state: 'pending', parameters: [joao, 'ação é já'] });
  });

  it('decides Windows-1252 at the first byte over 127 even past the first chunk read (an ASCII start)', async () => {
    const campaign = await newCampaign('Late accent');
    const bytes = Buffer.concat([
      Buffer.from(bigCsv(3_000).replace(/,/g, ';')),
      Buffer.from(`\r\n${joao};11988880002;${joao};ação`, 'latin1'),
    ]);
    expect(bytes.length).toBeGreaterThan(64 * 1024);
    expect(await importCsv(campaign.id, bytes)).toEqual({ imported: 3_001, ignored: 0, imported_with_error: 0 });
    expect(await t.db.campaignSubscriber.findFirst({ where: { campaignId: campaign.id, phoneNumber: '+5511988880002' } })).toMatchObject({
      name: joao,
      parameters: [joao, 'ação'],
    });
  });

  it('reads the first sheet of an .xlsx: numbers as written, rich text and formulas by their text, other sheets ignored', async () => {
    const campaign = await newCampaign('Excel');
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('assinantes');
    sheet.addRow(['Name', 'Phone', 'body_1', 'body_2']);
    sheet.addRow([
      joao,
      5511988880003,
      { richText: [{ text: 'Olá ' }, { text: 'João', font: { bold: true } }] },
      { formula: '"a"&"ção"', result: 'ação' },
    ]);
    sheet.addRow([]);
    sheet.addRow(['# Exemplo', '+55 11 98765-4321', 'x', 'y']);
    sheet.addRow(['Bia', '(11) 98888-0004', 'Bia', 42]);
    workbook.addWorksheet('outra').addRow(['name', 'phone', 'body_1', 'body_2']).commit();
    workbook.getWorksheet('outra')!.addRow(['Não', '11988880005', 'x', 'y']);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    expect(await importCsv(campaign.id, bytes)).toEqual({ imported: 2, ignored: 0, imported_with_error: 0 });
    const rows = await t.db.campaignSubscriber.findMany({ where: { campaignId: campaign.id }, orderBy: { phoneNumber: 'asc' } });
    expect(rows.map((r) => [r.name, r.phoneNumber, r.parameters])).toEqual([
      [joao, '+5511988880003', [joao, 'ação']],
      ['Bia', '+5511988880004', ['Bia', '42']],
    ]);
  });

  it('takes parameters from columns named after the placeholders in any order, else from the old numbered columns', async () => {
    const campaign = await newCampaign('Columns by name');
    const csv = ['Phone,body_2,Name,body_1,extra', '11988880006,segundo,Ana,primeiro,x'].join('\n');
    expect(await importCsv(campaign.id, csv)).toEqual({ imported: 1, ignored: 0, imported_with_error: 0 });
    expect((await rowsOf(campaign.id))[0]).toMatchObject({ name: 'Ana', parameters: ['primeiro', 'segundo'] });
    const old = await newCampaign('Columns by number');
    expect(await importCsv(old.id, 'name,phone,2,1\nBia,11988880007,dois,um')).toEqual({ imported: 1, ignored: 0, imported_with_error: 0 });
    expect((await rowsOf(old.id))[0]).toMatchObject({ name: 'Bia', parameters: ['um', 'dois'] });
  });

  it('imports nobody from the downloaded templates uploaded unchanged, and the example once its # is removed', async () => {
    for (const language of ['pt', 'en'] as const) {
      const csv = subscriberTemplateCsv(['body_1', 'body_2'], language);
      const xlsx = await subscriberTemplateXlsx(['body_1', 'body_2'], language);
      for (const file of [csv, xlsx]) {
        const campaign = await newCampaign(`Template ${language} ${file === csv ? 'csv' : 'xlsx'}`);
        expect(await importCsv(campaign.id, file)).toEqual({ imported: 0, ignored: 0, imported_with_error: 0 });
        expect(await t.db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
          importSummary: { imported: 0, error_message: null },
        });
      }
      const filled = await newCampaign(`Template ${language} filled`);
      expect(await importCsv(filled.id, csv.replace('# Maria Silva', 'Maria Silva'))).toEqual({
        imported: 1,
        ignored: 0,
        imported_with_error: 0,
      });
      expect((await rowsOf(filled.id))[0]).toMatchObject({
        name: 'Maria Silva',
        phoneNumber: '+5511987654321',
        parameters: ['body_1 example', 'body_2 example'],
      });
    }
  });

  it('refuses what cannot be decoded (binary, an old .xls, UTF-8 broken after its BOM, a damaged .xlsx) and stores nothing', async () => {
    // A fixed pseudo-random file: the same bytes on every run.
    let seed = 7;
    const random = Buffer.from(Array.from({ length: 8192 }, () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) >> 16) & 0xff));
    const xls = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]);
    const broken = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('name,phone,1,2\n'),
      Buffer.from(`${joao},11988880008,a,b`, 'latin1'),
    ]);
    for (const [label, bytes] of [
      ['binary', Buffer.concat([Buffer.from('name,phone\n'), random])],
      ['xls', xls],
      ['broken UTF-8', broken],
      ['damaged xlsx', (await subscriberTemplateXlsx(['body_1'], 'en')).subarray(0, 300)],
    ] as const) {
      const campaign = await newCampaign(`Undecodable ${label}`);
      expect(await importCsv(campaign.id, bytes), label).toEqual({ imported: 0, ignored: 0, imported_with_error: 0 });
      expect(await rowsOf(campaign.id)).toEqual([]);
      expect(await t.db.campaign.findUniqueOrThrow({ where: { id: campaign.id } }), label).toMatchObject({
        importStatus: 'done',
        importSummary: { error_message: SUBSCRIBER_IMPORT_ERRORS.undecodable },
      });
    }
  });
});
