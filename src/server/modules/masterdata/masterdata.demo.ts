import { sql, type Insertable, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { DemoDataProvider } from '../area.js';
import type { CodeMasterTable, SkuTable } from './masterdata.tables.js';

/**
 * The master data part of the demonstration data, which looks like a small 3PL: a few thousand
 * locations in each of the two demonstration warehouses (the identity area's part makes the
 * warehouses), three owners with a hundred SKUs each (UPC codes, packs, dimensions, shelf life),
 * suppliers, consignees and carriers, currencies, code master entries, inventory codes, system
 * parameters, multilingual texts, vehicles and drivers. The inbound and outbound areas build their
 * demo work on the first warehouse and owner.
 */
const BY = 'demo';

export const DEMO = {
  warehouses: [
    // The identity area's demonstration warehouses (made there), with the racks built in each.
    { code: 'WH1', aisles: 12, bays: 30, levels: 5 },
    { code: 'WH2', aisles: 10, bays: 25, levels: 5 },
  ],
  owners: [
    { code: 'ACME', name: 'ACME Electronics Ltd', short_name: 'ACME', city: 'Shenzhen', country: 'CN' },
    { code: 'FRESH', name: 'Fresh Foods Trading Co', short_name: 'Fresh Foods', city: 'Bangkok', country: 'TH' },
    { code: 'STYLE', name: 'Style Apparel Co', short_name: 'Style', city: 'Seoul', country: 'KR' },
  ],
  skusPerOwner: 100,
} as const;

/** What the masterdata area contributes to the demo data. */
export const masterdataDemo: DemoDataProvider = {
  load: (trx, { organizationId, projectId }) => insertDemoData(trx, organizationId, projectId),
};

async function insertDemoData(trx: Transaction<DB>, organizationId: number, projectId: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};

  // The warehouses come with the identity area's part, which runs before this one.
  const warehouseIds: number[] = [];
  for (const w of DEMO.warehouses) {
    warehouseIds.push((await trx.selectFrom('warehouse').select('id').where('code', '=', w.code).executeTakeFirstOrThrow()).id);
  }

  // Locations: aisles A.. x bays 01.. x levels 1.., level 1 is the pick face; plus docks,
  // staging lanes, QC and damage areas. One generate_series statement per warehouse.
  counts.location = 0;
  for (const [index, w] of DEMO.warehouses.entries()) {
    const warehouseId = warehouseIds[index];
    const racked = await sql`
      insert into location (warehouse_id, code, location_type, zone, aisle, bay, level, pick_seq,
                            max_pallets, max_weight_kg, max_volume_cm3, mix_sku, created_by, updated_by)
      select ${warehouseId}, chr(64 + a) || '-' || lpad(b::text, 2, '0') || '-' || l, case when l = 1 then 'pick' else 'storage' end,
             'Z' || ((a - 1) / 4 + 1), chr(64 + a), lpad(b::text, 2, '0'), l::text,
             (a - 1) * ${w.bays * w.levels} + (case when a % 2 = 1 then b else ${w.bays + 1} - b end - 1) * ${w.levels} + l,
             case when l = 1 then 1 else 2 end, case when l = 1 then 800 else 1500 end,
             case when l = 1 then 1728000 else 3456000 end, l <> 1, ${BY}, ${BY}
      from generate_series(1, ${w.aisles}) a, generate_series(1, ${w.bays}) b, generate_series(1, ${w.levels}) l
    `.execute(trx);
    const special = await sql`
      insert into location (warehouse_id, code, location_type, zone, created_by, updated_by)
      select ${warehouseId}, t.prefix || '-' || lpad(n::text, 2, '0'), t.kind, t.zone, ${BY}, ${BY}
      from (values ('DOCK', 'dock', 'DOCK', 12), ('STG', 'stage', 'STAGE', 20), ('QC', 'qc', 'QC', 4), ('DMG', 'damage', 'QC', 2))
             as t(prefix, kind, zone, how_many),
           lateral generate_series(1, t.how_many) n
    `.execute(trx);
    counts.location += Number(racked.numAffectedRows ?? 0) + Number(special.numAffectedRows ?? 0);
  }

  const ownerRows = await trx
    .insertInto('owner')
    .values(
      DEMO.owners.map((o, i) => ({
        ...o,
        project_id: projectId,
        contact_name: ['Li Wei', 'Somchai Prasert', 'Kim Min-jun'][i],
        phone: ['+86 755 8800 1200', '+66 2 610 4400', '+82 2 3456 7800'][i],
        email: `logistics@${o.code.toLowerCase()}.example`,
        address1: ['88 Keji Road', '120 Sukhumvit Road', '45 Teheran-ro'][i],
        created_by: BY,
        updated_by: BY,
      })),
    )
    .returning(['id', 'code'])
    .execute();
  counts.owner = ownerRows.length;

  const skuRows = await trx
    .insertInto('sku')
    .values(ownerRows.flatMap((owner, ownerIndex) => demoSkus(projectId, owner.id, ownerIndex)))
    .returning(['id', 'code', 'owner_id', 'case_qty'])
    .execute();
  counts.sku = skuRows.length;
  const ownerIndexById = new Map(ownerRows.map((o, i) => [o.id, i]));
  const upcs = skuRows.flatMap((sku, i) => {
    const ownerIndex = ownerIndexById.get(sku.owner_id)!;
    const item = String(i + 1).padStart(5, '0');
    const ean = ean13(`489${ownerIndex + 1}${String(1000 + ownerIndex * 7).slice(0, 3)}${item}`);
    const rows = [{ project_id: projectId, sku_id: sku.id, upc: ean, uom: 'EA', qty: '1', is_default: true, created_by: BY, updated_by: BY }];
    if (sku.case_qty) rows.push({ project_id: projectId, sku_id: sku.id, upc: gtin14(`1${ean.slice(0, 12)}`), uom: 'CS', qty: sku.case_qty, is_default: false, created_by: BY, updated_by: BY });
    return rows;
  });
  await trx.insertInto('sku_upc').values(upcs).execute();
  counts.sku_upc = upcs.length;

  const partners = demoPartners(projectId);
  await trx.insertInto('partner').values(partners).execute();
  counts.partner = partners.length;

  await trx
    .insertInto('currency')
    .values(CURRENCIES.map(([code, description, symbol, decimals]) => ({ code, description, symbol, decimals, created_by: BY, updated_by: BY })))
    .onConflict((oc) => oc.column('code').doNothing())
    .execute();
  counts.currency = CURRENCIES.length;

  const codes = codeMasterRows();
  await trx.insertInto('code_master').values(codes).onConflict((oc) => oc.columns(['code_type', 'code']).doNothing()).execute();
  counts.code_master = codes.length;

  await trx
    .insertInto('inv_code')
    .values(INV_CODES.map(([code_type, code, description, requires_approval]) => ({ code_type, code, description, requires_approval, created_by: BY, updated_by: BY })))
    .onConflict((oc) => oc.columns(['code_type', 'code']).doNothing())
    .execute();
  counts.inv_code = INV_CODES.length;

  await trx
    .insertInto('mult_text')
    .values(MULT_TEXTS.map(([text_code, text_en, text_zh, text_zh_tw, text_kor, text_th, text_jp]) => ({ text_code, text_en, text_zh, text_zh_tw, text_kor, text_th, text_jp, created_by: BY, updated_by: BY })))
    .onConflict((oc) => oc.column('text_code').doNothing())
    .execute();
  counts.mult_text = MULT_TEXTS.length;

  const vehicles = await trx
    .insertInto('vehicle')
    .values(
      VEHICLES.map(([plate_no, vehicle_type, capacity_weight_kg, capacity_volume_m3], i) => ({
        warehouse_id: warehouseIds[i % 2],
        plate_no,
        vehicle_type,
        carrier_code: 'OWNFLEET',
        capacity_weight_kg,
        capacity_volume_m3,
        created_by: BY,
        updated_by: BY,
      })),
    )
    .returning(['id', 'warehouse_id'])
    .execute();
  counts.vehicle = vehicles.length;
  await trx
    .insertInto('driver')
    .values(
      DRIVERS.map(([code, name, phone], i) => ({
        warehouse_id: vehicles[i % vehicles.length].warehouse_id,
        code,
        name,
        phone,
        license_no: `HK-DL-${7100230 + i * 97}`,
        license_expiry: `${2027 + (i % 3)}-0${1 + (i % 9)}-15`,
        vehicle_id: vehicles[i % vehicles.length].id,
        created_by: BY,
        updated_by: BY,
      })),
    )
    .execute();
  counts.driver = DRIVERS.length;

  const params = [
    ...SYS_PARAMS.map(([param_code, param_value, description]) => ({ organization_id: null, param_code, param_value, description })),
    { organization_id: organizationId, param_code: 'BASE_CURRENCY', param_value: 'HKD', description: 'Billing currency of the organization' },
  ].map((p) => ({ ...p, created_by: BY, updated_by: BY }));
  await trx.insertInto('sys_param').values(params).onConflict((oc) => oc.columns(['organization_id', 'param_code']).doNothing()).execute();
  counts.sys_param = params.length;
  return counts;
}

