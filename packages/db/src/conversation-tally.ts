import type { Db } from './client';
import type { ConversationState } from '../generated/prisma/enums';

/** Keys folded per run at most, so one run stays one short transaction on a large backlog. */
export const TALLY_COMPACT_KEYS = 5_000;

/** The columns the kept count is kept by; a filter naming only these can be answered from it. */
export interface TallyFilter {
  tenantId: string;
  workspaceId: string;
  userId?: number;
  states?: ConversationState[];
  archived?: boolean;
}

const TALLY_KEYS = new Set<string>(['tenantId', 'workspaceId', 'userId', 'states', 'archived'] satisfies (keyof TallyFilter)[]);

/**
 * Whether the kept count answers this filter: it sets no field beyond TallyFilter's. Read from the
 * filter itself, so a filter field added later is counted by rows until the tally keeps it too.
 */
export function tallyCovers(filter: object): boolean {
  return Object.entries(filter).every(([key, value]) => value === undefined || TALLY_KEYS.has(key));
}

/** How many conversations of a workspace match: the sum of the kept count's deltas over the filter. */
export async function keptConversationCount(db: Db, f: TallyFilter): Promise<number> {
  const kept = await db.conversationTally.aggregate({
    where: {
      tenantId: f.tenantId,
      workspaceId: f.workspaceId,
      userId: f.userId,
      state: f.states?.length ? { in: f.states } : undefined,
      archived: f.archived,
    },
    _sum: { n: true },
  });
  return kept._sum.n ?? 0;
}

/**
 * Folds the deltas of each ConversationTally key into one row and drops keys that sum to zero
 * (migration 20261130010000). One statement: the rows it deletes are the rows it sums, so deltas
 * appended meanwhile by other transactions are neither deleted nor counted twice, and the sums are
 * unchanged in every snapshot. Tally rows are never updated; a second compaction running at the
 * same time waits for the first's deletes and skips the rows it took, so nothing is folded twice.
 */
export async function compactConversationTally(db: Db, maxKeys = TALLY_COMPACT_KEYS): Promise<{ keys: number; rows: number }> {
  const [result] = await db.$queryRaw<{ keys: number; rows: number }[]>`
    WITH loose AS (
      SELECT "tenantId", "workspaceId", "userId", state, archived FROM "ConversationTally"
      GROUP BY "tenantId", "workspaceId", "userId", state, archived
      HAVING count(*) > 1 OR sum(n) = 0
      LIMIT ${maxKeys}
    ), gone AS (
      DELETE FROM "ConversationTally" t USING loose l
      WHERE t."tenantId" = l."tenantId" AND t."workspaceId" = l."workspaceId" AND t."userId" IS NOT DISTINCT FROM l."userId"
        AND t.state = l.state AND t.archived = l.archived
      RETURNING t."tenantId", t."workspaceId", t."userId", t.state, t.archived, t.n
    ), kept AS (
      INSERT INTO "ConversationTally" ("tenantId", "workspaceId", "userId", state, archived, n)
      SELECT "tenantId", "workspaceId", "userId", state, archived, sum(n) FROM gone
      GROUP BY "tenantId", "workspaceId", "userId", state, archived
      HAVING sum(n) <> 0
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM loose)::int AS keys, (SELECT count(*) FROM gone)::int AS rows`;
  return result ?? { keys: 0, rows: 0 };
}
