import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LocaleTree } from '../../common/locale-tree.js';

export const LOCALES_DIR = fileURLToPath(new URL('../../../locales/', import.meta.url));

/** Every `locales/<area>/<language>.json`, keyed by `<area>/<language>.json`. */
export function readLocaleFiles(folder = LOCALES_DIR): Record<string, LocaleTree> {
  const files: Record<string, LocaleTree> = {};
  for (const area of fs.readdirSync(folder, { withFileTypes: true })) {
    if (!area.isDirectory()) continue;
    for (const file of fs.readdirSync(path.join(folder, area.name)).sort()) {
      if (!file.endsWith('.json')) continue;
      files[`${area.name}/${file}`] = JSON.parse(fs.readFileSync(path.join(folder, area.name, file), 'utf8')) as LocaleTree;
    }
  }
  return files;
}
