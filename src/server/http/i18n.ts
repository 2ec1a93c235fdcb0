import en from '../../../locales/en.json' with { type: 'json' };
import zh from '../../../locales/zh.json' with { type: 'json' };
import zhTw from '../../../locales/zh_tw.json' with { type: 'json' };
import kor from '../../../locales/kor.json' with { type: 'json' };
import th from '../../../locales/th.json' with { type: 'json' };
import jp from '../../../locales/jp.json' with { type: 'json' };
import { DEFAULT_LANGUAGE, type Language } from '../../common/languages.js';

type Tree = { [key: string]: string | Tree };

export const LOCALES: Record<Language, Tree> = { en, zh, zh_tw: zhTw, kor, th, jp };

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Translates a locale key on the server, falling back to English and then to the key itself. */
export function translate(language: Language, key: string, params: Record<string, string | number> = {}): string {
  const text = lookup(LOCALES[language], key) ?? lookup(LOCALES[DEFAULT_LANGUAGE], key) ?? key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}
