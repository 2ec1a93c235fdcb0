import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/common/errors.js';
import { LANGUAGES } from '../../src/common/languages.js';

type Tree = { [key: string]: string | Tree };
const LOCALES_DIR = path.resolve(import.meta.dirname, '../../locales');

function load(language: string): Tree {
  return JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, `${language}.json`), 'utf8')) as Tree;
}

function keyPaths(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keyPaths(value, `${prefix}${key}.`),
  );
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
}

const english = load('en');
const englishKeys = keyPaths(english);

describe('locales', () => {
  it('has a file for each of the six languages and no other', () => {
    const files = fs.readdirSync(LOCALES_DIR).filter((f) => f.endsWith('.json')).map((f) => f.replace('.json', ''));
    expect(files.sort()).toEqual([...LANGUAGES].sort());
  });

  it.each(LANGUAGES.map((l) => [l]))('%s has a text for every error code and no orphan error text', (language) => {
    const errors = load(language).errors as Tree;
    expect(Object.keys(errors).sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) expect(typeof errors[code] === 'string' && errors[code].length > 0, code).toBe(true);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en').map((l) => [l]))('%s has exactly the keys of English', (language) => {
    const keys = keyPaths(load(language));
    expect(keys.filter((k) => !englishKeys.includes(k)), 'orphan keys').toEqual([]);
    expect(englishKeys.filter((k) => !keys.includes(k)), 'missing keys').toEqual([]);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en').map((l) => [l]))('%s keeps every placeholder of English', (language) => {
    const tree = load(language);
    for (const key of englishKeys) {
      const get = (t: Tree) => key.split('.').reduce<string | Tree>((node, part) => (node as Tree)[part], t) as string;
      expect(placeholders(get(tree)), key).toEqual(placeholders(get(english)));
    }
  });
});
