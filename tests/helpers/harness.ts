import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { build } from 'vite';
import react from '@vitejs/plugin-react';

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

export interface ServedHarness {
  /** `http://127.0.0.1:<port>/`, the harness's index page. */
  url: string;
  close(): Promise<void>;
}

/**
 * Builds a harness page (its own index.html and entry, importing real modules of ours) with Vite
 * into a temporary folder, without touching dist/, and serves it on 127.0.0.1 at a free port.
 * Closing stops the server and removes the folder.
 */
export async function buildAndServeHarness(root: string, options: { minify?: boolean } = {}): Promise<ServedHarness> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `wms-${path.basename(root)}-`));
  try {
    await build({
      root,
      configFile: false,
      logLevel: 'warn',
      plugins: [react()],
      build: { outDir: folder, emptyOutDir: true, chunkSizeWarningLimit: 8192, minify: options.minify ?? true },
    });
  } catch (error) {
    fs.rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  const server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    const file = path.join(folder, pathname === '/' ? 'index.html' : path.normalize(pathname));
    if (!file.startsWith(folder) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
