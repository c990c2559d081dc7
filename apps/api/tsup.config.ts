import { defineConfig } from 'tsup';
import { nodeBundle } from '../../tsup.node';

export default defineConfig(nodeBundle({ server: 'src/server.ts' }));
