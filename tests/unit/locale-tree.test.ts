import { describe, expect, it } from 'vitest';
import { localeFileOf, localeKeyPaths, lookupLocaleText, mergeLocaleFiles, mergeLocaleTrees, type LocaleTree } from '../../src/common/locale-tree.js';

describe(mergeLocaleTrees.name, () => {
  it('deep-merges partial trees', () => {
    expect(mergeLocaleTrees([{ ui: { login: { title: 'Sign in' } } }, { ui: { auth: { code: 'Code' } }, md: { sku: 'SKU' } }])).toEqual({
      ui: { login: { title: 'Sign in' }, auth: { code: 'Code' } },
      md: { sku: 'SKU' },
    });
  });

  it.each([
    ['a text', [{ ui: { title: 'A' } }, { ui: { title: 'B' } }]],
    ['a text over a branch', [{ ui: { title: 'A' } }, { ui: { title: { short: 'B' } } }]],
    ['a branch over a text', [{ ui: { title: { short: 'B' } } }, { ui: { title: 'A' } }]],
  ] as [string, LocaleTree[]][])('refuses %s defined twice', (_, trees) => {
    expect(() => mergeLocaleTrees(trees)).toThrow('ui.title');
  });

  it('leaves its inputs as they were', () => {
    const first: LocaleTree = { ui: { a: 'A' } };
    mergeLocaleTrees([first, { ui: { b: 'B' } }]);
    expect(first).toEqual({ ui: { a: 'A' } });
  });
});

describe(mergeLocaleFiles.name, () => {
  it('merges area files into one tree per language, from paths as node:fs and import.meta.glob name them', () => {
    const merged = mergeLocaleFiles(
      {
        '../../locales/core/en.json': { ui: { appName: 'WMS' } },
        '../../locales/identity/en.json': { ui: { auth: { code: 'Code' } } },
        'core/zh.json': { ui: { appName: '仓库' } },
        'core/fr.json': { ui: { appName: 'Entrepôt' } },
      },
      ['en', 'zh', 'jp'] as const,
    );
    expect(merged).toEqual({ en: { ui: { appName: 'WMS', auth: { code: 'Code' } } }, zh: { ui: { appName: '仓库' } }, jp: {} });
  });
});

describe(localeFileOf.name, () => {
  it.each([
    ['core/en.json', { area: 'core', language: 'en' }],
    ['../../locales/masterdata/zh_tw.json', { area: 'masterdata', language: 'zh_tw' }],
    ['C:\\wms\\locales\\identity\\jp.json', { area: 'identity', language: 'jp' }],
    ['en.json', undefined],
  ])('places %s', (filePath, expected) => {
    expect(localeFileOf(filePath)).toEqual(expected);
  });
});

describe(localeKeyPaths.name, () => {
  it('lists every text by its dotted key', () => {
    expect(localeKeyPaths({ ui: { login: { title: 'Sign in' }, appName: 'WMS' }, md: { sku: 'SKU' } })).toEqual(['ui.login.title', 'ui.appName', 'md.sku']);
  });
});

describe(lookupLocaleText.name, () => {
  const tree: LocaleTree = { ui: { login: { title: 'Sign in' } } };
  it.each([
    ['ui.login.title', 'Sign in'],
    ['ui.login', undefined],
    ['ui.login.title.more', undefined],
    ['ui.nothing', undefined],
    ['ui.constructor', undefined],
  ])('%s answers %s', (key, expected) => {
    expect(lookupLocaleText(tree, key)).toBe(expected);
  });
});
