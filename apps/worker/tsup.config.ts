import { defineConfig } from 'tsup';
import { nodeBundle } from '../../tsup.node';

export default defineConfig(nodeBundle({ worker: 'src/worker.ts' }));
