import path from 'node:path';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../../common/languages.js';
import { lookupLocaleText, mergeLocaleFiles, type LocaleTree } from '../../common/locale-tree.js';
import { readLocaleFiles } from './locale-files.js';

/** One tree per language, merged once at start from every area's `locales/<area>/<language>.json`. */
export const LOCALES: Record<Language, LocaleTree> = mergeLocaleFiles(readLocaleFiles(), LANGUAGES);

export type Translate = (language: Language, key: string, params?: Record<string, string | number>) => string;

function translateIn(locales: Record<Language, LocaleTree>, language: Language, key: string, params: Record<string, string | number>): string {
  const text = lookupLocaleText(locales[language], key) ?? lookupLocaleText(locales[DEFAULT_LANGUAGE], key) ?? key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/** Translates a locale key on the server, falling back to English and then to the key itself. */
export function translate(language: Language, key: string, params: Record<string, string | number> = {}): string {
  return translateIn(LOCALES, language, key, params);
}

/**
 * `translate` over the repository's texts and those of areas kept outside the repository, each
 * in the `locales/<area>/<language>.json` of its folder (`contentRoot` of its manifest). Without
 * such areas it is `translate` itself. A text defined twice is refused, as in the repository.
 */
export function translatorWith(contentRoots: readonly string[]): Translate {
  if (!contentRoots.length) return translate;
  const files: Record<string, LocaleTree> = readLocaleFiles();
  for (const root of contentRoots) {
    for (const [file, tree] of Object.entries(readLocaleFiles(path.join(root, 'locales')))) files[path.join(root, file)] = tree;
  }
  const locales = mergeLocaleFiles(files, LANGUAGES);
  return (language, key, params = {}) => translateIn(locales, language, key, params);
}
