import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SIMULATOR_MARKERS, simulatorCodeIn } from './check-bundles.mjs';

const simulatorsSrc = new URL('../packages/simulators/src/', import.meta.url);

describe('check-bundles', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const bundle = (files: Record<string, string>) => {
    dir = mkdtempSync(join(tmpdir(), 'atende-bundle-'));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return dir;
  };

  it('passes a bundle of production code only', () => {
    const d = bundle({
      'server.js': "import { channelAdapters } from './chunk.js';\nexport const url = '/api/v1/channels';",
      'chunk.js': 'export const channelAdapters = {};',
      'server.js.map': JSON.stringify({ version: 3, sources: ['../../../packages/channels/src/index.ts'], mappings: '' }),
    });
    expect(simulatorCodeIn([d])).toEqual([]);
  });

  it('names each bundle file holding a simulator route, a simulator, the demo seed or a simulators source', () => {
    const d = bundle({
      'server.js': "app.post('/_simulator/inbound', handler);",
      'chunks/worker-a.js': 'await startWhatsAppSimulator({ port: 0 });',
      'chunks/seed.mjs': 'export async function seedDemo2(db) {}',
      'chunks/other.js.map': JSON.stringify({
        version: 3,
        sources: ['../../../../packages/simulators/src/meta/simulator.ts'],
        mappings: '',
      }),
    });
    const found = simulatorCodeIn([d])
      .map((f) => `${f.file.slice(d.length + 1)}: ${f.what}`)
      .sort();
    expect(found).toEqual([
      'chunks/other.js.map: built from ../../../../packages/simulators/src/meta/simulator.ts',
      'chunks/seed.mjs: the demo seed',
      'chunks/worker-a.js: a simulator start function',
      'server.js: a simulator control route (/_simulator/...)',
    ]);
  });

  it('looks for markers the simulators and the demo seed really hold', () => {
    const sources = readdirSync(simulatorsSrc, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .map((name) => readFileSync(new URL(name, simulatorsSrc), 'utf8'));
    for (const marker of SIMULATOR_MARKERS)
      expect(
        sources.some((text) => marker.pattern.test(text)),
        marker.name,
      ).toBe(true);
  });
});
