import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, preparedStatementNames, type Db } from './client';
import { ensureTenant } from './fixtures';
import { createTestDatabase, type TestDatabase } from './testing';

// Prepared statements (createDb's statementNameGenerator): a query run again is parsed once per
// connection; SQL seen once, and SQL past the bound, stays unnamed; results are the same either way.

let t: TestDatabase;
let one: Db; // one connection, so pg_prepared_statements shows what that connection prepared
let tenantId: string;

const prepared = async () =>
  (
    await one.$queryRawUnsafe<{ name: string; statement: string }[]>(`SELECT name, statement FROM pg_prepared_statements ORDER BY name`)
  ).filter((r) => r.name.startsWith('atende_'));

beforeAll(async () => {
  t = await createTestDatabase();
  tenantId = (await ensureTenant(t.db, { name: 'Prepared', users: { p1: ['agent'] }, emailDomain: 'prepared.test', password: 'x1234567' }))
    .tenantId;
  one = createDb(t.url, { poolSize: 1 });
});

afterAll(async () => {
  await one?.$disconnect();
  await t?.drop();
});

describe('preparedStatementNames', () => {
  it('names a text from its second sighting, the same name each time, distinct per text, never past the bound', () => {
    const name = preparedStatementNames(2);
    expect(name({ sql: 'SELECT 1' })).toBe('');
    const first = name({ sql: 'SELECT 1' });
    expect(first).toMatch(/^atende_[\w-]{32}$/);
    expect(first.length).toBeLessThanOrEqual(63); // Postgres identifiers
    expect(name({ sql: 'SELECT 1' })).toBe(first);
    expect(name({ sql: 'SELECT 2' })).toBe('');
    const second = name({ sql: 'SELECT 2' });
    expect(second).not.toBe(first);
    expect(second).toMatch(/^atende_/);
    name({ sql: 'SELECT 3' });
    expect(name({ sql: 'SELECT 3' })).toBe(''); // the bound: two named texts
    expect(name({ sql: 'SELECT 1' })).toBe(first);
  });

  it('stops remembering texts seen once at four times the bound', () => {
    const name = preparedStatementNames(1);
    for (let i = 0; i < 4; i++) name({ sql: `SELECT ${i}` });
    name({ sql: 'SELECT 99' }); // not remembered: the map is full
    expect(name({ sql: 'SELECT 99' })).toBe('');
    expect(name({ sql: 'SELECT 0' })).toMatch(/^atende_/);
  });
});

describe('createDb prepares repeated statements', () => {
  it('parses a repeated Prisma query once on the connection and returns the same rows', async () => {
    const read = () => one.user.findMany({ where: { tenantId }, select: { email: true }, orderBy: { id: 'asc' } });
    const before = await read();
    expect(before.map((u) => u.email)).toEqual(['p1@prepared.test']);
    expect((await prepared()).some((p) => p.statement.includes('"User"'))).toBe(false); // seen once: unnamed
    expect(await read()).toEqual(before);
    const named = (await prepared()).filter((p) => p.statement.includes('"User"'));
    expect(named).toHaveLength(1);
    expect(await read()).toEqual(before);
    expect((await prepared()).filter((p) => p.statement.includes('"User"'))).toEqual(named); // reused, not prepared again
  });

  it('keeps SQL that embeds its values unnamed, and a changed row reads fresh through a prepared statement', async () => {
    for (let i = 0; i < 3; i++)
      expect(await one.$queryRawUnsafe<{ n: number }[]>(`SELECT ${1000 + i}::int AS n`)).toEqual([{ n: 1000 + i }]);
    expect((await prepared()).some((p) => /SELECT 100\d::int/.test(p.statement))).toBe(false);
    const email = () => one.user.findFirstOrThrow({ where: { tenantId }, select: { email: true } });
    await email();
    await email();
    await t.db.user.updateMany({ where: { tenantId }, data: { email: 'changed@prepared.test' } });
    expect(await email()).toEqual({ email: 'changed@prepared.test' });
  });

  it('still fails a bad query with the database error, and the connection goes on', async () => {
    const bad = () => one.$queryRaw`SELECT 1 / ${0}::int AS n`;
    await expect(bad()).rejects.toThrow(/division by zero/);
    await expect(bad()).rejects.toThrow(/division by zero/);
    await expect(bad()).rejects.toThrow(/division by zero/);
    expect(await one.$queryRaw<{ n: number }[]>`SELECT 2 / ${1}::int AS n`).toEqual([{ n: 2 }]);
  });
});
