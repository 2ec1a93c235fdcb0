import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/common/errors.js';
import { LANGUAGES } from '../../src/common/languages.js';
import { localeKeyPaths, lookupLocaleText, type LocaleTree } from '../../src/common/locale-tree.js';
import { LOCALES_DIR, loadLocale, localeAreaFiles } from '../helpers/locales.js';
import { MODULES } from '../../src/server/modules/index.js';

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
}

const AREA_FILES = localeAreaFiles();
const AREAS = [...new Set(AREA_FILES.map((file) => file.area))].sort();

describe('locales', () => {
  it('holds only area folders, locales/<area>/<language>.json', () => {
    const strays = fs.readdirSync(LOCALES_DIR, { withFileTypes: true }).filter((entry) => !entry.isDirectory());
    expect(strays.map((entry) => entry.name)).toEqual([]);
    expect(AREAS.length).toBeGreaterThan(0);
  });

  it.each(AREAS.map((area) => [area]))('%s has a file for each of the six languages and no other', (area) => {
    const files = fs.readdirSync(path.join(LOCALES_DIR, area));
    expect(files.sort()).toEqual(LANGUAGES.map((language) => `${language}.json`).sort());
  });

  it.each(AREAS.map((area) => [area]))('%s has the same keys in every language', (area) => {
    const keysOf = (language: string) => localeKeyPaths(AREA_FILES.find((file) => file.area === area && file.language === language)?.tree ?? {});
    const areaEnglish = keysOf('en');
    for (const language of LANGUAGES) expect(keysOf(language).sort(), `${area}/${language}.json`).toEqual([...areaEnglish].sort());
  });

  it.each(LANGUAGES.map((l) => [l]))('%s defines no key in two areas', (language) => {
    const areasOfKey = new Map<string, string[]>();
    for (const file of AREA_FILES.filter((f) => f.language === language)) {
      for (const key of localeKeyPaths(file.tree)) areasOfKey.set(key, [...(areasOfKey.get(key) ?? []), file.area]);
    }
    const twice = [...areasOfKey].filter(([, areas]) => areas.length > 1).map(([key, areas]) => `${key}: ${areas.join(', ')}`);
    expect(twice).toEqual([]);
  });

  it.each(LANGUAGES.map((l) => [l]))('%s has a text for every error code and no orphan error text', (language) => {
    const errors = loadLocale(language).errors as LocaleTree;
    const areaCodes = MODULES.flatMap((module) => Object.keys(module.errors ?? {}));
    expect(Object.keys(errors).sort()).toEqual([...ERROR_CODES, ...areaCodes].sort());
    for (const code of [...ERROR_CODES, ...areaCodes]) expect(typeof errors[code] === 'string' && errors[code].length > 0, code).toBe(true);
  });

  it.each(LANGUAGES.map((l) => [l]))("%s: the platform's error texts are in core, an area's in its own folder", (language) => {
    const errorsOf = (area: string) => Object.keys((AREA_FILES.find((f) => f.area === area && f.language === language)?.tree.errors ?? {}) as LocaleTree).sort();
    expect(errorsOf('core')).toEqual([...ERROR_CODES].sort());
    for (const module of MODULES) expect(errorsOf(module.name), module.name).toEqual(Object.keys(module.errors ?? {}).sort());
  });

  it.each(LANGUAGES.filter((l) => l !== 'en').map((l) => [l]))('%s has exactly the keys of English', (language) => {
    const englishKeys = localeKeyPaths(loadLocale('en'));
    const keys = localeKeyPaths(loadLocale(language));
    expect(keys.filter((k) => !englishKeys.includes(k)), 'orphan keys').toEqual([]);
    expect(englishKeys.filter((k) => !keys.includes(k)), 'missing keys').toEqual([]);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en').map((l) => [l]))('%s keeps every placeholder of English', (language) => {
    const [tree, english] = [loadLocale(language), loadLocale('en')];
    for (const key of localeKeyPaths(english)) expect(placeholders(lookupLocaleText(tree, key)!), key).toEqual(placeholders(lookupLocaleText(english, key)!));
  });
});