/** EAN-13 from its first twelve digits (GS1 check digit). */
export function ean13(twelve: string): string {
  return twelve + gs1CheckDigit(twelve);
}

function gtin14(thirteen: string): string {
  return thirteen + gs1CheckDigit(thirteen);
}

export function gs1CheckDigit(digits: string): string {
  let sum = 0;
  // Weights 3 and 1 alternate from the rightmost digit before the check digit.
  for (let i = 0; i < digits.length; i++) sum += Number(digits[digits.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return String((10 - (sum % 10)) % 10);
}

const ELECTRONICS = ['USB-C cable 1 m', 'USB-C cable 2 m', 'Wireless mouse', 'Mechanical keyboard', '27-inch monitor', 'Laptop stand', 'Bluetooth speaker', 'Noise-cancelling headphones', 'Power bank 10000 mAh', 'HDMI cable 2 m'];
const COLOURS = ['black', 'white', 'grey', 'blue', 'red', 'silver', 'gold', 'green', 'pink', 'navy'];
const FOODS = ['Green tea 500 ml', 'Orange juice 1 l', 'Oat milk 1 l', 'Dark chocolate 100 g', 'Jasmine rice 5 kg', 'Instant noodles 5-pack', 'Olive oil 500 ml', 'Almonds 200 g', 'Coffee beans 1 kg', 'Sparkling water 330 ml'];
const FOOD_LINES = ['classic', 'organic', 'light', 'family pack', 'limited edition', 'no sugar', 'export', 'premium', 'value', 'gift box'];
const GARMENTS = ['Cotton T-shirt', 'Denim jeans', 'Hoodie', 'Polo shirt', 'Chino trousers', 'Rain jacket', 'Wool sweater', 'Running shorts', 'Dress shirt', 'Cargo trousers'];
const SIZES = ['XS', 'S', 'M', 'L', 'XL'];

function demoSkus(projectId: number, ownerId: number, ownerIndex: number): Array<Insertable<SkuTable>> {
  const skus: Array<Insertable<SkuTable>> = [];
  for (let n = 0; n < DEMO.skusPerOwner; n++) {
    const product = n % 10;
    const variant = Math.floor(n / 10);
    const base = { project_id: projectId, owner_id: ownerId, created_by: BY, updated_by: BY, currency_code: 'USD' };
    if (ownerIndex === 0) {
      const heavy = product === 4;
      skus.push({
        ...base,
        code: `AC-${String(1001 + n)}`,
        description: `${ELECTRONICS[product]}, ${COLOURS[variant]}`,
        sku_group: 'ELECTRONICS',
        inner_qty: heavy ? null : '5',
        case_qty: heavy ? '1' : '20',
        pallet_cases: heavy ? '16' : '48',
        length_cm: (heavy ? 68 : 10 + product * 2).toFixed(3),
        width_cm: (heavy ? 45 : 6 + product).toFixed(3),
        height_cm: (heavy ? 18 : 3 + product).toFixed(3),
        volume_cm3: (heavy ? 68 * 45 * 18 : (10 + product * 2) * (6 + product) * (3 + product)).toFixed(3),
        gross_weight_kg: (heavy ? 6.5 : 0.1 + product * 0.08).toFixed(4),
        net_weight_kg: (heavy ? 5.8 : 0.08 + product * 0.07).toFixed(4),
        serial_control: heavy || product === 3,
        unit_price: (9.9 + product * 12 + variant).toFixed(4),
      });
    } else if (ownerIndex === 1) {
      const shelfLife = [365, 270, 180, 540, 720, 365, 540, 365, 365, 450][product];
      skus.push({
        ...base,
        code: `FF-${String(2001 + n)}`,
        description: `${FOODS[product]}, ${FOOD_LINES[variant]}`,
        sku_group: 'FOOD',
        case_qty: String([24, 12, 12, 20, 4, 10, 12, 24, 6, 24][product]),
        pallet_cases: String([60, 70, 70, 80, 40, 90, 70, 100, 60, 84][product]),
        length_cm: (6 + product).toFixed(3),
        width_cm: (6 + (product % 4)).toFixed(3),
        height_cm: (12 + product).toFixed(3),
        volume_cm3: ((6 + product) * (6 + (product % 4)) * (12 + product)).toFixed(3),
        gross_weight_kg: (0.35 + product * 0.3).toFixed(4),
        net_weight_kg: (0.3 + product * 0.28).toFixed(4),
        shelf_life_days: shelfLife,
        inbound_min_days: Math.round(shelfLife * 0.66),
        outbound_min_days: Math.round(shelfLife * 0.33),
        expiry_control: true,
        lot_control: true,
        unit_price: (1.2 + product * 0.9 + variant * 0.1).toFixed(4),
      });
    } else {
      const size = SIZES[n % 5];
      const colour = COLOURS[Math.floor(n / 50) * 3];
      const garment = GARMENTS[Math.floor(n / 5) % 10];
      skus.push({
        ...base,
        code: `ST-${String(3001 + n)}-${size}`,
        description: `${garment}, ${colour}, size ${size}`,
        sku_group: 'APPAREL',
        case_qty: '30',
        pallet_cases: '40',
        length_cm: '30.000',
        width_cm: '22.000',
        height_cm: (2 + (n % 5)).toFixed(3),
        volume_cm3: (30 * 22 * (2 + (n % 5))).toFixed(3),
        gross_weight_kg: (0.25 + (n % 5) * 0.05).toFixed(4),
        net_weight_kg: (0.22 + (n % 5) * 0.05).toFixed(4),
        unit_price: (14.5 + (Math.floor(n / 5) % 10) * 4).toFixed(4),
      });
    }
  }
  return skus;
}

function demoPartners(projectId: number) {
  const row = (partner_type: 'supplier' | 'consignee' | 'carrier', code: string, name: string, city: string, country: string, i: number) => ({
    project_id: projectId,
    partner_type,
    code,
    name,
    city,
    country,
    contact_name: ['Chan Tai Man', 'Wong Mei Ling', 'Lee Ka Ho', 'Ng Siu Fung', 'Cheung Wing Yan'][i % 5],
    phone: `+852 2${String(3100000 + i * 7919).slice(0, 3)} ${String(4000 + i * 37).slice(0, 4)}`,
    email: `${code.toLowerCase()}@partners.example`,
    address1: `${10 + i} ${['Nathan Road', 'Queens Road Central', 'Castle Peak Road', 'Hennessy Road', 'Canton Road'][i % 5]}`,
    created_by: BY,
    updated_by: BY,
  });
  const suppliers = [
    ['Shenzhen Bright Electronics', 'Shenzhen', 'CN'],
    ['Dongguan Precision Plastics', 'Dongguan', 'CN'],
    ['Siam Beverage Industries', 'Bangkok', 'TH'],
    ['Hokkaido Dairy Cooperative', 'Sapporo', 'JP'],
    ['Busan Textile Mills', 'Busan', 'KR'],
    ['Taichung Packaging Works', 'Taichung', 'TW'],
    ['Saigon Garment Factory', 'Ho Chi Minh City', 'VN'],
    ['Penang Circuit Assembly', 'Penang', 'MY'],
  ].map(([name, city, country], i) => row('supplier', `SUP${String(i + 1).padStart(3, '0')}`, name, city, country, i));
  const districts = ['Mong Kok', 'Causeway Bay', 'Tsim Sha Tsui', 'Sha Tin', 'Tsuen Wan', 'Kwun Tong', 'Central', 'Tuen Mun', 'Yuen Long', 'Sai Kung'];
  const consignees = Array.from({ length: 20 }, (_, i) =>
    row('consignee', `STORE${String(i + 1).padStart(3, '0')}`, `${i < 10 ? 'CityMart' : 'HomePlus'} ${districts[i % 10]}`, 'Hong Kong', 'HK', i),
  );
  const carriers = [
    ['DHL', 'DHL Express', 'Hong Kong', 'HK'],
    ['FEDEX', 'FedEx', 'Hong Kong', 'HK'],
    ['UPS', 'UPS', 'Hong Kong', 'HK'],
    ['SFEXP', 'SF Express', 'Shenzhen', 'CN'],
    ['KERRY', 'Kerry Logistics', 'Hong Kong', 'HK'],
    ['OWNFLEET', 'Own fleet', 'Hong Kong', 'HK'],
  ].map(([code, name, city, country], i) => row('carrier', code, name, city, country, i));
  return [...suppliers, ...consignees, ...carriers];
}

const CURRENCIES: Array<[string, string, string, number]> = [
  ['USD', 'US dollar', '$', 2],
  ['EUR', 'Euro', '€', 2],
  ['GBP', 'Pound sterling', '£', 2],
  ['HKD', 'Hong Kong dollar', 'HK$', 2],
  ['CNY', 'Chinese yuan renminbi', '¥', 2],
  ['TWD', 'New Taiwan dollar', 'NT$', 2],
  ['JPY', 'Japanese yen', '¥', 0],
  ['KRW', 'South Korean won', '₩', 0],
  ['THB', 'Thai baht', '฿', 2],
  ['SGD', 'Singapore dollar', 'S$', 2],
  ['MYR', 'Malaysian ringgit', 'RM', 2],
  ['VND', 'Vietnamese dong', '₫', 0],
];

// code type, code, en, zh, zh_tw, kor, th, jp (LOCATION_TYPE and PARTNER_TYPE come with
// migration 0022, demo data or not)
const CODES: Array<[string, string, string, string, string, string, string, string]> = [
  ['UOM', 'EA', 'Each', '件', '件', '개', 'ชิ้น', '個'],
  ['UOM', 'IN', 'Inner pack', '内包装', '內包裝', '내포장', 'แพ็คใน', '内箱'],
  ['UOM', 'CS', 'Case', '箱', '箱', '케이스', 'ลัง', 'ケース'],
  ['UOM', 'PL', 'Pallet', '托盘', '棧板', '팔레트', 'พาเลท', 'パレット'],
  ['UOM', 'KG', 'Kilogram', '千克', '公斤', '킬로그램', 'กิโลกรัม', 'キログラム'],
  ['SKU_GROUP', 'ELECTRONICS', 'Electronics', '电子产品', '電子產品', '전자제품', 'อิเล็กทรอนิกส์', '電子機器'],
  ['SKU_GROUP', 'FOOD', 'Food and beverage', '食品饮料', '食品飲料', '식음료', 'อาหารและเครื่องดื่ม', '食品・飲料'],
  ['SKU_GROUP', 'APPAREL', 'Apparel', '服装', '服裝', '의류', 'เครื่องแต่งกาย', 'アパレル'],
  ['ORDER_TYPE', 'B2B', 'Store replenishment', '门店补货', '門市補貨', '매장 보충', 'เติมสินค้าร้านค้า', '店舗補充'],
  ['ORDER_TYPE', 'B2C', 'E-commerce order', '电商订单', '電商訂單', '전자상거래 주문', 'คำสั่งซื้อออนไลน์', 'EC注文'],
  ['ORDER_TYPE', 'RTV', 'Return to vendor', '退货给供应商', '退貨給供應商', '공급업체 반품', 'คืนสินค้าผู้จัดจำหน่าย', '仕入先返品'],
  ['VEHICLE_TYPE', 'VAN', 'Van', '厢式货车', '廂型車', '밴', 'รถตู้', 'バン'],
  ['VEHICLE_TYPE', 'TRUCK5T', '5.5-tonne truck', '5.5 吨货车', '5.5 噸貨車', '5.5톤 트럭', 'รถบรรทุก 5.5 ตัน', '5.5トントラック'],
  ['VEHICLE_TYPE', 'TRUCK24T', '24-tonne truck', '24 吨货车', '24 噸貨車', '24톤 트럭', 'รถบรรทุก 24 ตัน', '24トントラック'],
];

function codeMasterRows(): Array<Insertable<CodeMasterTable>> {
  const seq = new Map<string, number>();
  return CODES.map(([code_type, code, desc_en, desc_zh, desc_zh_tw, desc_kor, desc_th, desc_jp]) => {
    const sort_seq = (seq.get(code_type) ?? 0) + 10;
    seq.set(code_type, sort_seq);
    return { code_type, code, sort_seq, desc_en, desc_zh, desc_zh_tw, desc_kor, desc_th, desc_jp, created_by: BY, updated_by: BY };
  });
}

const INV_CODES: Array<['adjust' | 'hold' | 'move' | 'transfer' | 'count' | 'status', string, string, boolean]> = [
  ['adjust', 'DAMAGE', 'Damaged in warehouse', true],
  ['adjust', 'FOUND', 'Found during count', false],
  ['adjust', 'LOST', 'Lost or missing', true],
  ['adjust', 'EXPIRED', 'Expired and destroyed', true],
  ['adjust', 'SAMPLE', 'Sample taken by owner', false],
  ['hold', 'QC', 'Quality inspection', false],
  ['hold', 'RECALL', 'Product recall', true],
  ['hold', 'DAMAGE', 'Suspected damage', false],
  ['move', 'REPLEN', 'Replenishment of the pick face', false],
  ['move', 'CONSOL', 'Consolidation', false],
  ['transfer', 'OWNER', 'Change of owner', true],
  ['count', 'CYCLE', 'Cycle count', false],
  ['count', 'ANNUAL', 'Annual stocktake', true],
  ['status', 'OK', 'Available', false],
  ['status', 'HOLD', 'On hold', false],
];

const MULT_TEXTS: Array<[string, string, string, string, string, string, string]> = [
  ['WELCOME_BANNER', 'Welcome to the warehouse', '欢迎使用仓库系统', '歡迎使用倉庫系統', '창고 시스템에 오신 것을 환영합니다', 'ยินดีต้อนรับสู่คลังสินค้า', '倉庫システムへようこそ'],
  ['FRAGILE', 'Fragile, handle with care', '易碎品，小心轻放', '易碎品，小心輕放', '파손 주의', 'ของแตกง่าย โปรดระวัง', '割れ物注意'],
  ['KEEP_COLD', 'Keep refrigerated', '冷藏保存', '冷藏保存', '냉장 보관', 'เก็บในที่เย็น', '要冷蔵'],
  ['THIS_SIDE_UP', 'This side up', '此面朝上', '此面朝上', '이쪽이 위', 'ด้านนี้ขึ้น', '天地無用'],
];

const VEHICLES: Array<[string, string, string, string]> = [
  ['KV 1234', 'VAN', '1500.000', '8.000'],
  ['LM 5678', 'TRUCK5T', '5500.000', '28.000'],
  ['NP 9012', 'TRUCK24T', '24000.000', '68.000'],
  ['RS 3456', 'VAN', '1500.000', '8.000'],
  ['TU 7890', 'TRUCK5T', '5500.000', '28.000'],
];

const DRIVERS: Array<[string, string, string]> = [
  ['DRV001', 'Chan Chi Keung', '+852 9123 4501'],
  ['DRV002', 'Lau Wai Man', '+852 9123 4502'],
  ['DRV003', 'Ho Kin Wah', '+852 9123 4503'],
  ['DRV004', 'Tsang Yuk Lin', '+852 9123 4504'],
  ['DRV005', 'Yip Chun Kit', '+852 9123 4505'],
  ['DRV006', 'Mak Siu Ming', '+852 9123 4506'],
];

const SYS_PARAMS: Array<[string, string, string]> = [
  ['DEFAULT_LANGUAGE', 'en', 'Language of new users'],
  ['TXN_LOG_MAX_DAYS', '31', 'Longest query period of the transaction log, in days'],
  ['SELECTION_CAP', '100', 'Most rows a selection may hold'],
  ['UPLOAD_CAP_MB', '500', 'Largest total size of attachments, in MB'],
  ['LIST_TEXT_CUT', '12', 'Characters of long text shown in lists before the ellipsis'],
  ['BATCH_RECEIVE_MIN_QUERY', '5', 'Fewest characters of a batch receive query'],
];
