import { describe, expect, it } from 'vitest';
import { languageFromAcceptHeader, toLanguage } from '../../src/common/languages.js';

describe(toLanguage.name, () => {
  it.each([
    [0, 'zh'],
    [1, 'zh_tw'],
    [2, 'en'],
    [3, 'kor'],
    [4, 'th'],
    [5, 'jp'],
    ['2', 'en'],
    ['kor', 'kor'],
  ] as const)('maps %s to %s', (input, expected) => {
    expect(toLanguage(input)).toBe(expected);
  });

  it.each([[6], [-1], ['fr'], [null], ['']])('refuses %s', (input) => {
    expect(toLanguage(input)).toBeUndefined();
  });
});

describe(languageFromAcceptHeader.name, () => {
  it.each([
    ['zh-TW,zh;q=0.9', 'zh_tw'],
    ['zh-CN', 'zh'],
    ['ko-KR', 'kor'],
    ['ja', 'jp'],
    ['th-TH', 'th'],
    ['fr-FR,en;q=0.5', 'en'],
  ] as const)('reads %s as %s', (header, expected) => {
    expect(languageFromAcceptHeader(header)).toBe(expected);
  });
});
