// Small process helpers shared by start.mjs and test.mjs (plain Node, no dependencies).
import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';

export const root = new URL('..', import.meta.url).pathname;

export function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...options, env: { ...process.env, ...options.env } });
  if (result.status !== 0) {
    const error = new Error(`${cmd} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
    error.exitCode = result.status ?? 1;
    throw error;
  }
}

export function background(name, cmd, args, env = {}) {
  const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...env } });
  child.name = name;
  return child;
}

/** Resolves when host:port accepts TCP connections, rejects after `timeoutMs`. */
export function waitForPort(host, port, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = net.connect({ host, port });
      socket.once('connect', () => {
        socket.end();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`${host}:${port} is not reachable`));
        else setTimeout(attempt, 200);
      });
    };
    attempt();
  });
}

export async function waitForHttp(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer in ${timeoutMs / 1000}s`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Checks that Postgres and Redis answer at the configured URLs, with a clear message if not. */
export async function checkServices(databaseUrl, redisUrl) {
  const db = new URL(databaseUrl);
  const redis = new URL(redisUrl);
  for (const [what, url, defPort] of [
    ['Postgres', db, 5432],
    ['Redis', redis, 6379],
  ]) {
    try {
      await waitForPort(url.hostname, Number(url.port || defPort), 5000);
    } catch {
      console.error(
        `\n${what} is not reachable at ${url.hostname}:${url.port || defPort}. Start it, or set ${what === 'Postgres' ? 'DATABASE_URL' : 'REDIS_URL'}.\n`,
      );
      process.exit(1);
    }
  }
}

export const pnpmCmd =
  process.env.npm_execpath && process.env.npm_execpath.includes('pnpm') ? [process.execPath, [process.env.npm_execpath]] : ['pnpm', []];

/** Runs a pnpm command with the same pnpm that runs this script (works under npx pnpm@10 too). */
export function pnpm(args, options) {
  const [cmd, pre] = pnpmCmd;
  return run(cmd, [...pre, ...args], options);
}
export function pnpmBackground(name, args, env) {
  const [cmd, pre] = pnpmCmd;
  return background(name, cmd, [...pre, ...args], env);
}
