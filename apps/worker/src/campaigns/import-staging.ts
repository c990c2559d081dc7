import { randomFillSync } from 'node:crypto';
import { finished } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { v7 as uuidv7 } from 'uuid';
import { createImportStaging, importStagingCopy, storeStagedSubscribers } from '@atende/db';
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

  static async open(
    client: pg.Client,
    target: { tenantId: string; campaignId: string; dndListIds: string[] },
    batchRows = IMPORT_BATCH,
  ): Promise<SubscriberStaging> {
    await createImportStaging(client);
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
    const copy = this.client.query(copyFrom(importStagingCopy(STAGING_COLUMNS)));
    const copied = finished(copy);
    copy.end(text);
    await copied;
    // The first row of a phone wins, DND contacts become 'dnd' (storeStagedSubscribers); ids come
    // with the rows, made here and time-ordered (uuid v7), so a batch lands at the end of the primary key.
    const batch = await storeStagedSubscribers(this.client, this.target);
    this.stored += batch.stored;
    this.withError += batch.withError;
  }
}
