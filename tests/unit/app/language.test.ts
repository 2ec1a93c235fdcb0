// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import i18next from '../../../src/app/i18n';
import { applyLanguage } from '../../../src/app/language';
import dayjs from 'dayjs';
import { antdLocaleOf, formatDateTime, loadLocalePack } from '../../../src/app/locale';
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

  it("switches texts and dayjs once the language's texts have loaded, and loads each language once", async () => {
    applyLanguage('jp');
    await i18next.changeLanguage('jp');
    expect(i18next.t('ui.appName')).not.toBe('ui.appName');
    const japanese = i18next.t('ui.appName');
    expect(dayjs.locale()).toBe('ja');
    applyLanguage('en');
    await i18next.changeLanguage('en');
    expect(i18next.t('ui.appName')).not.toBe(japanese);
    expect(dayjs.locale()).toBe('en');
    expect(i18next.hasResourceBundle('jp', 'translation')).toBe(true);
  });

  it('ignores an unknown language and keeps the current one', () => {
    applyLanguage('en');
    expect(applyLanguage(9)).toBeUndefined();
    expect(applyLanguage('fr')).toBeUndefined();
    expect(getSessionState().languageCode).toBe(2);
  });

  it("pairs every language with antd's locale pack", async () => {
    expect((await loadLocalePack('zh')).locale).toBe('zh-cn');
    expect((await loadLocalePack('zh_tw')).locale).toBe('zh-tw');
    expect((await loadLocalePack('kor')).locale).toBe('ko');
    expect((await loadLocalePack('th')).locale).toBe('th');
    expect((await loadLocalePack('jp')).locale).toBe('ja');
    expect((await loadLocalePack('en')).locale).toBe('en');
    expect(antdLocaleOf('jp')?.locale).toBe('ja');
  });
});

describe(formatDateTime.name, () => {
  it("shows a time in the user's time zone", () => {
    expect(formatDateTime('2026-01-01T00:30:00Z', 'en', 'Asia/Tokyo')).toMatch(/9:30/);
    expect(formatDateTime('2026-01-01T00:30:00Z', 'en', 'America/New_York')).toMatch(/7:30/);
  });

  it('writes Thai dates in the Gregorian year, with their time', () => {
    const text = formatDateTime('2026-03-01T05:30:00Z', 'th', 'UTC');
    expect(text).toContain('2026');
    expect(text).not.toContain('2569');
    expect(text).toMatch(/05:30|5:30/);
  });

  it('falls back to UTC for an unknown zone and to nothing for a bad date', () => {
    expect(formatDateTime('2026-01-01T00:30:00Z', 'en', 'Nowhere/Nothing')).toMatch(/12:30/);
    expect(formatDateTime('not a date', 'en', 'UTC')).toBe('');
  });
});
