import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';

export type Db = PrismaClient;

/** How many SQL texts get a prepared statement on each connection, at most. */
export const PREPARED_STATEMENTS_MAX = 400;

/**
 * Names for node-postgres prepared statements: a SQL text seen a second time gets a name (its hash),
 * so every connection parses and plans it once and afterwards sends only its parameters (the
 * inbound message's statement is 2.5 KB of SQL; Postgres planned it on every message). A text seen
 * once stays unnamed, so SQL that embeds values cannot fill the cache, and at most `max` texts are
 * ever named: each connection holds at most that many statements. '' leaves a query unnamed.
 */
export function preparedStatementNames(max = PREPARED_STATEMENTS_MAX): (query: { sql: string }) => string {
  const names = new Map<string, string>(); // SQL text -> its name, '' while seen once
  let named = 0;
  return ({ sql }) => {
    const name = names.get(sql);
    if (name) return name;
    if (name === undefined) {
      if (names.size < max * 4) names.set(sql, '');
      return '';
    }
    if (named >= max) return '';
    named += 1;
    const given = `atende_${createHash('sha256').update(sql).digest('base64url').slice(0, 32)}`;
    names.set(sql, given);
    return given;
  };
}

/**
 * One Prisma Client over node-postgres (Prisma 7, no Rust engine), with prepared statements.
 * errorFormat 'minimal': Prisma otherwise captures a stack trace (new Error()) on every call, to
 * point a validation error at the caller's line; that was 2% of the api's CPU under message load.
 * Idle connections are kept five minutes, not node-postgres' ten seconds: a pool sized for a burst
 * otherwise closed the connections the burst had opened ten seconds later and opened new ones at
 * the next, each a new Postgres backend with cold caches and none of the prepared statements.
 * In the fan-out bench that churn put a 400-800 ms stall in most runs.
 */
export function createDb(databaseUrl: string, options: { poolSize?: number } = {}): Db {
  const adapter = new PrismaPg(
    { connectionString: databaseUrl, max: options.poolSize ?? 10, idleTimeoutMillis: 300_000, keepAlive: true },
    { statementNameGenerator: preparedStatementNames() },
  );
  return new PrismaClient({ adapter, errorFormat: 'minimal' });
}

/** Whether the database answers a trivial query (the readiness probe). */
export async function databaseAnswers(db: Db): Promise<boolean> {
  await db.$queryRaw`SELECT 1`;
  return true;
}
