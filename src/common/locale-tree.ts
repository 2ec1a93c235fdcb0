/**
 * The texts of each business area live in `locales/<area>/<language>.json`, each a part of the one
 * tree of a language. Browser and server both list the files (Vite's import.meta.glob, node:fs) and
 * merge them here, so that adding an area's texts is adding its folder.
 */
export type LocaleTree = { [key: string]: string | LocaleTree };

/** Deep-merges partial trees into one; a text defined twice is a mistake and throws. */
export function mergeLocaleTrees(trees: readonly LocaleTree[]): LocaleTree {
  const merged: LocaleTree = {};
  for (const tree of trees) mergeInto(merged, tree, '');
  return merged;
}

function mergeInto(target: LocaleTree, source: LocaleTree, prefix: string): void {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (existing === undefined) {
      // Copied, so that a later merge into this branch never changes the source tree.
      target[key] = typeof value === 'string' ? value : mergeLocaleTrees([value]);
    } else if (typeof existing !== 'string' && typeof value !== 'string') {
      mergeInto(existing, value, `${prefix}${key}.`);
    } else {
      throw new Error(`the locale key ${prefix}${key} is defined twice`);
    }
  }
}

/** Where a locale file lies: `…/<area>/<language>.json`, as a path or an import.meta.glob key. */
/**
 * The areas whose texts the sign-in page shows (the shell's own and identity's): the browser loads
 * these before the first screen, and every other area's texts right after (src/app/i18n.ts), so
 * the sign-in page stays small however many areas there are.
 */
export const FIRST_SCREEN_AREAS: readonly string[] = ['core', 'identity'];

export function localeFileOf(filePath: string): { area: string; language: string } | undefined {
  const match = /([^/\\]+)[/\\]([^/\\]+)\.json$/.exec(filePath);
  return match ? { area: match[1], language: match[2] } : undefined;
}

/**
 * Merges the area files into one tree per language. `files` is keyed by path; areas merge in the
 * order of their names so the result does not depend on how the files were listed. Files of a
 * language not in `languages` are left out (the locale test refuses them).
 */
export function mergeLocaleFiles<L extends string>(files: Record<string, LocaleTree>, languages: readonly L[]): Record<L, LocaleTree> {
  const byLanguage = new Map<string, { area: string; tree: LocaleTree }[]>();
  for (const [filePath, tree] of Object.entries(files)) {
    const file = localeFileOf(filePath);
    if (!file) continue;
    byLanguage.set(file.language, [...(byLanguage.get(file.language) ?? []), { area: file.area, tree }]);
  }
  const merged = {} as Record<L, LocaleTree>;
  for (const language of languages) {
    const parts = (byLanguage.get(language) ?? []).sort((a, b) => (a.area < b.area ? -1 : a.area > b.area ? 1 : 0));
    merged[language] = mergeLocaleTrees(parts.map((part) => part.tree));
  }
  return merged;
}

/** Every text's dotted key, e.g. `ui.login.submit`. */
export function localeKeyPaths(tree: LocaleTree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : localeKeyPaths(value, `${prefix}${key}.`),
  );
}

/** The text at a dotted key, or undefined where there is none (or a branch). */
export function lookupLocaleText(tree: LocaleTree, key: string): string | undefined {
  let node: string | LocaleTree | undefined = tree;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string' || !Object.hasOwn(node, part)) return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}
