import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { buildDesadv } from '../../src/server/modules/edi/edifact.js';
import type { Envelope, ShipNotice } from '../../src/server/modules/edi/ship-notice.js';
import { build856 } from '../../src/server/modules/edi/x12.js';

/**
 * Both ship notice messages of one notice (two cartons, one on a pallet, two lines), read back by
 * EDI parsers from npm: the EDIFACT reader checks every segment against the D.96A directory, the
 * X12 parser builds the interchange, group and transaction set.
 */
const require = createRequire(import.meta.url);
const { Reader } = require('edifact') as { Reader: new () => { define(definitions: Record<string, unknown>): void; parse(text: string): Array<{ name: string; elements: string[][] }> } };

/**
 * A reader for messages with a vessel: TDT names it in C222, after the conditional composite C401,
 * which is then left empty. The reader counts an empty composite as one component and C401 needs
 * two when it is there, so the reader is told that C401 may be left out.
 */
function seaReader() {
  const reader = new Reader();
  reader.define({ C401: { requires: 0, components: ['an..3', 'an..3', 'an..17'] } });
  return reader;
}
const { X12Parser } = require('node-x12') as {
  X12Parser: new (strict: boolean) => {
    parse(text: string): {
      header: { elements: Array<{ value: string }> };
      trailer: { elements: Array<{ value: string }> };
      functionalGroups: Array<{
        header: { elements: Array<{ value: string }> };
        trailer: { elements: Array<{ value: string }> };
        transactions: Array<{ header: { elements: Array<{ value: string }> }; trailer: { elements: Array<{ value: string }> }; segments: Array<{ tag: string; elements: Array<{ value: string }> }> }>;
      }>;
    };
  };
};

const CARTON_1 = '306141410000000012';
const CARTON_2 = '306141410000000036';
const PALLET = '306141410000000029';

const notice: ShipNotice = {
  ownerId: 1,
  orderId: 5,
  noticeNo: 'SN-0001',
  shipDate: '2026-11-26',
  orderNo: 'SO-100',
  customerPo: "PO+7'A",
  shipFrom: { name: 'Main warehouse', gln: '5412345000013', street: '1 Dock Road', city: 'Antwerp', postalCode: '2000', country: 'BE' },
  shipTo: { name: 'Shop 12', gln: '5498765000017', street: 'Market 3', city: 'Ghent', postalCode: '9000', country: 'BE' },
  carrier: { name: 'Road Express', scac: 'REXP' },
  load: { loadNo: 'LD-9', containerNo: 'MSKU1234567', sealNo: 'SEAL77' },
  cartons: [
    { sscc: CARTON_1, palletSscc: PALLET, lines: [{ gtin: '05412345000020', sku: 'SKU-A', qty: '12', unit: 'PCE', lot: 'LOT1', expiry: '2027-03-31' }] },
    { sscc: CARTON_2, lines: [{ gtin: '5412345000037', sku: 'SKU-B', qty: '2.5', unit: 'KGM' }] },
  ],
};
const at = new Date(Date.UTC(2026, 10, 26, 9, 5));

describe('EDIFACT DESADV D.96A', () => {
  const envelope: Envelope = { sender: { id: '5412345000013' }, receiver: { id: '5498765000017' }, controlNumber: 42, createdAt: at };
  const text = buildDesadv(notice, envelope);
  const segments = new Reader().parse(text);
  const named = (tag: string) => segments.filter((s) => s.name === tag);

  it('is read by an EDIFACT parser that checks each segment against the directory', () => {
    expect(segments[0].name).toBe('UNB');
    expect(segments[1]).toMatchObject({ name: 'UNH', elements: [['42'], ['DESADV', 'D', '96A', 'UN', 'EAN005']] });
    expect(named('BGM')[0].elements).toEqual([['351'], ['SN-0001'], ['9']]);
    // The release character keeps separators inside a value.
    expect(named('RFF')[0].elements).toEqual([['ON', "PO+7'A"]]);
  });

  it('counts its segments in UNT and its messages in UNZ, with the same control references', () => {
    const unh = segments.findIndex((s) => s.name === 'UNH');
    const unt = segments.findIndex((s) => s.name === 'UNT');
    expect(segments[unt].elements).toEqual([[String(unt - unh + 1)], ['42']]);
    expect(named('UNB')[0].elements[4]).toEqual(['42']);
    expect(named('UNZ')[0].elements).toEqual([['1'], ['42']]);
  });

  it('nests the cartons under their pallet or the shipment, each with its SSCC', () => {
    expect(named('CPS').map((s) => s.elements.map((e) => e[0]))).toEqual([['1'], ['2', '1'], ['3', '2'], ['4', '1']]);
    expect(named('GIN').filter((s) => s.elements[0][0] === 'BJ').map((s) => s.elements[1][0])).toEqual([PALLET, CARTON_1, CARTON_2]);
    expect(named('PAC').map((s) => s.elements[2][0])).toEqual(['201', 'CT', 'CT']);
    expect(named('LIN').map((s) => s.elements[2])).toEqual([['05412345000020', 'SRV'], ['5412345000037', 'SRV']]);
    expect(named('QTY').map((s) => s.elements[0])).toEqual([['12', '12', 'PCE'], ['12', '2.5', 'KGM']]);
    expect(named('GIN').find((s) => s.elements[0][0] === 'BX')?.elements[1]).toEqual(['LOT1']);
    expect(named('DTM').find((s) => s.elements[0][0] === '36')?.elements[0]).toEqual(['36', '20270331', '102']);
  });

  it('names the vessel and voyage of a sea load in TDT', () => {
    expect(buildDesadv({ ...notice, load: { ...notice.load, vessel: 'Ever Given', voyage: '042W' } }, envelope)).toContain("TDT+20+042W+10++REXP:172:182:Road Express+++:::Ever Given'");
  });

  it('carries the load: its number, the bills of lading, the container and its seal', () => {
    const sea = seaReader().parse(buildDesadv({ ...notice, load: { ...notice.load, vessel: 'Ever Given', voyage: '042W', mbl: 'MAEU123', hbl: 'HB:77' } }, envelope));
    const of = (tag: string) => sea.filter((s) => s.name === tag).map((s) => s.elements);
    expect(of('RFF')).toEqual([[['ON', "PO+7'A"]], [['VN', 'SO-100']], [['SRN', 'LD-9']], [['MB', 'MAEU123']], [['BH', 'HB:77']]]);
    expect(of('EQD')).toEqual([[['CN'], ['MSKU1234567']]]);
    expect(of('SEL')).toEqual([[['SEAL77'], ['CA']]]);
    expect(of('TDT')[0][1]).toEqual(['042W']);
  });
});

