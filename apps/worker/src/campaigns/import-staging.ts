import { randomFillSync } from 'node:crypto';
import { finished } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { v7 as uuidv7 } from 'uuid';
import { copyLine, STAGING_COLUMNS, type StagedRow } from './import-rows';

// uuid's own source of randomness asks the system for 16 bytes per id (a system call each, slow on
// some hosts); ids made by the hundred thousand take theirs from a pool refilled 1,024 ids at a time.
const randomPool = new Uint8Array(16 * 1024);
let poolAt = randomPool.length;
function pooledRandom(): Uint8Array {
  if (poolAt === randomPool.length) {
    randomFillSync(randomPool);
    poolAt = 0;
  }
  poolAt += 16;
  return randomPool.subarray(poolAt - 16, poolAt);
}
const rowId = () => uuidv7({ rng: pooledRandom });

/** Rows staged and stored per batch: the next batch is read while this one is stored. */
export const IMPORT_BATCH = 10_000;

// spec 001 §4-§5: the first row of a phone wins (in the batch by DISTINCT ON, across batches and
// against the campaign's earlier subscribers by ON CONFLICT: batches go in file order); a pending
// row whose phone is a tenant contact on one of the campaign's DND lists becomes 'dnd'. Ids come
// with the rows, made here (not by gen_random_uuid, microseconds a row on the database's side) and
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

/**
 * The import's staging table on its own connection, inside the caller's transaction: rows are
 * COPYed in batches and each batch is stored set-based while the next one is read from the file
 * (at most one batch waits in memory). Nothing is visible to others before the caller commits.
 */
export class SubscriberStaging {
  stored = 0;
  withError = 0;
  private text = '';
  private rows = 0;
  private storing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly client: pg.Client,
    private readonly target: { tenantId: string; campaignId: string; dndListIds: string[] },
    private readonly batchRows: number,
  ) {}

  static async open(client: pg.Client, target: { tenantId: string; campaignId: string; dndListIds: string[] }, batchRows = IMPORT_BATCH): Promise<SubscriberStaging> {
    await client.query(`CREATE TEMP TABLE import_rows (id uuid NOT NULL, line int NOT NULL, name text NOT NULL, phone text NOT NULL, parameters text[] NOT NULL, state text NOT NULL, error text) ON COMMIT DROP`);
    return new SubscriberStaging(client, target, batchRows);
  }

  async add(line: number, row: StagedRow): Promise<void> {
    this.text += copyLine(rowId(), line, row);
    if (++this.rows >= this.batchRows) await this.flush();
    // The batch being stored takes a few round trips (COPY, the insert, TRUNCATE): the event loop
    // gets a turn every 256 rows so Postgres's answers are read and the next statement sent at once,
    // not after the reader's whole file chunk (Postgres sat idle about a third of the import).
    else if (this.rows % 256 === 0) await new Promise(setImmediate);
  }

  /** Every row added is stored (or the error that stopped it is thrown). */
  async finish(): Promise<{ stored: number; withError: number }> {
    await this.flush();
    await this.storing;
    return { stored: this.stored, withError: this.withError };
  }

  /** After a failure: lets the batch in flight end before the caller rolls back. */
  async settle(): Promise<void> {
    await this.storing.catch(() => undefined);
  }

  private async flush(): Promise<void> {
    // The previous batch is stored (and the table emptied) before this one is copied in.
    await this.storing;
    if (!this.rows) return;
    const text = this.text;
    this.text = '';
    this.rows = 0;
    this.storing = this.store(text);
    // Awaited by the next flush or finish; marked handled so a failure meanwhile is not "unhandled".
    this.storing.catch(() => undefined);
  }

  private async store(text: string): Promise<void> {
    const copy = this.client.query(copyFrom(`COPY import_rows ${STAGING_COLUMNS} FROM STDIN`));
    const copied = finished(copy);
    copy.end(text);
    await copied;
    const { tenantId, campaignId, dndListIds } = this.target;
    const result = await this.client.query<{ stored: number; with_error: number }>(STORE_BATCH, [tenantId, campaignId, dndListIds]);
    this.stored += result.rows[0]?.stored ?? 0;
    this.withError += result.rows[0]?.with_error ?? 0;
    await this.client.query('TRUNCATE import_rows');
  }
}
