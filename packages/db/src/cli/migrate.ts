import { ensureDatabase, runMigrations } from '../migrations';

const url = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/atende';
await ensureDatabase(url);
const result = await runMigrations(url);
process.stdout.write(
  `migrations: ${result.applied.length} applied${result.applied.length ? ` (${result.applied.join(', ')})` : ''}, ${result.alreadyApplied.length} already applied\n`,
);
