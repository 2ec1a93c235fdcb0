import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { FIRST_SCREEN_AREAS } from './src/common/locale-tree';

/** `locales/<area>/<language>.json` belongs to the chunk `locale-<language>`, or `locale-<language>-areas` past sign-in. */
function localeChunkOf(id: string): string | null {
  const match = /[\\/]locales[\\/]([^\\/]+)[\\/]([a-z_]+)\.json$/.exec(id);
  if (!match) return null;
  return FIRST_SCREEN_AREAS.includes(match[1]) ? `locale-${match[2]}` : `locale-${match[2]}-areas`;
}

const PURE_MODULES = /[\\/]engine[\\/](schema|core)[\\/]/;

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    chunkSizeWarningLimit: 4096,
    rolldownOptions: {
      // The page-definition schema and the engine's core are pure (eslint.config.js keeps them so):
      // what a chunk does not use of them stays out of it, e.g. the definition validator, which
      // only the designer needs, out of the engine's page chunk.
      treeshake: { moduleSideEffects: (id: string) => (PURE_MODULES.test(id) ? false : undefined) },
      output: {
        codeSplitting: {
          groups: [
            // The libraries the sign-in page runs, one chunk: fewer requests and better compression
            // than the many small chunks they would otherwise be spread over.
            { name: 'vendor', test: /[\\/]node_modules[\\/]/, tags: ['$initial'] },
            // One chunk per language with every area's texts, loaded when the language is shown.
            { name: (id: string) => localeChunkOf(id), debugName: 'locales' },
            // The grid, its own chunk: cached apart from the engine's code, which changes more often.
            { name: 'ag-grid', test: /[\\/]node_modules[\\/](ag-grid-community|ag-grid-react|ag-stack)[\\/]/, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
});
