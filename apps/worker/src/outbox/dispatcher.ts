import type { QueueName } from '@atende/contract';
import { checkJob, lockUndispatchedJobs, markJobsDispatched, withTransaction, type Db, type JobCheck } from '@atende/db';
import type { JobsOptions, Queue } from 'bullmq';
import type { Logger } from 'pino';

/**
 * The transactional outbox's second half: producers write an OutboxJob row (enqueue, @atende/db)
 * in the same transaction as the state change that needs work; this moves undispatched rows
 * into BullMQ. Rows are claimed with FOR UPDATE SKIP LOCKED, so several workers share the work
 * without waiting on each other, and enqueued with jobId = row id, so a batch enqueued by a worker
 * that died before committing its "dispatched" mark is enqueued again as a no-op.
 */

export interface OutboxDispatchDeps {
  db: Db;
  queues: { get(name: QueueName): Pick<Queue, 'addBulk'> };
  log: Logger;
  batchSize?: number;
  /** Merged over each queue's defaults (tests use a short backoff). */
  jobOptions?: JobsOptions;
  /** Runs after the batch is enqueued, before the rows are marked; tests simulate a crash here. */
  afterEnqueue?: (rowIds: string[]) => Promise<void>;
}

export interface DispatchResult {
  /** Rows handed to BullMQ. */
  dispatched: number;
  /** Rows dropped (unknown queue, payload not matching the contract), marked so they never block. */
  invalid: number;
}

export const DEFAULT_BATCH_SIZE = 100;

interface OutboxRow {
  id: string;
  tenantId: string;
  queue: string;
  payload: unknown;
}

/**
 * The producer's check again (enqueue refuses a bad payload before the row exists): a row written
 * some other way (by hand, by an older release) is still dropped here rather than failing its job.
 */
function checkRow(row: OutboxRow): JobCheck {
  const checked = checkJob(row.queue, row.payload);
  if (!checked.ok) return checked;
  const tenantUuid = (checked.data as { tenant_uuid?: unknown }).tenant_uuid;
  if (typeof tenantUuid === 'string' && tenantUuid !== row.tenantId) {
    return { ok: false, reason: 'payload tenant_uuid differs from the row tenantId' };
  }
  return checked;
}

/** Moves at most one batch, oldest first; returns what it did. Safe to run from many workers at once. */
export async function dispatchOutboxBatch(deps: OutboxDispatchDeps): Promise<DispatchResult> {
  const batchSize = deps.batchSize ?? DEFAULT_BATCH_SIZE;
  return withTransaction(
    deps.db,
    async (tx) => {
      const rows: OutboxRow[] = await lockUndispatchedJobs(tx, batchSize);
      if (rows.length === 0) return { dispatched: 0, invalid: 0 };

      const byQueue = new Map<QueueName, { name: string; data: unknown; opts: JobsOptions }[]>();
      let invalid = 0;
      for (const row of rows) {
        const checked = checkRow(row);
        if (!checked.ok) {
          invalid++;
          deps.log.error(
            { outboxJobId: row.id, queue: row.queue, tenantId: row.tenantId, reason: checked.reason },
            'invalid outbox job dropped',
          );
          continue;
        }
        const jobs = byQueue.get(checked.queue) ?? [];
        jobs.push({ name: checked.queue, data: checked.data, opts: { ...deps.jobOptions, jobId: row.id } });
        byQueue.set(checked.queue, jobs);
      }
      for (const [queue, jobs] of byQueue) await deps.queues.get(queue).addBulk(jobs);

      const ids = rows.map((r) => r.id);
      await deps.afterEnqueue?.(ids);
      await markJobsDispatched(tx, ids);
      return { dispatched: rows.length - invalid, invalid };
    },
    // Enqueueing a batch is a few Redis round trips; the row locks are held only that long.
    { timeout: 30_000, maxWait: 10_000 },
  );
}
