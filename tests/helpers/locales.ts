/**
 * The locale texts as tests see them: one tree per language, merged from every
 * `locales/<area>/<language>.json` with the functions the server and the browser load them with.
 */
import { LANGUAGES, type Language } from '../../src/common/languages.js';
import { localeFileOf, lookupLocaleText, mergeLocaleFiles, type LocaleTree } from '../../src/common/locale-tree.js';
import { LOCALES_DIR, readLocaleFiles } from '../../src/server/http/locale-files.js';

export { LOCALES_DIR };

export interface LocaleAreaFile {
  area: string;
  language: string;
  tree: LocaleTree;
}

const FILES = readLocaleFiles();
// Merged on first use, so that a key defined by two areas fails the tests that look, not the import.
let merged: Record<Language, LocaleTree> | undefined;

/** One language's texts, all areas merged. */
export function loadLocale(language: Language): LocaleTree {
  merged ??= mergeLocaleFiles(FILES, LANGUAGES);
  return merged[language];
}

/** The text at a dotted key; throws where there is none, so that a test never looks for `undefined`. */
export function localeText(language: Language, key: string): string {
  const text = lookupLocaleText(loadLocale(language), key);
  if (text === undefined) throw new Error(`no ${language} text at ${key}`);
  return text;
}

/** The branch at a dotted key (`ui.shell.route`); throws where there is none. */
export function localeBranch(language: Language, key: string): LocaleTree {
  const node = key
    .split('.')
    .reduce<string | LocaleTree | undefined>(
      (branch, part) => (branch !== undefined && typeof branch !== 'string' && Object.hasOwn(branch, part) ? branch[part] : undefined),
      loadLocale(language),
    );
  if (node === undefined || typeof node === 'string') throw new Error(`no ${language} branch at ${key}`);
  return node;
}

/** Every area file, each with the area and the language its place names. */
export function localeAreaFiles(): LocaleAreaFile[] {
  return Object.entries(FILES).map(([filePath, tree]) => ({ ...localeFileOf(filePath)!, tree }));
}
