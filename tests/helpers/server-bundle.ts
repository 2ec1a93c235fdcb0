import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Bundles the server's own code (`src/server/main.ts` and everything it imports from this
 * repository) into one JavaScript file, once per test run, so that every server a test starts loads
 * plain JavaScript instead of transpiling the whole server through tsx again. Packages stay imports
 * of node_modules (but those of `INLINED_PACKAGES`), so the file lies in node_modules/.cache (it
 * resolves them from there), and each
 * source file keeps its own `import.meta.url` and `import.meta.dirname` (the server finds its locales,
 * definitions and packages' files relative to them).
 */
export async function buildServerBundle(): Promise<string> {
  const cache = path.join(ROOT, 'node_modules', '.cache');
  fs.mkdirSync(cache, { recursive: true });
  const dir = fs.mkdtempSync(path.join(cache, 'wms-test-server-'));
  const file = path.join(dir, 'main.mjs');
  await build({
    entryPoints: [path.join(ROOT, 'src/server/main.ts')],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    plugins: [sourceImportMeta(), packagesOutsideExcept(INLINED_PACKAGES)],
    // The map lies beside the bundle, named by its last line: a server started with
    // --enable-source-maps names the source files in its stack traces, and every other start
    // neither reads nor compiles the map (inline, it tripled the file each server loads).
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  return file;
}

export function removeServerBundle(file: string): void {
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
}

/**
 * Packages written into the bundle instead of imported: plain ES modules of many small files, which
 * Node would resolve, read and compile one by one at every start (together about 0.7 s of CPU per
 * server; in the bundle a few hundredths). Only the server's own code imports them at run time, so
 * the bundle's copy is the process's only copy.
 */
const INLINED_PACKAGES = ['typebox', 'kysely'];

/** Leaves every package an import of node_modules, except those named (and their subpaths). */
function packagesOutsideExcept(inlined: readonly string[]): Plugin {
  return {
    name: 'packages-outside-except',
    setup(bundler) {
      // A bare name: neither relative nor absolute (Node's own modules are left outside by `platform`).
      bundler.onResolve({ filter: /^[^./]/ }, (args) => {
        const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
        if (inlined.includes(name) || args.path.startsWith('node:')) return undefined;
        return { path: args.path, external: true };
      });
    },
  };
}

/** Writes each source file's `import.meta.url`, `.dirname` and `.filename` into its code as text. */
function sourceImportMeta(): Plugin {
  return {
    name: 'source-import-meta',
    setup(bundler) {
      bundler.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        let text = await fs.promises.readFile(args.path, 'utf8');
        if (text.includes('import.meta')) {
          text = text
            .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
            .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
            .replaceAll('import.meta.filename', JSON.stringify(args.path));
        }
        return { contents: text, loader: path.extname(args.path).slice(1).replace(/^[cm]/, '') as 'ts' | 'tsx' | 'js' | 'jsx' };
      });
    },
  };
}
