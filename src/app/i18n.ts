import i18next, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from '../common/languages';
import { FIRST_SCREEN_AREAS, localeFileOf, mergeLocaleFiles, type LocaleTree } from '../common/locale-tree';
import { setApiLanguage } from './api/client';
import { applyDayjsLocale, loadLocalePack } from './locale';

// Every area's texts, locales/<area>/<language>.json: a new area needs only its folder. Only the
// language shown is loaded (two chunks per language, vite.config.ts), the others when chosen.
const LOCALE_FILES = import.meta.glob<LocaleTree>('../../locales/*/*.json', { import: 'default' });

type Part = 'first' | 'rest' | 'all';

function inPart(area: string, part: Part): boolean {
  return part === 'all' || FIRST_SCREEN_AREAS.includes(area) === (part === 'first');
}

/** One language's texts of the areas of `part`, merged, with antd's and dayjs's locale of the language (not for `rest`). */
export async function loadLanguage(language: Language, part: Part = 'all'): Promise<LocaleTree> {
  const files = Object.entries(LOCALE_FILES).filter(([path]) => {
    const file = localeFileOf(path);
    return file?.language === language && inPart(file.area, part);
  });
  const [trees] = await Promise.all([
    Promise.all(files.map(async ([path, load]) => [path, await load()] as const)),
    part === 'rest' ? Promise.resolve() : loadLocalePack(language),
  ]);
  return mergeLocaleFiles(Object.fromEntries(trees), [language])[language];
}

let firstRead = true;
let restOfFirstLanguage: Promise<void> = Promise.resolve();

/** Resolves once the texts of every area of the first language shown are in (a failed load leaves their codes). */
export function allTextsLoaded(): Promise<void> {
  return restOfFirstLanguage;
}

/**
 * i18next loads a language's texts when it switches to it; switching completes once they are here.
 * The first language shown comes in two parts: the sign-in page's texts, then the others.
 */
const localeBackend: BackendModule = {
  type: 'backend',
  callbackApi: true,
  init: () => undefined,
  read(language: string, _namespace: string, callback: ReadCallback) {
    if (!isLanguage(language)) {
      callback(null, {});
      return;
    }
    const part: Part = firstRead ? 'first' : 'all';
    firstRead = false;
    const loaded = loadLanguage(language, part).then(
      (tree) => callback(null, tree),
      (error: unknown) => callback(error instanceof Error ? error : String(error), false),
    );
    if (part === 'first') {
      // Laid over the first part once that is in the store, never before (the store would replace it).
      restOfFirstLanguage = loaded
        .then(() => loadLanguage(language, 'rest'))
        .then((tree) => {
          i18next.addResourceBundle(language, 'translation', tree, true, true);
        })
        .catch(() => undefined);
    }
  },
};

const LANGUAGE_KEY = 'language';

export function storedLanguage(): Language {
  const stored = localStorage.getItem(LANGUAGE_KEY);
  return (LANGUAGES as readonly string[]).includes(stored ?? '') ? (stored as Language) : DEFAULT_LANGUAGE;
}

export function rememberLanguage(language: Language): void {
  localStorage.setItem(LANGUAGE_KEY, language);
}

const initial = storedLanguage();
// Calls carry the language from the first one on, so that error texts come back in it.
setApiLanguage(initial);
// dayjs follows once the language's locale has loaded.
i18next.on('languageChanged', (language) => {
  if (isLanguage(language)) applyDayjsLocale(language);
});

// The first screen renders once its language's texts are here: whoever imports this module waits.
await i18next
  .use(localeBackend)
  .use(initReactI18next)
  .init({
    lng: initial,
    // Every language has every text (tests/unit/locales.test.ts): no second language is loaded.
    fallbackLng: false,
    supportedLngs: [...LANGUAGES],
    load: 'currentOnly',
    interpolation: { escapeValue: false },
    returnNull: false,
    // Texts added after a language loaded (the install's own texts of /mult) re-render what shows them.
    react: { bindI18nStore: 'added' },
  });

export default i18next;
