import { queues } from '@atende/contract';
import { Prisma } from '../generated/prisma/client';

/**
 * The transactional outbox's first half: a job is an OutboxJob row written in the same transaction
 * as the state change that needs it, and the worker's dispatcher moves committed rows into BullMQ
 * (with the row id as the job id). Every producer writes through this module, so a payload is
 * checked against its queue's contract schema before the row exists: a wrong one fails the
 * producer's transaction at once instead of being dropped by the dispatcher later.
 */

type QueueDefinition = (typeof queues)[keyof typeof queues];
type DefinitionOf<N extends string> = Extract<QueueDefinition, { name: N }>;

/** A queue's payload as its contract schema describes it. */
export type JobPayload<N extends QueueDefinition['name']> = DefinitionOf<N>['payload']['_output'];

/**
 * The queues whose jobs belong to one tenant (every payload carries tenant_uuid, the row's
 * tenantId): all but maintenance, which the worker schedules itself and never writes to the outbox.
 */
export type OutboxQueue = {
  [N in QueueDefinition['name']]: JobPayload<N> extends { tenant_uuid: string } ? N : never;
}[QueueDefinition['name']];

/** What enqueue writes through: a transaction client, or the client itself for a lone job. */
export type OutboxWriter = Pick<Prisma.TransactionClient, 'outboxJob'>;

/** A payload refused before it was written; the message names fields, never values. */
export class OutboxPayloadError extends Error {
  constructor(
    readonly queue: string,
    readonly reason: string,
  ) {
    super(`Invalid ${queue} job: ${reason}`);
    this.name = 'OutboxPayloadError';
  }
}

export type JobCheck = { ok: true; queue: QueueDefinition['name']; data: unknown } | { ok: false; reason: string };

