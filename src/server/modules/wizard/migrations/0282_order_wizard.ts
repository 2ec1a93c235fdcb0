import { sql, type Kysely } from 'kysely';
import { createScopedTable } from '../../../db/migrations/helpers.js';

/**
 * The order wizards' temporary orders: one per user, wizard kind (`wine`, `nonMer`), project and
 * warehouse, holding what the user entered so far (JSON) and the step they are on (1 to 5), so that
 * closing the browser and coming back resumes where they left. Submitting turns it into a sales
 * order and deletes it. Only the wizard's routes read it: configurator SQL has no grant on it.
 * The VAS instructions a wizard offers are code master rows of type VAS_INSTRUCTION.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createScopedTable(db, 'wizard_order', 'project_id', 'warehouse_id')
    .addColumn('user_id', 'bigint', (col) => col.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('wine', 'nonMer')`))
    .addColumn('current_step', 'integer', (col) => col.notNull().defaultTo(1).check(sql`current_step between 1 and 5`))
    .addColumn('data', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addUniqueConstraint('wizard_order_owner_key', ['user_id', 'kind', 'project_id', 'warehouse_id'])
    .execute();
  const instructions: Array<[string, number, string, string, string, string, string, string]> = [
    ['LABEL', 1, 'Apply customer labels', '贴客户标签', '貼客戶標籤', '고객 라벨 부착', 'ติดฉลากลูกค้า', '顧客ラベル貼付'],
    ['GIFTWRAP', 2, 'Gift wrapping', '礼品包装', '禮品包裝', '선물 포장', 'ห่อของขวัญ', 'ギフト包装'],
    ['TEMPCTRL', 3, 'Keep temperature controlled', '保持温控', '保持溫控', '온도 관리 유지', 'ควบคุมอุณหภูมิ', '温度管理'],
    ['FRAGILE', 4, 'Fragile: pack with padding', '易碎：加衬垫包装', '易碎：加襯墊包裝', '파손 주의: 완충재 포장', 'แตกง่าย: บรรจุพร้อมวัสดุกันกระแทก', '割れ物：緩衝材で梱包'],
  ];
  for (const [code, seq, en, zh, zhTw, kor, th, jp] of instructions) {
    await sql`
      insert into code_master (code_type, code, sort_seq, desc_en, desc_zh, desc_zh_tw, desc_kor, desc_th, desc_jp, created_by, updated_by)
      select 'VAS_INSTRUCTION', ${code}, ${seq}, ${en}, ${zh}, ${zhTw}, ${kor}, ${th}, ${jp}, 'system', 'system'
      where not exists (select 1 from code_master where code_type = 'VAS_INSTRUCTION' and code = ${code})`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('wizard_order').execute();
  await sql`delete from code_master where code_type = 'VAS_INSTRUCTION' and created_by = 'system'`.execute(db);
}
