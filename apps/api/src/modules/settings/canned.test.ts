import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ON, startTestApp, type TestApp } from '../../testing';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let other: Awaited<ReturnType<TestApp['tenant']>>;
let channel: string;
let annex: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme', { users: { agent: ['agent'], supervisor: ['supervisor'], admin: ['admin'] } });
  other = await t.tenant('Other', { users: { admin: ['admin'] } });
  await t.tenant('Plain', { features: { ...ALL_ON, canned_responses: false }, users: { admin: ['admin'], agent: ['agent'] } });
  for (const name of ['agent', 'supervisor', 'admin']) tokens[name] = await t.login(`${name}@acme.test`);
  tokens.outsider = await t.login('admin@other.test');
  tokens.plain = await t.login('admin@plain.test');
  tokens.plainAgent = await t.login('agent@plain.test');
  const db = t.database.db;
  channel = (await db.channel.create({ data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, name: 'API', type: 'custom' } })).id;
  annex = (
    await db.storedFile.create({
      data: { tenantId: acme.tenantId, originalFilename: 'tabela.pdf', contentType: 'application/pdf', size: 10, storageKey: 'k' },
    })
  ).id;
});
afterAll(() => t.close());
const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });
const CATEGORIES = '/api/v1/workspaces/me/canned_response_categories';
const CANNED = '/api/v1/workspaces/me/canned_responses';
const composer = async (sector?: string) =>
  (
    await t.http.get(`/api/v1/channels/${channel}/canned_responses${sector ? `?sector_uuid=${sector}` : ''}`).set(auth('agent'))
  ).body.data.map((c: { keyword: string }) => c.keyword);

describe('canned response categories', () => {
  it('creates, lists, edits and deletes a category; its responses stay without it', async () => {
    const res = await t.http.post(CATEGORIES).set(auth('supervisor')).send({ name: 'Saudações', description: 'Abertura do atendimento' });
    expect(res.status).toBe(201);
    const id = res.body.data.uuid;
    expect(res.body.data).toEqual({ uuid: id, name: 'Saudações', description: 'Abertura do atendimento' });
    const edited = await t.http.patch(`${CATEGORIES}/${id}`).set(auth('admin')).send({ description: null });
    expect(edited.body.data).toEqual({ uuid: id, name: 'Saudações', description: null });
    const canned = (await t.http.post(CANNED).set(auth('admin')).send({ keyword: 'bomdia', message: 'Bom dia!', category_uuid: id })).body
      .data;
    expect(canned.category).toMatchObject({ uuid: id, name: 'Saudações' });
    expect((await t.http.delete(`${CATEGORIES}/${id}`).set(auth('admin'))).status).toBe(200);
    expect((await t.http.get(CATEGORIES).set(auth('admin'))).body.data).toEqual([]);
    const after = (await t.http.get(CANNED).set(auth('admin'))).body.data.find((c: { uuid: string }) => c.uuid === canned.uuid);
    expect(after.category).toBeNull();
    await t.http.delete(`${CANNED}/${canned.uuid}`).set(auth('admin'));
  });

  // Category labels have no spaces or numbers.
  it('refuses a label with spaces or numbers, empty, or already used', async () => {
    await t.http.post(CATEGORIES).set(auth('admin')).send({ name: 'Vendas' });
    const cases: [Record<string, unknown>, number, string][] = [
      [{ name: '' }, 400, 'This field is required'],
      [{ name: 'Pós venda' }, 400, 'The label cannot contain spaces or numbers'],
      [{ name: 'Vendas2' }, 400, 'The label cannot contain spaces or numbers'],
      [{ name: 'x'.repeat(61) }, 400, '60 characters maximum'],
      [{ name: 'VENDAS' }, 409, 'A category with this label already exists'],
    ];
    for (const [body, status, message] of cases) {
      const res = await t.http.post(CATEGORIES).set(auth('admin')).send(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.fields, JSON.stringify(body)).toContainEqual(expect.objectContaining({ path: 'name', message }));
    }
  });
});