interface FieldSchema {
  safeParse(
    value: unknown,
  ): { success: true; data: unknown } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

function describeIssues(issues: { path: PropertyKey[]; message: string }[], prefix = ''): string {
  // Paths and messages only: payloads hold message text and raw provider bodies.
  return issues.map((i) => `${[prefix, ...i.path.map(String)].filter(Boolean).join('.') || '(payload)'}: ${i.message}`).join('; ');
}

function definitionOf(queue: string): QueueDefinition | undefined {
  return Object.values(queues).find((q) => q.name === queue);
}

/**
 * Checks a job against its queue's contract schema: the one check both sides run, the producer
 * before writing the row and the dispatcher before handing it to BullMQ.
 */
export function checkJob(queue: string, payload: unknown): JobCheck {
  const definition = definitionOf(queue);
  if (!definition) return { ok: false, reason: `unknown queue "${queue}"` };
  const parsed = definition.payload.safeParse(payload);
  if (!parsed.success) return { ok: false, reason: describeIssues(parsed.error.issues) };
  return { ok: true, queue: definition.name, data: parsed.data };
}

function checked<N extends OutboxQueue>(queue: N, payload: JobPayload<N>): JobPayload<N> {
  const result = checkJob(queue, payload);
  if (!result.ok) throw new OutboxPayloadError(queue, result.reason);
  // The row's tenant is the payload's: a queue whose jobs belong to no tenant has no outbox row.
  if (typeof (result.data as { tenant_uuid?: unknown }).tenant_uuid !== 'string')
    throw new OutboxPayloadError(queue, 'this queue takes no outbox jobs (its payload names no tenant)');
  return result.data as JobPayload<N>;
}

/**
 * Writes one job in the caller's transaction; it reaches its queue once that commits. Answers the
 * row id, which is also the BullMQ job id.
 */
export async function enqueue<N extends OutboxQueue>(tx: OutboxWriter, queue: N, payload: JobPayload<N>): Promise<string> {
  const data = checked(queue, payload);
  const row = await tx.outboxJob.create({ data: { tenantId: data.tenant_uuid, queue, payload: data }, select: { id: true } });
  return row.id;
}

/** Writes many jobs of one queue in one statement (every payload checked first); answers how many. */
export async function enqueueMany<N extends OutboxQueue>(tx: OutboxWriter, queue: N, payloads: readonly JobPayload<N>[]): Promise<number> {
  if (payloads.length === 0) return 0;
  const data = payloads.map((payload) => checked(queue, payload));
  const { count } = await tx.outboxJob.createMany({ data: data.map((payload) => ({ tenantId: payload.tenant_uuid, queue, payload })) });
  return count;
}

/** A payload for enqueueSql: each field a value, or a SQL expression over the statement's rows. */
export type SqlJobPayload<N extends OutboxQueue> = { [K in keyof JobPayload<N>]-?: JobPayload<N>[K] | Prisma.Sql };

/**
 * The job insert as a SQL fragment, for a producer that writes its job inside one larger statement
 * (a data-modifying CTE), so the job exists exactly when that statement's own rows do and costs no
 * extra round trip. `from` is the rest of the SELECT (`FROM ... WHERE ...`): one job per row it
 * yields, none when it yields none. Value fields are checked against the queue's schema now;
 * expression fields are the statement's own columns (uuids, numbers), which Postgres types.
 */
export function enqueueSql<N extends OutboxQueue>(
  queue: N,
  payload: SqlJobPayload<N>,
  from: Prisma.Sql,
  createdAt: Date | Prisma.Sql = Prisma.sql`now()`,
): Prisma.Sql {
  const definition = definitionOf(queue);
  const shape = (definition?.payload as { shape?: Record<string, FieldSchema> } | undefined)?.shape;
  if (!shape) throw new OutboxPayloadError(queue, 'a queue whose payload is not an object cannot be written by SQL');
  const fields = payload as Record<string, unknown>;
  const missing = Object.keys(shape).filter((key) => !(key in fields));
  const extra = Object.keys(fields).filter((key) => !(key in shape));
  if (missing.length || extra.length)
    throw new OutboxPayloadError(
      queue,
      [...missing.map((k) => `${k}: missing`), ...extra.map((k) => `${k}: not in the schema`)].join('; '),
    );

  const values: Record<string, unknown> = {};
  const expressions: Prisma.Sql[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (value instanceof Prisma.Sql) {
      // The key is one of the schema's own field names (checked above), safe as a literal.
      if (!/^[a-z_]+$/.test(key)) throw new OutboxPayloadError(queue, `${key}: not a plain field name`);
      expressions.push(Prisma.sql`${Prisma.raw(`'${key}'`)}, ${value}`);
      continue;
    }
    const field = shape[key]!.safeParse(value);
    if (!field.success) throw new OutboxPayloadError(queue, describeIssues(field.error.issues, key));
    values[key] = field.data;
  }
  // Values travel as one jsonb parameter (an untyped parameter cannot be an argument of jsonb_build_object).
  const parts = [
    ...(Object.keys(values).length ? [Prisma.sql`${JSON.stringify(values)}::jsonb`] : []),
    ...(expressions.length ? [Prisma.sql`jsonb_build_object(${Prisma.join(expressions)})`] : []),
  ];
  const json = Prisma.join(parts, ' || ');
  const tenant = fields.tenant_uuid instanceof Prisma.Sql ? fields.tenant_uuid : Prisma.sql`${fields.tenant_uuid}`;
  return Prisma.sql`INSERT INTO "OutboxJob" (id, "tenantId", queue, payload, "createdAt")
          SELECT gen_random_uuid(), (${tenant})::uuid, ${queue}, ${json}, ${createdAt} ${from}`;
}

/** Locks up to `limit` undispatched outbox rows, oldest first (rows another dispatcher holds are skipped). */
export function lockUndispatchedJobs(tx: Pick<Prisma.TransactionClient, '$queryRaw'>, limit: number) {
  return tx.$queryRaw<{ id: string; tenantId: string; queue: string; payload: unknown }[]>`
    SELECT "id", "tenantId", "queue", "payload" FROM "OutboxJob"
    WHERE "dispatchedAt" IS NULL
    ORDER BY "createdAt", "id"
    LIMIT ${limit}
    FOR UPDATE SKIP LOCKED`;
}

/** Marks outbox rows dispatched (kept a while for investigation, see pruneDispatchedOutbox). */
export async function markJobsDispatched(tx: Pick<Prisma.TransactionClient, 'outboxJob'>, ids: string[]): Promise<void> {
  await tx.outboxJob.updateMany({ where: { id: { in: ids } }, data: { dispatchedAt: new Date() } });
}
