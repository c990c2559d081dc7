import { PAGE_LIMIT_MAX, routes, type RouteDef } from '@atende/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './testing';

// (Low): `_limit=0` returned every row of a list. It now gets at most a full page.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme');
  admin = await t.login('admin@acme.test');
  const many = PAGE_LIMIT_MAX + 5;
  await t.database.db.sector.createMany({
    data: Array.from({ length: many }, (_, i) => ({
      tenantId: acme.tenantId,
      workspaceId: acme.workspaceId,
      name: `Setor ${String(i).padStart(4, '0')}`,
    })),
  });
  await t.database.db.dndList.createMany({
    data: Array.from({ length: many }, (_, i) => ({ tenantId: acme.tenantId, name: `Lista ${i}` })),
  });
});
afterAll(() => t?.close());

describe('_limit=0', () => {
  it('answers at most a full page, with the exact total, on lists bigger than a page', async () => {
    for (const path of ['/api/v1/sectors', '/api/v1/dnd']) {
      const res = await t.http.get(`${path}?_limit=0`).set('Authorization', `Bearer ${admin}`);
      expect(res.status, path).toBe(200);
      expect(res.body.data, path).toHaveLength(PAGE_LIMIT_MAX);
      expect(res.body.pagination.total, path).toBeGreaterThan(PAGE_LIMIT_MAX);
    }
  });

  it('never answers more than a page on any paged list of the contract', async () => {
    const paged = (Object.values(routes) as RouteDef[]).filter(
      (r) => r.method === 'GET' && !r.path.includes(':') && r.query && '_limit' in (r.query as { shape?: object }).shape!,
    );
    expect(paged.length).toBeGreaterThan(5);
    for (const route of paged) {
      const res = await t.http.get(`${route.path}?_limit=0`).set('Authorization', `Bearer ${admin}`);
      if (res.status !== 200 || !Array.isArray(res.body.data)) continue;
      expect(res.body.data.length, route.path).toBeLessThanOrEqual(PAGE_LIMIT_MAX);
    }
  });
});
