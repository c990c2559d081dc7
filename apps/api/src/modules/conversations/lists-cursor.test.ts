import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, conversationPages, createClient } from '@atende/sdk';
import { startTestApp, type TestApp } from '../../testing';
import { customChannel } from './fixtures';

// Keyset paging of GET /api/v2/conversations: the `cursor` beside `_offset`.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let other: Awaited<ReturnType<TestApp['tenant']>>;
const tokens: Record<string, string> = {};
let ticket = 1;

type Page = {
  data: { uuid: string; created_at: string }[];
  pagination: { total: number; limit: number; offset: number; next_cursor: string | null };
};

async function seed(tenant: typeof acme, count: number, at: Date, agentId: number | null = null): Promise<string[]> {
  const db = t.database.db;
  const channel =
    (await db.channel.findFirst({ where: { tenantId: tenant.tenantId, type: 'custom' } })) ??
    (await customChannel(db, tenant.tenantId, tenant.workspaceId, tenant.sectors[0]!.id, `token-${tenant.tenantId}`)).channel;
  const contact = await db.contact.create({ data: { tenantId: tenant.tenantId, name: 'Paged contact' } });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const c = await db.conversation.create({
      data: {
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        contactId: contact.id,
        channelId: channel.id,
        sectorId: tenant.sectors[0]!.id,
        userId: agentId,
        state: agentId ? 'answered' : 'waiting',
        ticketNumber: ticket++,
        createdAt: at,
      },
    });
    await db.conversationEvent.create({ data: { tenantId: tenant.tenantId, conversationId: c.id, type: 'enter-queue', detail: { n: i } } });
    await db.message.create({
      data: {
        id: randomUUID(),
        tenantId: tenant.tenantId,
        conversationId: c.id,
        contactId: contact.id,
        author: 'CONTACT',
        content: `hello ${i}`,
      },
    });
    ids.push(c.id);
  }
  return ids;
}

async function get(path: string, who = 'supervisor') {
  return t.http.get(path).set({ Authorization: `Bearer ${tokens[who]}` });
}

/** Follows next_cursor from the first page to the end. */
async function walk(query: string, who = 'supervisor', from?: string): Promise<string[]> {
  const seen: string[] = [];
  let page = (await get(`/api/v2/conversations?${query}${from ? `&cursor=${encodeURIComponent(from)}` : ''}`, who)).body as Page;
  for (;;) {
    seen.push(...page.data.map((c) => c.uuid));
    if (!page.pagination.next_cursor) return seen;
    const res = await get(`/api/v2/conversations?${query}&cursor=${encodeURIComponent(page.pagination.next_cursor)}`, who);
    expect(res.status).toBe(200);
    page = res.body as Page;
  }
}

beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_IP: '1000' });
  acme = await t.tenant('Acme', { users: { agent: ['agent'], supervisor: ['supervisor'] } });
  other = await t.tenant('Other', { users: { boss: ['supervisor'] } });
  for (const [name, email] of [
    ['agent', 'agent@acme.test'],
    ['supervisor', 'supervisor@acme.test'],
    ['boss', 'boss@other.test'],
  ] as const)
    tokens[name] = await t.login(email);
  // Ties on createdAt on purpose: the id breaks them, so no row is skipped or repeated at a page edge.
  await seed(acme, 7, new Date('2026-01-01T10:00:00.000Z'));
  await seed(acme, 6, new Date('2026-01-02T10:00:00.000Z'), acme.users.agent!.id);
  await seed(other, 3, new Date('2026-01-03T10:00:00.000Z'));
});
afterAll(async () => {
  await t.close();
});

