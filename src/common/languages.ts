/** The six interface languages in the order of their numeric switch codes. */
export const LANGUAGES = ['zh', 'zh_tw', 'en', 'kor', 'th', 'jp'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The session's default language code is 2, English. */
export const DEFAULT_LANGUAGE_CODE = 2;
export const DEFAULT_LANGUAGE: Language = 'en';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Accepts a language name or its numeric code (0 zh, 1 zh_tw, 2 en, 3 kor, 4 th, 5 jp). */
export function toLanguage(value: unknown): Language | undefined {
  if (isLanguage(value)) return value;
  const code = typeof value === 'number' ? value : typeof value === 'string' && /^\d$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(code) ? LANGUAGES[code] : undefined;
}

export function languageCode(language: Language): number {
  return LANGUAGES.indexOf(language);
}

/** Picks our language from an HTTP Accept-Language header (zh-TW before zh, ko, ja, th). */
export function languageFromAcceptHeader(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  for (const part of header.split(',')) {
    const tag = part.split(';')[0].trim().toLowerCase();
    if (isLanguage(tag)) return tag;
    if (tag === 'zh-tw' || tag === 'zh-hk' || tag === 'zh-hant') return 'zh_tw';
    if (tag.startsWith('zh')) return 'zh';
    if (tag.startsWith('ko')) return 'kor';
    if (tag.startsWith('ja')) return 'jp';
    if (tag.startsWith('th')) return 'th';
    if (tag.startsWith('en')) return 'en';
  }
  return undefined;
}
