import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_NODE_FLAGS, MALLOC_TUNABLES, NODE_FLAGS, processEnv } from './node-flags.mjs';

// The flags are written out where a module cannot be imported (package.json "start", the
// Dockerfile's CMD): each of those must say exactly what node-flags.mjs says.
const root = new URL('../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
/** The options node is given, in a command's words: those right after `node`, before the script. */
const nodeFlags = (words: string[]) => {
  const after = words.slice(words.indexOf('node') + 1);
  return after.slice(
    0,
    after.findIndex((w) => !w.startsWith('--')),
  );
};
const startFlags = (pkg: string) => nodeFlags((JSON.parse(read(pkg)) as { scripts: { start: string } }).scripts.start.split(' '));
/** The Dockerfile stage's CMD, in exec form or through sh -c, as words. */
const cmdFlags = (stage: string) => {
  const dockerfile = read('infra/Dockerfile');
  const cmd = dockerfile
    .slice(dockerfile.indexOf(`AS ${stage}`))
    .split('\n')
    .find((l) => l.startsWith('CMD'))!;
  return nodeFlags(
    cmd
      .replace(/^CMD|[[\]",]/g, ' ')
      .split(/\s+/)
      .filter(Boolean),
  );
};

describe('node flags written out', () => {
  it('match node-flags.mjs in package.json start scripts and the Dockerfile, the api with its own', () => {
    expect(API_NODE_FLAGS).toEqual(expect.arrayContaining(NODE_FLAGS));
    expect(startFlags('apps/api/package.json')).toEqual(API_NODE_FLAGS);
    expect(startFlags('apps/worker/package.json')).toEqual(NODE_FLAGS);
    expect(cmdFlags('api')).toEqual(API_NODE_FLAGS);
    expect(cmdFlags('worker')).toEqual(NODE_FLAGS);
  });

  it('set the same glibc allocator thresholds in package.json start scripts and the Dockerfile, unless the environment has its own', () => {
    for (const pkg of ['apps/api/package.json', 'apps/worker/package.json']) {
      const start = (JSON.parse(read(pkg)) as { scripts: { start: string } }).scripts.start;
      expect(start.startsWith(`GLIBC_TUNABLES=\${GLIBC_TUNABLES:-${MALLOC_TUNABLES}} node `)).toBe(true);
    }
    expect(read('infra/Dockerfile')).toContain(`\nENV GLIBC_TUNABLES=${MALLOC_TUNABLES}\n`);
    const before = process.env.GLIBC_TUNABLES;
    try {
      delete process.env.GLIBC_TUNABLES;
      expect(processEnv({ A: '1' })).toEqual({ A: '1', GLIBC_TUNABLES: MALLOC_TUNABLES });
      expect(processEnv({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=1' }).GLIBC_TUNABLES).toBe('glibc.malloc.arena_max=1');
      // The operator's own setting in the launcher's environment (pnpm start passes a fresh env object).
      process.env.GLIBC_TUNABLES = 'glibc.malloc.arena_max=2';
      expect(processEnv({ A: '1' })).toEqual({ A: '1', GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' });
    } finally {
      if (before === undefined) delete process.env.GLIBC_TUNABLES;
      else process.env.GLIBC_TUNABLES = before;
    }
  });

  it('take effect: a node process started with them reports the thresholds through glibc', () => {
    // mallopt's view is not readable from JavaScript; glibc prints its tunables on request.
    const out = execFileSync('/lib64/ld-linux-x86-64.so.2', ['--list-tunables'], { env: processEnv({}), encoding: 'utf8' });
    expect(out).toMatch(/glibc\.malloc\.mmap_threshold: 0x20000/);
    expect(out).toMatch(/glibc\.malloc\.trim_threshold: 0x20000/);
  });
});
