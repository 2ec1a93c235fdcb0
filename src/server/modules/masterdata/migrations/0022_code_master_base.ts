import type { Kysely } from 'kysely';

/**
 * The code-master entries the shipped pages need whatever the data: the location and partner types
 * of the /loa and /partner dropdowns, exactly the values the tables' CHECK constraints allow, with
 * descriptions in the six languages. (Units of measure are the installation's choice: the demo
 * data brings EA, IN, CS, PL and KG; administrators add theirs on /codeMaster.)
 */
/** Per code type, its codes in sort order, each with its descriptions in en, zh, zh_tw, kor, th and jp. */
const CODES: Record<string, Array<[string, string, string, string, string, string, string]>> = {
  LOCATION_TYPE: [
    ['storage', 'Storage', '存储位', '儲存位', '보관', 'จัดเก็บ', '保管'],
    ['pick', 'Pick face', '拣货位', '揀貨位', '피킹', 'หยิบสินค้า', 'ピッキング'],
    ['stage', 'Staging', '暂存区', '暫存區', '스테이징', 'พื้นที่พัก', '仮置き'],
    ['dock', 'Dock door', '月台', '月台', '도크', 'ท่าขนถ่าย', 'ドック'],
    ['qc', 'Quality control', '质检区', '品檢區', '품질검사', 'ตรวจคุณภาพ', '品質検査'],
    ['damage', 'Damaged goods', '残损区', '損壞區', '파손품', 'สินค้าเสียหาย', '破損品'],
    ['virtual', 'Virtual', '虚拟库位', '虛擬儲位', '가상', 'เสมือน', '仮想'],
  ],
  PARTNER_TYPE: [
    ['supplier', 'Supplier', '供应商', '供應商', '공급업체', 'ผู้จัดจำหน่าย', '仕入先'],
    ['consignee', 'Consignee', '收货人', '收貨人', '수하인', 'ผู้รับสินค้า', '荷受人'],
    ['carrier', 'Carrier', '承运商', '承運商', '운송사', 'ผู้ขนส่ง', '運送業者'],
  ],
};

export async function up(db: Kysely<unknown>): Promise<void> {
  // Sort sequence 10, 20, ... within each code type, in the order listed.
  const rows = Object.entries(CODES).flatMap(([code_type, codes]) =>
    codes.map(([code, desc_en, desc_zh, desc_zh_tw, desc_kor, desc_th, desc_jp], i) => {
      const sort_seq = (i + 1) * 10;
      return { code_type, code, sort_seq, desc_en, desc_zh, desc_zh_tw, desc_kor, desc_th, desc_jp, created_by: 'system', updated_by: 'system' };
    }),
  );
  await (db as Kysely<{ code_master: Record<string, unknown> }>)
    .insertInto('code_master')
    .values(rows)
    .onConflict((oc) => oc.columns(['code_type', 'code']).doNothing())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await (db as Kysely<{ code_master: { code_type: string; created_by: string | null } }>)
    .deleteFrom('code_master')
    .where('code_type', 'in', ['LOCATION_TYPE', 'PARTNER_TYPE'])
    .where('created_by', '=', 'system')
    .execute();
}