describe('ANSI X12 856', () => {
  const envelope: Envelope = { sender: { id: 'WMSDEMO', qualifier: 'ZZ' }, receiver: { id: 'SHOP12', qualifier: '01' }, controlNumber: 42, createdAt: at };
  const text = build856(notice, envelope);
  const interchange = new X12Parser(true).parse(text);
  const group = interchange.functionalGroups[0];
  const set = group.transactions[0];
  const values = (s: { elements: Array<{ value: string }> }) => s.elements.map((e) => e.value);
  const all = [set.header, ...set.segments, set.trailer] as Array<{ tag: string; elements: Array<{ value: string }> }>;

  it('is read by an X12 parser as one interchange of one group of one set', () => {
    expect(interchange.functionalGroups).toHaveLength(1);
    expect(group.transactions).toHaveLength(1);
    // ISA13 and IEA02 are nine digits as written (the parser reads them as numbers).
    expect(text.slice(0, 106).split('*')[13]).toBe('000000042');
    expect(Number(values(interchange.header)[12])).toBe(42);
    expect(values(group.header).slice(0, 3)).toEqual(['SH', 'WMSDEMO', 'SHOP12']);
    expect(values(set.header)).toEqual(['856', '0042']);
  });

  it('counts its segments in SE, its HL segments in CTT, its set in GE and its group in IEA', () => {
    const segmentCount = set.segments.length + 2;
    expect(values(set.trailer)).toEqual([String(segmentCount), '0042']);
    const hls = set.segments.filter((s) => s.tag === 'HL');
    expect(values(set.segments.find((s) => s.tag === 'CTT')!)[0]).toBe(String(hls.length));
    expect(values(group.trailer)).toEqual(['1', '42']);
    expect(values(interchange.trailer).map(Number)).toEqual([1, 42]);
    expect(text.endsWith('IEA*1*000000042~')).toBe(true);
    expect(text.match(/~/g)).toHaveLength(segmentCount + 4);
  });

  it('carries the load at the shipment level: container and seal, load number, bills of lading, vessel and voyage', () => {
    const sea = new X12Parser(true).parse(build856({ ...notice, load: { ...notice.load, vessel: 'Ever Given', voyage: '042W', mbl: 'MAEU123', hbl: 'HB77' } }, envelope));
    const segments = sea.functionalGroups[0].transactions[0].segments;
    const firstHl = segments.findIndex((s) => s.tag === 'HL');
    const secondHl = segments.findIndex((s, i) => i > firstHl && s.tag === 'HL');
    const shipmentLevel = segments.slice(firstHl, secondHl);
    const td3 = values(shipmentLevel.find((s) => s.tag === 'TD3')!);
    expect([td3[0], td3[2], td3[8]]).toEqual(['CN', 'MSKU1234567', 'SEAL77']);
    expect(shipmentLevel.filter((s) => s.tag === 'REF').map(values)).toEqual([['LO', 'LD-9'], ['MB', 'MAEU123'], ['BM', 'HB77'], ['WU', 'Ever Given', '042W']]);
  });

  it('builds the HL tree shipment > order > tare > pack > item, with the SSCCs in MAN*GM', () => {
    const tree: string[] = [];
    let lastHl = '';
    for (const segment of all) {
      if (segment.tag === 'HL') {
        const [id, parent, code] = values(segment);
        lastHl = `${id}:${parent}:${code}`;
        tree.push(lastHl);
      }
      if (segment.tag === 'MAN') tree.push(`${lastHl} ${values(segment).join('*')}`);
    }
    expect(tree).toEqual([
      '1::S',
      '2:1:O',
      '3:2:T',
      `3:2:T GM*${PALLET}`,
      '4:3:P',
      `4:3:P GM*${CARTON_1}`,
      '5:4:I',
      '6:2:P',
      `6:2:P GM*${CARTON_2}`,
      '7:6:I',
    ]);
    const lins = set.segments.filter((s) => s.tag === 'LIN').map(values);
    expect(lins).toEqual([
      ['', 'UK', '05412345000020', 'VN', 'SKU-A', 'LT', 'LOT1'],
      ['', 'EN', '5412345000037', 'VN', 'SKU-B'],
    ]);
    expect(set.segments.filter((s) => s.tag === 'SN1').map(values)).toEqual([
      ['', '12', 'PCE'],
      ['', '2.5', 'KGM'],
    ]);
  });
});
