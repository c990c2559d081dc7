import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, type Db } from './client';
import { listMigrations, runMigrations } from './migrations';

const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const TEMPLATE_LOCK = 72707370;

function urlFor(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A migrated template database named after the migrations' checksums, made once and reused. */
async function templateDatabase(): Promise<string> {
  const migrations = await listMigrations();
  const digest = createHash('sha256')
    .update(migrations.map((m) => m.checksum).join())
    .digest('hex')
    .slice(0, 12);
  const name = `atende_tpl_${digest}`;
  await withAdmin(async (admin) => {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (exists.rowCount === 0) {
        await admin.query(`CREATE DATABASE "${name}_building"`).catch(async () => {
          await admin.query(`DROP DATABASE IF EXISTS "${name}_building"`);
          await admin.query(`CREATE DATABASE "${name}_building"`);
        });
        await runMigrations(urlFor(`${name}_building`));
        await admin.query(`ALTER DATABASE "${name}_building" RENAME TO "${name}"`);
      }
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
  return name;
}

export interface TestDatabase {
  url: string;
  db: Db;
  drop(): Promise<void>;
}

/** A fresh, fully migrated database of its own for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = await templateDatabase();
  const name = `atende_t_${randomBytes(6).toString('hex')}`;
  await withAdmin(async (admin) => {
    // CREATE DATABASE ... TEMPLATE refuses while another session copies the same template.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return;
      } catch (error) {
        if (attempt > 50 || (error as { code?: string }).code !== '55006') throw error;
        await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
      }
    }
  });
  const url = urlFor(name);
  const db = createDb(url, { poolSize: 5 });
  return {
    url,
    db,
    async drop() {
      await db.$disconnect();
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}
