import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-tw';
import 'dayjs/locale/ko';
import 'dayjs/locale/th';
import 'dayjs/locale/ja';
import type { Locale } from 'antd/es/locale';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import zhTW from 'antd/locale/zh_TW';
import koKR from 'antd/locale/ko_KR';
import thTH from 'antd/locale/th_TH';
import jaJP from 'antd/locale/ja_JP';
import type { Language } from '../common/languages';

/** antd's locale pack, dayjs's locale and the BCP 47 tag of each of our six languages. */
export const LOCALES: Record<Language, { antd: Locale; dayjs: string; tag: string; nativeName: string }> = {
  zh: { antd: zhCN, dayjs: 'zh-cn', tag: 'zh-CN', nativeName: '简体中文' },
  zh_tw: { antd: zhTW, dayjs: 'zh-tw', tag: 'zh-TW', nativeName: '繁體中文' },
  en: { antd: enUS, dayjs: 'en', tag: 'en', nativeName: 'English' },
  kor: { antd: koKR, dayjs: 'ko', tag: 'ko', nativeName: '한국어' },
  th: { antd: thTH, dayjs: 'th', tag: 'th', nativeName: 'ไทย' },
  jp: { antd: jaJP, dayjs: 'ja', tag: 'ja', nativeName: '日本語' },
};

export function applyDayjsLocale(language: Language): void {
  dayjs.locale(LOCALES[language].dayjs);
}

/**
 * A date and time in the user's time zone (issue 4: "dates and times shown in the user's time
 * zone"), formatted the way the user's language writes them. An unknown zone falls back to UTC
 * rather than failing the screen.
 */
export function formatDateTime(value: string | number | Date, language: Language, timeZone: string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
  try {
    return new Intl.DateTimeFormat(LOCALES[language].tag, { ...options, timeZone }).format(date);
  } catch {
    return new Intl.DateTimeFormat(LOCALES[language].tag, { ...options, timeZone: 'UTC' }).format(date);
  }
}
