import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Libraries that change rarely get their own chunks, so a web app release keeps them cached. */
const VENDOR_CHUNKS: Record<string, RegExp> = {
  react: /node_modules\/(react|react-dom|react-router|scheduler)\//,
  mantine: /node_modules\/@mantine\//,
  icons: /node_modules\/@tabler\//,
};

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    rollupOptions: {
      output: {
        manualChunks(id) {
          for (const [name, pattern] of Object.entries(VENDOR_CHUNKS)) if (pattern.test(id)) return name;
          return undefined;
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000', '/socket': { target: 'http://127.0.0.1:3000', ws: true } },
  },
});
