import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * Every installed package runs on the Node version the README names (20.19), so
 * `npm install` prints no EBADENGINE warning on a fresh machine.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const README_NODE = '20.19.0';

function packageFiles(dir: string, found: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === '.bin' || entry.name === '.cache' || entry.name === '.vite') continue;
    const folder = path.join(dir, entry.name);
    if (entry.name.startsWith('@')) {
      packageFiles(folder, found);
      continue;
    }
    const file = path.join(folder, 'package.json');
    if (fs.existsSync(file)) found.push(file);
    const nested = path.join(folder, 'node_modules');
    if (fs.existsSync(nested)) packageFiles(nested, found);
  }
  return found;
}

describe('installed packages', () => {
  it('all accept the Node version of the README and package.json', () => {
    const own = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(semver.satisfies(README_NODE, own.engines.node)).toBe(true);
    expect(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toContain('Node.js 20.19');
    const files = packageFiles(path.join(ROOT, 'node_modules'));
    expect(files.length).toBeGreaterThan(300);
    const refusing: string[] = [];
    for (const file of files) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string; engines?: { node?: unknown } };
      const range = pkg.engines?.node;
      if (typeof range !== 'string' || !semver.validRange(range)) continue;
      if (!semver.satisfies(README_NODE, range)) refusing.push(`${pkg.name}@${pkg.version} needs node ${range}`);
    }
    expect(refusing).toEqual([]);
  });
});
