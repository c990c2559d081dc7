// Generates the Prisma Client from prisma/schema.prisma.
// The Prisma CLI wants to download a schema engine it does not need for `generate`; pointing
// PRISMA_SCHEMA_ENGINE_BINARY at any existing file makes it skip that download (docs/architecture.md, Migrations).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
const cwd = fileURLToPath(new URL('..', import.meta.url));
const result = spawnSync('pnpm', ['exec', 'prisma', 'generate'], { cwd, env, stdio: 'inherit' });
process.exit(result.status ?? 1);
