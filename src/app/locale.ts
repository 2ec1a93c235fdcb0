import dayjs from 'dayjs';
import type { Locale } from 'antd/es/locale';
import type { Language } from '../common/languages';

/**
 * The dayjs locale name and the BCP 47 tag of each of our six languages, and its own name. `dates`
 * is the tag dates and times are written with where it differs: Thai in the Gregorian calendar
 * (what documents, carriers and customers use), not the Buddhist year Thai otherwise gets.
 */
export const LOCALES: Record<Language, { dayjs: string; tag: string; nativeName: string; dates?: string }> = {
  zh: { dayjs: 'zh-cn', tag: 'zh-CN', nativeName: '简体中文' },
  zh_tw: { dayjs: 'zh-tw', tag: 'zh-TW', nativeName: '繁體中文' },
  en: { dayjs: 'en', tag: 'en', nativeName: 'English' },
  kor: { dayjs: 'ko', tag: 'ko', nativeName: '한국어' },
  th: { dayjs: 'th', tag: 'th', nativeName: 'ไทย', dates: 'th-u-ca-gregory' },
  jp: { dayjs: 'ja', tag: 'ja', nativeName: '日本語' },
};

/**
 * antd's locale pack of each language, with the dayjs locale it needs: loaded with the language's
 * texts (src/app/i18n.ts), so that the sign-in page carries only the language it shows.
 */
const PACKS: Record<Language, () => Promise<Locale>> = {
  zh: () => Promise.all([import('antd/locale/zh_CN'), import('dayjs/locale/zh-cn')]).then(([pack]) => pack.default),
  zh_tw: () => Promise.all([import('antd/locale/zh_TW'), import('dayjs/locale/zh-tw')]).then(([pack]) => pack.default),
  en: () => import('antd/locale/en_US').then((pack) => pack.default),
  kor: () => Promise.all([import('antd/locale/ko_KR'), import('dayjs/locale/ko')]).then(([pack]) => pack.default),
  th: () => Promise.all([import('antd/locale/th_TH'), import('dayjs/locale/th')]).then(([pack]) => pack.default),
  jp: () => Promise.all([import('antd/locale/ja_JP'), import('dayjs/locale/ja')]).then(([pack]) => pack.default),
};

const loadedPacks = new Map<Language, Locale>();

/** Loads the language's antd and dayjs locales (once). */
export async function loadLocalePack(language: Language): Promise<Locale> {
  const loaded = loadedPacks.get(language);
  if (loaded) return loaded;
  const pack = await PACKS[language]();
  loadedPacks.set(language, pack);
  return pack;
}

/** antd's locale pack of the language, once loaded. */
export function antdLocaleOf(language: Language): Locale | undefined {
  return loadedPacks.get(language);
}

/** Switches dayjs to the language; its locale must be loaded (loadLocalePack). */
export function applyDayjsLocale(language: Language): void {
  dayjs.locale(LOCALES[language].dayjs);
}

/**
 * A date and time in the user's time zone, formatted the way the user's language writes them. An
 * unknown zone falls back to UTC rather than failing the screen.
 */
export function formatDateTime(value: string | number | Date, language: Language, timeZone: string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
  const tag = LOCALES[language].dates ?? LOCALES[language].tag;
  try {
    return new Intl.DateTimeFormat(tag, { ...options, timeZone }).format(date);
  } catch {
    return new Intl.DateTimeFormat(tag, { ...options, timeZone: 'UTC' }).format(date);
  }
}
