// Starts the built stack for the end-to-end tests on a fresh database `atende_e2e`: migrations,
// demo seed, then the api (serving the web app) and the worker. Stays in the foreground until killed.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const port = process.env.E2E_PORT ?? '3100';
const databaseUrl = 'postgresql://postgres@127.0.0.1:5432/atende_e2e';
const env = {
  ...process.env,
  DATABASE_URL: databaseUrl,
  REDIS_PREFIX: `atende-e2e-${port}:`,
  PORT: port,
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  ALLOWED_ORIGINS: `http://127.0.0.1:${port},http://localhost:${port}`,
  TENANT_DOMAIN: `127.0.0.1:${port}`,
};

const psql = spawnSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-c', 'DROP DATABASE IF EXISTS atende_e2e WITH (FORCE)'], { stdio: 'inherit' });
if (psql.status !== 0) process.exit(psql.status ?? 1);
const redis = spawnSync('sh', ['-c', `redis-cli -h 127.0.0.1 --scan --pattern 'atende-e2e-${port}:*' | xargs -r redis-cli -h 127.0.0.1 del > /dev/null`], { stdio: 'inherit' });
if (redis.status !== 0) process.exit(redis.status ?? 1);
const tsx = `${root}node_modules/.bin/tsx`;
for (const script of ['packages/db/src/cli/migrate.ts', 'prisma/seed.ts']) {
  const r = spawnSync(tsx, [script], { cwd: root, env, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const children = [
  spawn(process.execPath, ['apps/api/dist/server.js'], { cwd: root, env, stdio: 'inherit' }),
  spawn(process.execPath, ['apps/worker/dist/worker.js'], { cwd: root, env, stdio: 'inherit' }),
];
const stop = () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  setTimeout(() => process.exit(0), 3000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
for (const c of children) c.on('exit', (code) => {
  if (code && code !== 0) {
    console.error(`e2e stack: a process exited with ${code}`);
    stop();
  }
});
