import { dateParts, groupByPallet, isGtin, stamp, type Envelope, type ShipNotice, type ShipNoticeAddress } from './ship-notice.js';

/**
 * The ANSI X12 856 ship notice (version 004010) of a ship notice: one interchange, one group
 * (GS SH), one transaction set. The shipment level carries the load: TD3 (container, seal), REF
 * LO (our load number), MB (master bill of lading), BM (house bill of lading) and WU (vessel, with
 * the voyage as its description). Its HL tree is shipment (S) > order (O) > tare (T, a pallet, MAN*GM
 * with its SSCC) > pack (P, a carton, MAN*GM with its SSCC) > item (I, LIN, SN1 and the lot's
 * expiry); a carton on no pallet hangs under the order. CTT counts the HL segments, SE the
 * transaction set's segments from ST to SE, GE its one set and IEA its one group.
 */

/** Separators: element `*`, component `>`, segment `~`; ISA11 `U` (version 00401). */
const ELEMENT = '*';
const SEGMENT = '~';
const COMPONENT = '>';

/** X12 has no release character: a separator inside a value becomes a space. */
function clean(value: string | null | undefined): string {
  return (value ?? '').replace(/[*~>^\r\n]/g, ' ').trim();
}

function segment(tag: string, ...elements: Array<string | null | undefined>): string {
  const parts = elements.map(clean);
  while (parts.length && parts[parts.length - 1] === '') parts.pop();
  return [tag, ...parts].join(ELEMENT) + SEGMENT;
}

/** The GTIN's product id qualifier: UP (12 digits), EN (13), UK (14), EN for the rest. */
function gtinQualifier(gtin: string): string {
  return gtin.length === 12 ? 'UP' : gtin.length === 14 ? 'UK' : 'EN';
}

function party(code: string, address: ShipNoticeAddress): string[] {
  const lines = [segment('N1', code, address.name.slice(0, 60), address.gln ? 'UL' : null, address.gln)];
  if (address.street) lines.push(segment('N3', address.street.slice(0, 55)));
  if (address.city || address.postalCode || address.country) lines.push(segment('N4', address.city?.slice(0, 30), null, address.postalCode?.slice(0, 15), address.country?.slice(0, 3)));
  return lines;
}

/** A fixed-width ISA field. */
const fixed = (value: string, width: number) => clean(value).slice(0, width).padEnd(width, ' ');

/** The interchange text of the notice's 856 (no line breaks between segments). */
export function build856(notice: ShipNotice, envelope: Envelope): string {
  const created = stamp(envelope.createdAt);
  const ship = dateParts(notice.shipDate);
  const control = envelope.controlNumber;
  const isa13 = String(control).padStart(9, '0');
  const st02 = String(control).padStart(4, '0');
  const set: string[] = [];
  set.push(segment('ST', '856', st02));
  set.push(segment('BSN', '00', notice.noticeNo.slice(0, 30), created.date, created.time, '0001'));
  let hl = 0;
  const hlSegment = (parent: number | null, code: string) => {
    hl += 1;
    set.push(segment('HL', String(hl), parent === null ? '' : String(parent), code));
    return hl;
  };
  const shipment = hlSegment(null, 'S');
  set.push(segment('TD1', 'CTN25', String(notice.cartons.length)));
  if (notice.carrier) set.push(segment('TD5', 'B', notice.carrier.scac ? '2' : null, notice.carrier.scac, notice.load?.vessel ? 'S' : 'M', notice.carrier.name.slice(0, 35)));
  if (notice.load?.containerNo) set.push(segment('TD3', 'CN', null, notice.load.containerNo.slice(0, 15), null, null, null, null, null, notice.load.sealNo?.slice(0, 15)));
  if (notice.load?.loadNo) set.push(segment('REF', 'LO', notice.load.loadNo.slice(0, 30)));
  if (notice.load?.mbl) set.push(segment('REF', 'MB', notice.load.mbl.slice(0, 30)));
  if (notice.load?.hbl) set.push(segment('REF', 'BM', notice.load.hbl.slice(0, 30)));
  // The vessel's REF names the voyage in its description (REF03): the 856 has no voyage element.
  if (notice.load?.vessel || notice.load?.voyage) set.push(segment('REF', 'WU', notice.load.vessel?.slice(0, 30), notice.load.voyage?.slice(0, 80)));
  set.push(segment('DTM', '011', ship.date, ship.time));
  set.push(...party('SF', notice.shipFrom), ...party('ST', notice.shipTo));
  const order = hlSegment(shipment, 'O');
  if (notice.customerPo) set.push(segment('PRF', notice.customerPo.slice(0, 22)));
  set.push(segment('REF', 'VN', notice.orderNo.slice(0, 30)));
  for (const group of groupByPallet(notice.cartons)) {
    let parent = order;
    if (group.pallet) {
      parent = hlSegment(order, 'T');
      set.push(segment('MAN', 'GM', group.pallet));
    }
    for (const carton of group.cartons) {
      const pack = hlSegment(parent, 'P');
      set.push(segment('MAN', 'GM', carton.sscc));
      for (const line of carton.lines) {
        hlSegment(pack, 'I');
        const ids: string[] = [];
        if (isGtin(line.gtin)) ids.push(gtinQualifier(line.gtin), line.gtin);
        ids.push('VN', line.sku);
        if (line.lot) ids.push('LT', line.lot);
        set.push(segment('LIN', '', ...ids));
        set.push(segment('SN1', '', line.qty, line.unit));
        if (line.expiry) set.push(segment('DTM', '036', dateParts(line.expiry).date));
      }
    }
  }
  set.push(segment('CTT', String(hl)));
  set.push(segment('SE', String(set.length + 1), st02));
  const sender = envelope.sender;
  const receiver = envelope.receiver;
  const isa = [
    'ISA',
    '00',
    fixed('', 10),
    '00',
    fixed('', 10),
    fixed(sender.qualifier ?? 'ZZ', 2),
    fixed(sender.id, 15),
    fixed(receiver.qualifier ?? 'ZZ', 2),
    fixed(receiver.id, 15),
    created.date.slice(2),
    created.time,
    'U',
    '00401',
    isa13,
    '0',
    envelope.test ? 'T' : 'P',
    COMPONENT,
  ].join(ELEMENT) + SEGMENT;
  const gs = segment('GS', 'SH', sender.id, receiver.id, created.date, created.time, String(control), 'X', '004010');
  return [isa, gs, ...set, segment('GE', '1', String(control)), segment('IEA', '1', isa13)].join('');
}
