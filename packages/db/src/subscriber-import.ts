import type pg from 'pg';

/**
 * The subscriber import's statements on its own node-postgres connection (Prisma has no COPY),
 * inside the transaction the caller opened on it.
 */

/** Where the import COPYs its rows: a temporary table dropped at commit. */
export const IMPORT_STAGING_TABLE = 'import_rows';

export async function createImportStaging(client: pg.ClientBase): Promise<void> {
  await client.query(
    `CREATE TEMP TABLE import_rows (id uuid NOT NULL, line int NOT NULL, name text NOT NULL, phone text NOT NULL, parameters text[] NOT NULL, state text NOT NULL, error text) ON COMMIT DROP`,
  );
}

/** The COPY statement filling the staging table's `columns` (a parenthesised list) from the client. */
export const importStagingCopy = (columns: string): string => `COPY import_rows ${columns} FROM STDIN`;

// The first row of a phone wins (in the batch by DISTINCT ON, across batches and against the
// campaign's earlier subscribers by ON CONFLICT: batches go in file order); a pending row whose
// phone is a tenant contact on one of the campaign's DND lists becomes 'dnd'. Ids come with the
// rows, made by the caller (not by gen_random_uuid, microseconds a row on the database's side) and
// time-ordered (uuid v7): a batch lands at the end of the primary key, not on pages all over it.
const STORE_BATCH = `
WITH firsts AS (
  SELECT DISTINCT ON (phone) id, line, name, phone, parameters, state, error FROM import_rows ORDER BY phone, line
), stored AS (
  INSERT INTO "CampaignSubscriber" (id, "tenantId", "campaignId", "contactId", name, "phoneNumber", parameters, state, "errorMessage", "createdAt", "updatedAt")
  SELECT r.id, $1::uuid, $2::uuid,
         (SELECT c.id FROM "Contact" c WHERE c."tenantId" = $1::uuid AND c."phoneNumber" = r.phone AND c."deletedAt" IS NULL ORDER BY c."createdAt" LIMIT 1),
         r.name, r.phone, r.parameters,
         CASE WHEN r.state = 'pending' AND cardinality($3::uuid[]) > 0 AND EXISTS (
                SELECT 1 FROM "Contact" c JOIN "DndContact" d ON d."contactId" = c.id
                WHERE c."tenantId" = $1::uuid AND c."phoneNumber" = ANY(atende_phone_variants(r.phone)) AND d."dndListId" = ANY($3::uuid[]))
              THEN 'dnd' ELSE r.state END,
         r.error, clock_timestamp(), clock_timestamp()
  FROM (SELECT * FROM firsts ORDER BY line) r
  ON CONFLICT ("campaignId", "phoneNumber") DO NOTHING
  RETURNING state
)
SELECT count(*)::int AS stored, (count(*) FILTER (WHERE state = 'error'))::int AS with_error FROM stored`;

/** Stores the staged batch as the campaign's subscribers, then empties the staging table. How many rows were stored, and how many of them in error. */
export async function storeStagedSubscribers(
  client: pg.ClientBase,
  target: { tenantId: string; campaignId: string; dndListIds: string[] },
): Promise<{ stored: number; withError: number }> {
  const result = await client.query<{ stored: number; with_error: number }>(STORE_BATCH, [
    target.tenantId,
    target.campaignId,
    target.dndListIds,
  ]);
  await client.query('TRUNCATE import_rows');
  return { stored: result.rows[0]?.stored ?? 0, withError: result.rows[0]?.with_error ?? 0 };
}

/** The import's final counters, written in its transaction so they commit with the rows they count. */
export async function recordImportDone(
  client: pg.ClientBase,
  tenantId: string,
  campaignId: string,
  summary: Record<string, unknown>,
): Promise<void> {
  await client.query(
    `UPDATE "Campaign" SET "importStatus" = 'done', "importSummary" = $3::jsonb, "updatedAt" = now() WHERE id = $2::uuid AND "tenantId" = $1::uuid`,
    [tenantId, campaignId, JSON.stringify(summary)],
  );
}

/** Transaction control of the import's connection. */
export async function importTransaction(client: pg.ClientBase, step: 'BEGIN' | 'COMMIT' | 'ROLLBACK'): Promise<void> {
  await client.query(step);
}
