import { defineConfig } from 'vitest/config';

// Unit tests of the web app's pure rules (run: pnpm --filter @atende/web test).
export default defineConfig({ test: { include: ['src/**/*.test.ts'], environment: 'node' } });
