import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_NODE_FLAGS, NODE_FLAGS } from './node-flags.mjs';

// The flags are written out where a module cannot be imported (package.json "start", the
// Dockerfile's CMD): each of those must say exactly what node-flags.mjs says.
const root = new URL('../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const startFlags = (pkg: string) => (JSON.parse(read(pkg)) as { scripts: { start: string } }).scripts.start.split(' ').filter((w) => w.startsWith('--'));
const cmdFlags = (stage: string) => {
  const dockerfile = read('infra/Dockerfile');
  const section = dockerfile.slice(dockerfile.indexOf(`AS ${stage}`));
  const cmd = section.split('\n').find((l) => l.startsWith('CMD'))!;
  return [...cmd.matchAll(/--[a-z-]+=?[0-9]*/g)].map((m) => m[0]).filter((f) => f !== '--filter');
};

describe('node flags written out', () => {
  it('match node-flags.mjs in package.json start scripts and the Dockerfile, the api with its own', () => {
    expect(API_NODE_FLAGS).toEqual(expect.arrayContaining(NODE_FLAGS));
    expect(startFlags('apps/api/package.json')).toEqual(API_NODE_FLAGS);
    expect(startFlags('apps/worker/package.json')).toEqual(NODE_FLAGS);
    expect(cmdFlags('api')).toEqual(API_NODE_FLAGS);
    expect(cmdFlags('worker')).toEqual(NODE_FLAGS);
  });
});
