// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import i18next from '../../../src/app/i18n';
import { applyLanguage } from '../../../src/app/language';
import { formatDateTime, LOCALES } from '../../../src/app/locale';
import { getSessionState } from '../../../src/app/store/session-store';
import { LANGUAGES } from '../../../src/common/languages';

describe(applyLanguage.name, () => {
  it.each([
    [0, 'zh', 'zh-CN'],
    [1, 'zh_tw', 'zh-TW'],
    [2, 'en', 'en'],
    [3, 'kor', 'ko'],
    [4, 'th', 'th'],
    [5, 'jp', 'ja'],
    ['kor', 'kor', 'ko'],
  ] as const)('accepts %j as %s', async (value, language, tag) => {
    expect(applyLanguage(value)).toBe(language);
    await i18next.changeLanguage(language);
    expect(i18next.language).toBe(language);
    expect(getSessionState().languageCode).toBe(LANGUAGES.indexOf(language));
    expect(document.documentElement.lang).toBe(tag);
    expect(localStorage.getItem('language')).toBe(language);
  });

  it('ignores an unknown language and keeps the current one', () => {
    applyLanguage('en');
    expect(applyLanguage(9)).toBeUndefined();
    expect(applyLanguage('fr')).toBeUndefined();
    expect(getSessionState().languageCode).toBe(2);
  });

  it("pairs every language with antd's locale pack", () => {
    expect(LOCALES.zh.antd.locale).toBe('zh-cn');
    expect(LOCALES.zh_tw.antd.locale).toBe('zh-tw');
    expect(LOCALES.kor.antd.locale).toBe('ko');
    expect(LOCALES.th.antd.locale).toBe('th');
    expect(LOCALES.jp.antd.locale).toBe('ja');
    expect(LOCALES.en.antd.locale).toBe('en');
  });
});

describe(formatDateTime.name, () => {
  it("shows a time in the user's time zone", () => {
    expect(formatDateTime('2026-01-01T00:30:00Z', 'en', 'Asia/Tokyo')).toMatch(/9:30/);
    expect(formatDateTime('2026-01-01T00:30:00Z', 'en', 'America/New_York')).toMatch(/7:30/);
  });

  it('falls back to UTC for an unknown zone and to nothing for a bad date', () => {
    expect(formatDateTime('2026-01-01T00:30:00Z', 'en', 'Nowhere/Nothing')).toMatch(/12:30/);
    expect(formatDateTime('not a date', 'en', 'UTC')).toBe('');
  });
});