describe('canned responses', () => {
  let id: string;
  let category: string;

  it('creates a response with category, annex and sectors; the composer of that sector sees it', async () => {
    category = (await t.http.get(CATEGORIES).set(auth('admin'))).body.data[0].uuid;
    const support = acme.sectors[0]!.id;
    const res = await t.http
      .post(CANNED)
      .set(auth('supervisor'))
      .send({
        keyword: 'preços',
        message: 'Segue a tabela, {{user_name}}.',
        category_uuid: category,
        annex_uuid: annex,
        sector_uuids: [support, support],
      });
    expect(res.status).toBe(201);
    id = res.body.data.uuid;
    expect(res.body.data).toEqual({
      uuid: id,
      keyword: 'preços',
      message: 'Segue a tabela, {{user_name}}.',
      category: { uuid: category, name: 'Vendas', description: null },
      annex: { uuid: annex, original_filename: 'tabela.pdf', uri: `/api/v1/storage/files/${annex}` },
      sector_uuids: [support],
    });
    await t.http.post(CANNED).set(auth('admin')).send({ keyword: 'ola', message: 'Olá!' });
    expect(await composer(support)).toEqual(['ola', 'preços']);
    expect(await composer(acme.sectors[1]!.id)).toEqual(['ola']);
  });

  it('lists paged and filtered by keyword or category', async () => {
    const page = await t.http.get(`${CANNED}?_limit=1&_offset=1`).set(auth('admin'));
    expect(page.body.pagination).toEqual({ total: 2, limit: 1, offset: 1 });
    expect(page.body.data.map((c: { keyword: string }) => c.keyword)).toEqual(['preços']);
    expect(
      (await t.http.get(`${CANNED}?keyword__contains=OL`).set(auth('admin'))).body.data.map((c: { keyword: string }) => c.keyword),
    ).toEqual(['ola']);
    expect((await t.http.get(`${CANNED}?category_uuid=${category}`).set(auth('admin'))).body.pagination.total).toBe(1);
  });

  it('edits only the fields sent; clearing sectors makes it usable everywhere', async () => {
    const res = await t.http
      .patch(`${CANNED}/${id}`)
      .set(auth('admin'))
      .send({ message: 'Nova tabela.', sector_uuids: [], annex_uuid: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      keyword: 'preços',
      message: 'Nova tabela.',
      category: { uuid: category },
      annex: null,
      sector_uuids: [],
    });
    expect(await composer(acme.sectors[1]!.id)).toEqual(['ola', 'preços']);
  });

  // Keyword required, no spaces or numbers, a minimum length (2 here, the spec does not give it).
  it('refuses bad keywords and messages with their messages, and stores nothing', async () => {
    const before = await t.database.db.cannedResponse.count();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ message: 'x' }, 'keyword', 'This field is required'],
      [{ keyword: '', message: 'x' }, 'keyword', 'This field is required'],
      [{ keyword: 'a', message: 'x' }, 'keyword', 'The keyword must have at least 2 characters'],
      [{ keyword: 'bom dia', message: 'x' }, 'keyword', 'The keyword cannot contain spaces or numbers'],
      [{ keyword: 'promo10', message: 'x' }, 'keyword', 'The keyword cannot contain spaces or numbers'],
      [{ keyword: 'x'.repeat(61), message: 'x' }, 'keyword', '60 characters maximum'],
      [{ keyword: 'vazio', message: '  ' }, 'message', 'This field is required'],
      [{ keyword: 'longo', message: 'x'.repeat(4097) }, 'message', '4096 characters maximum'],
    ];
    for (const [body, path, message] of cases) {
      const res = await t.http.post(CANNED).set(auth('admin')).send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.fields, JSON.stringify(body)).toContainEqual(expect.objectContaining({ path, message }));
    }
    const taken = await t.http.post(CANNED).set(auth('admin')).send({ keyword: 'OLA', message: 'x' });
    expect(taken.status).toBe(409);
    expect(taken.body.fields).toEqual([
      { path: 'keyword', message: 'A canned response with this keyword already exists', code: 'canned_keyword_taken' },
    ]);
    expect((await t.http.patch(`${CANNED}/${id}`).set(auth('admin')).send({ keyword: 'a b' })).status).toBe(400);
    expect(await t.database.db.cannedResponse.count()).toBe(before);
  });

  it("refuses another tenant's category, file and sector (404 on the field) and answers 404 for its responses", async () => {
    const theirCategory = await t.database.db.cannedResponseCategory.create({
      data: { tenantId: other.tenantId, workspaceId: other.workspaceId, name: 'Deles' },
    });
    const theirFile = await t.database.db.storedFile.create({
      data: { tenantId: other.tenantId, originalFilename: 'x.pdf', contentType: 'application/pdf', size: 1, storageKey: 'x' },
    });
    const cases: [Record<string, unknown>, string][] = [
      [{ category_uuid: theirCategory.id }, 'category_uuid'],
      [{ annex_uuid: theirFile.id }, 'annex_uuid'],
      [{ sector_uuids: [other.sectors[0]!.id] }, 'sector_uuids'],
    ];
    for (const [extra, path] of cases) {
      const res = await t.http
        .post(CANNED)
        .set(auth('admin'))
        .send({ keyword: 'outro', message: 'x', ...extra });
      expect(res.status, path).toBe(404);
      expect(res.body.fields[0].path).toBe(path);
    }
    const theirs = await t.database.db.cannedResponse.create({
      data: { tenantId: other.tenantId, workspaceId: other.workspaceId, keyword: 'deles', message: 'x' },
    });
    expect((await t.http.patch(`${CANNED}/${theirs.id}`).set(auth('admin')).send({ message: 'mine' })).status).toBe(404);
    expect((await t.http.delete(`${CANNED}/${theirs.id}`).set(auth('admin'))).status).toBe(404);
    expect((await t.http.patch(`${CATEGORIES}/${theirCategory.id}`).set(auth('admin')).send({ name: 'Meu' })).status).toBe(404);
    expect((await t.http.delete(`${CATEGORIES}/${theirCategory.id}`).set(auth('admin'))).status).toBe(404);
    expect((await t.http.get(CANNED).set(auth('outsider'))).body.data.map((c: { keyword: string }) => c.keyword)).toEqual(['deles']);
    expect(await t.database.db.cannedResponse.findUniqueOrThrow({ where: { id: theirs.id } })).toMatchObject({
      message: 'x',
      deletedAt: null,
    });
  });

  it('refuses agents (they read through the channel) and tenants with the flag off', async () => {
    expect((await t.http.get(CANNED).set(auth('agent'))).status).toBe(403);
    expect((await t.http.post(CANNED).set(auth('agent')).send({ keyword: 'oi', message: 'x' })).status).toBe(403);
    expect((await t.http.post(CATEGORIES).set(auth('agent')).send({ name: 'Oi' })).status).toBe(403);
    for (const req of [
      t.http.get(CANNED),
      t.http.get(CATEGORIES),
      t.http.post(CANNED).send({ keyword: 'oi', message: 'x' }),
      t.http.post(CATEGORIES).send({ name: 'Oi' }),
    ]) {
      const res = await req.set(auth('plain'));
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('feature_disabled');
    }
  });

  it('deletes a response: it leaves the list and the composer', async () => {
    expect((await t.http.delete(`${CANNED}/${id}`).set(auth('supervisor'))).status).toBe(200);
    expect(await composer()).toEqual(['ola']);
    expect((await t.http.patch(`${CANNED}/${id}`).set(auth('admin')).send({ message: 'again' })).status).toBe(404);
    // The keyword is free again.
    expect((await t.http.post(CANNED).set(auth('admin')).send({ keyword: 'preços', message: 'x' })).status).toBe(201);
  });
});
