import type { Language } from '../../../common/languages.js';
import type { Db } from '../../db/schema.js';

/** A code of the code master with its description in the reader's language. */
export interface DescribedCode {
  code: string;
  description: string;
}

/** The active codes of a code-master type, in their order, with their description in the language (English when it has none). */
export async function activeCodes(db: Db, codeType: string, language: Language): Promise<DescribedCode[]> {
  const rows = await db
    .selectFrom('code_master')
    .select(['code', 'desc_en', 'desc_zh', 'desc_zh_tw', 'desc_jp', 'desc_kor', 'desc_th'])
    .where('code_type', '=', codeType)
    .where('active', '=', true)
    .orderBy('sort_seq')
    .orderBy('code')
    .execute();
  return rows.map((r) => ({ code: r.code, description: r[`desc_${language}`] ?? r.desc_en ?? r.code }));
}

/** Whether the code is an active code of the type. */
export async function isActiveCode(db: Db, codeType: string, code: string): Promise<boolean> {
  const row = await db.selectFrom('code_master').select('id').where('code_type', '=', codeType).where('code', '=', code).where('active', '=', true).executeTakeFirst();
  return row !== undefined;
}
