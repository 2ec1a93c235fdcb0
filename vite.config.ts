import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** `locales/<area>/<language>.json` belongs to the chunk `locale-<language>`. */
function localeChunkOf(id: string): string | null {
  const match = /[\\/]locales[\\/][^\\/]+[\\/]([a-z_]+)\.json$/.exec(id);
  return match ? `locale-${match[1]}` : null;
}

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    chunkSizeWarningLimit: 4096,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // One chunk per language with every area's texts, loaded when the language is shown.
            { name: (id: string) => localeChunkOf(id) },
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
