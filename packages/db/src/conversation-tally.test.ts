import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from './client';
import { compactConversationTally, keptConversationCount, tallyCovers } from './conversation-tally';
import { ensureTenant, type CreatedTenant } from './fixtures';
import { MIGRATIONS_DIR, runMigrations } from './migrations';
import { createTestDatabase, type TestDatabase } from './testing';
import type { ConversationState } from '../generated/prisma/enums';

// The kept count of migration 20261130010000 against count(*): whatever happens to conversations
// (single and bulk inserts, moves between agents, states, archive and workspaces, deletes,
// rolled-back transactions, concurrent writers, compaction in between), the tally summed per key
// equals the conversations counted per key.

const STATES: ConversationState[] = ['waiting', 'bot', 'answered', 'outbound_started', 'closing', 'closed'];
const KEY = `"tenantId"::text AS tenant, "workspaceId"::text AS ws, "userId" AS "user", state::text AS state, archived`;

let t: TestDatabase;
let a: CreatedTenant;
let b: CreatedTenant;
const workspaces: { tenantId: string; workspaceId: string; contactId: string; channelId: string; users: number[] }[] = [];
let ticket = 0;

/** A small deterministic generator, so a failing sequence can be replayed from its seed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

async function counted(url = t.url): Promise<Record<string, number>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const real = await c.query<{ tenant: string; ws: string; user: number | null; state: string; archived: boolean; n: number }>(
      `SELECT ${KEY}, count(*)::int AS n FROM "Conversation" GROUP BY 1, 2, 3, 4, 5`,
    );
    const kept = await c.query<{ tenant: string; ws: string; user: number | null; state: string; archived: boolean; n: number }>(
      `SELECT ${KEY}, sum(n)::int AS n FROM "ConversationTally" GROUP BY 1, 2, 3, 4, 5 HAVING sum(n) <> 0`,
    );
    const key = (r: { tenant: string; ws: string; user: number | null; state: string; archived: boolean }) =>
      `${r.tenant}/${r.ws}/${r.user}/${r.state}/${r.archived}`;
    const realMap = Object.fromEntries(real.rows.map((r) => [key(r), r.n]));
    const keptMap = Object.fromEntries(kept.rows.map((r) => [key(r), r.n]));
    expect(keptMap).toEqual(realMap);
    return realMap;
  } finally {
    await c.end();
  }
}

async function tallyRows(): Promise<number> {
  return t.db.conversationTally.count();
}

function conversation(w: (typeof workspaces)[number], pick: () => number) {
  const userId = pick() < 0.3 ? null : w.users[Math.floor(pick() * w.users.length)]!;
  return {
    tenantId: w.tenantId,
    workspaceId: w.workspaceId,
    contactId: w.contactId,
    channelId: w.channelId,
    ticketNumber: ++ticket,
    userId,
    state: STATES[Math.floor(pick() * STATES.length)]!,
    archived: pick() < 0.2,
  };
}

beforeAll(async () => {
  t = await createTestDatabase();
  a = await ensureTenant(t.db, {
    name: 'Tally A',
    users: { a1: ['agent'], a2: ['agent'], as: ['supervisor'] },
    emailDomain: 'tally-a.test',
    password: 'x1234567',
  });
  b = await ensureTenant(t.db, { name: 'Tally B', users: { b1: ['agent'] }, emailDomain: 'tally-b.test', password: 'x1234567' });
  const second = await t.db.workspace.create({ data: { tenantId: a.tenantId, name: 'Second' } });
  for (const [tenant, workspaceId] of [
    [a, a.workspaceId],
    [a, second.id],
    [b, b.workspaceId],
  ] as const) {
    const contact = await t.db.contact.create({ data: { tenantId: tenant.tenantId, name: 'C', phoneNumber: '+5511999990000' } });
    const channel = await t.db.channel.create({ data: { tenantId: tenant.tenantId, workspaceId, name: 'API', type: 'custom' } });
    workspaces.push({
      tenantId: tenant.tenantId,
      workspaceId,
      contactId: contact.id,
      channelId: channel.id,
      users: Object.values(tenant.users).map((u) => u.id),
    });
  }
});
afterAll(async () => {
  await t?.drop();
});

describe('ConversationTally (kept conversation count)', () => {
  it('sums to count(*) per key after 400 random changes, with compaction in between', async () => {
    const seed = Number(process.env.TALLY_SEED ?? Date.now() % 100_000);
    const pick = random(seed);
    const oneOf = <T>(xs: T[]) => xs[Math.floor(pick() * xs.length)]!;
    const ids = async () => (await t.db.conversation.findMany({ select: { id: true, tenantId: true } })).map((c) => c);
    for (let step = 0; step < 400; step++) {
      const roll = pick();
      const w = oneOf(workspaces);
      if (roll < 0.15) {
        await t.db.conversation.create({ data: conversation(w, pick) });
      } else if (roll < 0.25) {
        await t.db.conversation.createMany({ data: Array.from({ length: 1 + Math.floor(pick() * 20) }, () => conversation(w, pick)) });
      } else if (roll < 0.55) {
        const rows = await ids();
        if (!rows.length) continue;
        const row = oneOf(rows);
        const peer =
          workspaces.find((x) => x.tenantId === row.tenantId && pick() < 0.5) ?? workspaces.find((x) => x.tenantId === row.tenantId)!;
        const change = pick();
        await t.db.conversation.update({
          where: { id: row.id },
          data:
            change < 0.4
              ? { state: oneOf(STATES) }
              : change < 0.6
                ? { userId: pick() < 0.3 ? null : oneOf(peer.users) }
                : change < 0.8
                  ? { archived: pick() < 0.5 }
                  : { workspaceId: peer.workspaceId, channelId: peer.channelId, state: oneOf(STATES) },
        });
      } else if (roll < 0.62) {
        // Bulk moves: every conversation of one state to another (a row trigger per row).
        await t.db.conversation.updateMany({
          where: { tenantId: w.tenantId, workspaceId: w.workspaceId, state: oneOf(STATES) },
          data: { state: oneOf(STATES), userId: null },
        });
      } else if (roll < 0.7) {
        const before = await tallyRows();
        await t.db.conversation.updateMany({
          where: { tenantId: w.tenantId },
          data: { unreadContactMessages: { increment: 1 }, lastMessageAt: new Date() },
        });
        // Updates that leave the counted columns alone append nothing.
        expect(await tallyRows()).toBe(before);
      } else if (roll < 0.78) {
        const rows = await ids();
        if (rows.length) await t.db.conversation.delete({ where: { id: oneOf(rows).id } });
      } else if (roll < 0.82) {
        await t.db.conversation.deleteMany({ where: { tenantId: w.tenantId, state: oneOf(STATES), archived: pick() < 0.5 } });
      } else if (roll < 0.88) {
        // A rolled-back transaction leaves no delta behind.
        await t.db
          .$transaction(async (tx) => {
            await tx.conversation.createMany({ data: [conversation(w, pick), conversation(w, pick)] });
            await tx.conversation.updateMany({ where: { tenantId: w.tenantId }, data: { archived: true } });
            throw new Error('rolled back');
          })
          .catch((error: Error) => expect(error.message).toBe('rolled back'));
      } else {
        await compactConversationTally(t.db, 1 + Math.floor(pick() * 10));
      }
      if (step % 40 === 39) await counted();
    }
    const final = await counted();
    expect(
      Object.values(final).reduce((s, n) => s + n, 0),
      `seed ${seed}`,
    ).toBe(await t.db.conversation.count());
    // The helper the waiting-queue announcements use, per workspace and state.
    for (const w of workspaces) {
      for (const state of STATES) {
        const where = { tenantId: w.tenantId, workspaceId: w.workspaceId, state };
        expect(
          await keptConversationCount(t.db, { tenantId: w.tenantId, workspaceId: w.workspaceId, states: [state] }),
          `${w.workspaceId} ${state}`,
        ).toBe(await t.db.conversation.count({ where }));
      }
    }
  });

  it('answers only filters that set nothing beyond its keys (tallyCovers)', () => {
    const base = { tenantId: a.tenantId, workspaceId: a.workspaceId };
    expect(tallyCovers(base)).toBe(true);
    expect(tallyCovers({ ...base, userId: 1, states: ['waiting'], archived: false })).toBe(true);
    expect(tallyCovers({ ...base, sectorId: undefined, start: undefined })).toBe(true); // unset fields are no filter
    for (const extra of [
      { sectorId: 's' },
      { contactId: 'c' },
      { channelId: 'ch' },
      { start: new Date() },
      { end: new Date() },
      { somethingNew: 1 },
    ]) {
      expect(tallyCovers({ ...base, ...extra }), JSON.stringify(extra)).toBe(false);
    }
  });

  it('compaction leaves one row per key, drops keys that sum to zero, and changes no sum', async () => {
    const w = workspaces[0]!;
    const made = await t.db.conversation.createManyAndReturn({
      data: Array.from({ length: 30 }, (_, i) => ({
        ...conversation(w, random(i)),
        state: 'waiting' as const,
        userId: null,
        archived: false,
      })),
    });
    await t.db.conversation.updateMany({ where: { id: { in: made.map((m) => m.id) } }, data: { state: 'closed' } });
    await t.db.conversation.deleteMany({ where: { id: { in: made.slice(0, 10).map((m) => m.id) } } });
    const before = await counted();
    const folded = await compactConversationTally(t.db);
    expect(folded.rows).toBeGreaterThan(folded.keys);
    expect(await counted()).toEqual(before);
    const perKey = await t.db.$queryRaw<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM "ConversationTally" GROUP BY "tenantId", "workspaceId", "userId", state, archived`;
    expect(Math.max(...perKey.map((r) => r.n))).toBe(1);
    expect(await t.db.conversationTally.count({ where: { n: 0 } })).toBe(0);
    expect(await tallyRows()).toBe(Object.keys(before).length);
    expect(await compactConversationTally(t.db)).toEqual({ keys: 0, rows: 0 });
  });

  it('stays exact with writers and compactions running at the same time', async () => {
    const writers = Array.from({ length: 6 }, async (_, i) => {
      const pick = random(1000 + i);
      const db = createDb(t.url, { poolSize: 1 });
      try {
        for (let k = 0; k < 40; k++) {
          const w = workspaces[Math.floor(pick() * workspaces.length)]!;
          await db.$transaction(async (tx) => {
            const made = await tx.conversation.create({ data: conversation(w, pick), select: { id: true } });
            await tx.conversation.updateMany({
              where: { tenantId: w.tenantId, workspaceId: w.workspaceId, state: 'waiting' },
              data: { state: 'answered' },
            });
            if (pick() < 0.3) await tx.conversation.delete({ where: { id: made.id } });
          });
        }
      } finally {
        await db.$disconnect();
      }
    });
    let stop = false;
    const compactors = Array.from({ length: 2 }, async () => {
      const db = createDb(t.url, { poolSize: 1 });
      let runs = 0;
      try {
        while (!stop || runs === 0) {
          await compactConversationTally(db, 3);
          runs++;
        }
      } finally {
        await db.$disconnect();
      }
      return runs;
    });
    await Promise.all(writers);
    stop = true;
    expect((await Promise.all(compactors)).every((runs) => runs > 0)).toBe(true);
    await counted();
    await compactConversationTally(t.db);
    await counted();
  });

  it('is emptied with the conversations by TRUNCATE', async () => {
    const db = createDb(t.url, { poolSize: 1 });
    try {
      expect(await tallyRows()).toBeGreaterThan(0);
      await db.$executeRawUnsafe('TRUNCATE "Conversation" CASCADE');
      expect(await tallyRows()).toBe(0);
      expect(await counted()).toEqual({});
    } finally {
      await db.$disconnect();
    }
  });
});

describe('migration 20261130010000', () => {
  it('counts the conversations that existed before it', async () => {
    const admin = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
    const name = `atende_tally_${Date.now().toString(36)}`;
    const url = new URL(admin);
    url.pathname = `/${name}`;
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`CREATE DATABASE "${name}"`);
    const dir = await mkdtemp(join(tmpdir(), 'atende-migrations-'));
    try {
      // Every migration before the tally's, then conversations, then the rest.
      for (const m of (await readdir(MIGRATIONS_DIR, { withFileTypes: true })).filter(
        (e) => e.isDirectory() && e.name < '20261130010000',
      )) {
        await cp(join(MIGRATIONS_DIR, m.name), join(dir, m.name), { recursive: true });
      }
      await runMigrations(url.toString(), dir);
      const old = new pg.Client({ connectionString: url.toString() });
      await old.connect();
      try {
        await old.query(`INSERT INTO "Tenant" (id, name, "updatedAt") VALUES ('00000000-0000-4000-8000-000000000001', 'T', now())`);
        await old.query(
          `INSERT INTO "Workspace" (id, "tenantId", name, "updatedAt") VALUES ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 'W', now())`,
        );
        await old.query(
          `INSERT INTO "Contact" (id, "tenantId", name, "updatedAt") VALUES ('00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000001', 'C', now())`,
        );
        await old.query(
          `INSERT INTO "Channel" (id, "tenantId", "workspaceId", name, type, "updatedAt") VALUES ('00000000-0000-4000-8000-000000000004', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', 'API', 'custom', now())`,
        );
        await old.query(`
          INSERT INTO "Conversation" (id, "tenantId", "workspaceId", "contactId", "channelId", state, archived, "ticketNumber", "updatedAt")
          SELECT gen_random_uuid(), '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003',
                 '00000000-0000-4000-8000-000000000004', (ARRAY['waiting','closed','answered'])[1 + g % 3]::"ConversationState", g % 4 = 0, g, now()
          FROM generate_series(1, 50) g`);
      } finally {
        await old.end();
      }
      const rest = await runMigrations(url.toString());
      expect(rest.applied).toContain('20261130010000_conversation_tally');
      const kept = await counted(url.toString());
      expect(Object.values(kept).reduce((s, n) => s + n, 0)).toBe(50);
      expect(Object.keys(kept)).toHaveLength(6);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    }
  });
});