describe('conversation list by keyset cursor', () => {
  it('walks every conversation once, in the offset order, with the exact total on each page', async () => {
    const byOffset = (await get('/api/v2/conversations?_limit=100')).body as Page;
    expect(byOffset.pagination).toEqual({ total: 13, limit: 100, offset: 0, next_cursor: null });
    const walked = await walk('_limit=4');
    expect(walked).toEqual(byOffset.data.map((c) => c.uuid));
    expect(new Set(walked).size).toBe(13);
    const first = (await get('/api/v2/conversations?_limit=4')).body as Page;
    expect(first.pagination.total).toBe(13);
    expect(first.pagination.next_cursor).toEqual(expect.any(String));
  });

  it('stays stable when conversations arrive while paging: no duplicates, no skips', async () => {
    const first = (await get('/api/v2/conversations?_limit=5')).body as Page;
    const before = (await get('/api/v2/conversations?_limit=100')).body as Page;
    const fresh = await seed(acme, 2, new Date());
    const rest = await walk('_limit=5', 'supervisor', first.pagination.next_cursor!);
    expect([...first.data.map((c) => c.uuid), ...rest]).toEqual(before.data.map((c) => c.uuid));
    expect(rest.some((id) => fresh.includes(id))).toBe(false);
    const now = (await get('/api/v2/conversations?_limit=2')).body as Page;
    expect(now.data.map((c) => c.uuid).sort()).toEqual([...fresh].sort());
  });

  it('presents each row as the single-conversation read does', async () => {
    const page = (await get('/api/v2/conversations?_limit=3&state=answered')).body as Page;
    expect(page.data).toHaveLength(3);
    for (const row of page.data) {
      const one = await get(`/api/v1/conversations/${row.uuid}`);
      expect(row).toEqual(one.body.data);
    }
  });

  it("keeps an agent's cursor to their own conversations and filters", async () => {
    const mine = await walk('_limit=4', 'agent');
    expect(mine).toHaveLength(6);
    const answered = await walk('_limit=2&state=answered');
    expect(answered).toEqual(mine);
  });

  it('refuses a forged, edited, malformed or foreign cursor with invalid_cursor, and cursor with _offset', async () => {
    const first = (await get('/api/v2/conversations?_limit=2')).body as Page;
    const cursor = first.pagination.next_cursor!;
    const [time, id, mac] = cursor.split('.') as [string, string, string];
    const edited = `${(parseInt(time, 36) + 1).toString(36)}.${id}.${mac}`;
    for (const bad of [edited, `${time}.${id}.${'A'.repeat(mac.length)}`, 'not-a-cursor', `${time}.${id}`, `${cursor}.x`]) {
      const res = await get(`/api/v2/conversations?_limit=2&cursor=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe('invalid_cursor');
    }
    // Tenant isolation: a valid cursor of Acme is refused in Other's workspace, not used as a position there.
    const foreign = await get(`/api/v2/conversations?_limit=2&cursor=${encodeURIComponent(cursor)}`, 'boss');
    expect(foreign.status).toBe(400);
    expect(foreign.body.code).toBe('invalid_cursor');
    const theirs = await walk('_limit=2', 'boss');
    expect(theirs).toHaveLength(3);
    const both = await get(`/api/v2/conversations?_limit=2&_offset=2&cursor=${encodeURIComponent(cursor)}`);
    expect(both.status).toBe(400);
    expect(both.body.code).toBe('cursor_or_offset');
  });

  it('is typed in the sdk: next_cursor feeds the next call', async () => {
    const api = createClient({ baseUrl: t.url, token: tokens.agent });
    const first = await api.listConversations({ query: { _limit: 4 } });
    expect(first.pagination.next_cursor).not.toBeNull();
    const second = await api.listConversations({ query: { _limit: 4, cursor: first.pagination.next_cursor! } });
    expect(second.data).toHaveLength(2);
    expect(second.pagination.next_cursor).toBeNull();
    const pages: number[] = [];
    for await (const page of conversationPages(api, { _limit: 4 })) pages.push(page.length);
    expect(pages).toEqual([4, 2]);
    const error = await api.listConversations({ query: { cursor: 'x.y.z' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('invalid_cursor');
  });

  // pagination.total sums the kept count (migration 20261130010000) for the list's own filters and
  // counts rows for the others: either way it is the number of rows the same filter lists.
  it('gives the total of the rows each filter lists, kept count or counted', async () => {
    const db = t.database.db;
    const some = await db.conversation.findMany({ where: { tenantId: acme.tenantId }, orderBy: { ticketNumber: 'asc' }, take: 3 });
    await db.conversation.update({ where: { id: some[0]!.id }, data: { archived: true } });
    await db.conversation.update({ where: { id: some[1]!.id }, data: { state: 'closed', userId: acme.users.agent!.id } });
    await db.conversation.delete({ where: { id: some[2]!.id } });
    const sector = acme.sectors[0]!.id;
    const channel = (await db.channel.findFirstOrThrow({ where: { tenantId: acme.tenantId, type: 'custom' } })).id;
    const queries = [
      '',
      'state=waiting',
      'state=answered',
      'state=waiting,closed',
      'archived=true',
      'archived=false',
      `user_id=${acme.users.agent!.id}`,
      `user_id=${acme.users.agent!.id}&state=closed`,
      `sector_uuid=${sector}`,
      `channel_uuid=${channel}&state=waiting`,
      'start=2026-01-02T00:00:00.000Z&end=2026-01-02T23:59:59.000Z',
    ];
    const totals: number[] = [];
    for (const [who, q] of [...queries.map((q) => ['supervisor', q]), ['agent', ''], ['agent', 'state=closed'], ['boss', '']]) {
      const page = (await get(`/api/v2/conversations?_limit=100&${q}`, who)).body as Page;
      expect(page.pagination.total, `${who} ${q}`).toBe(page.data.length);
      totals.push(page.pagination.total);
    }
    expect(totals.slice(0, 4)).toEqual([14, 7, 6, 8]);
    expect(totals.at(-1)).toBe(3);
  });
});
