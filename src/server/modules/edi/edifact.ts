import { dateParts, groupByPallet, isGtin, stamp, type Envelope, type ShipNotice, type ShipNoticeAddress } from './ship-notice.js';

/**
 * The EANCOM despatch advice (DESADV D.96A, EAN005) of a ship notice: one interchange of one
 * message. The load goes into RFF SRN (our load number), MB and BH (master and house bill of
 * lading), TDT (voyage as conveyance reference, vessel) and EQD CN with SEL (container, seal).
 * The packing hierarchy is shipment (CPS 1), pallet (CPS with its parent 1, PAC 201, SSCC
 * in GIN+BJ) and carton (parent its pallet or the shipment, PAC CT, SSCC in GIN+BJ), each carton
 * with its lines (LIN with the GTIN, PIA with the SKU, QTY 12 despatched, and lot and expiry under
 * PCI 36E). UNT counts the message's segments from UNH to UNT, UNZ the interchange's one message.
 */

/** Separators: component `:`, element `+`, decimal `.`, release `?`, segment `'`. */
const UNA = "UNA:+.? '";

/** Escapes the separators and the release character inside a value. */
function esc(value: string | null | undefined): string {
  return (value ?? '').replace(/[?:+']/g, (c) => `?${c}`).replace(/[\r\n]+/g, ' ');
}

/** Leaves out the empty components or elements at the end. */
function trimEnd(parts: string[]): string[] {
  const kept = [...parts];
  while (kept.length && kept[kept.length - 1] === '') kept.pop();
  return kept;
}

/** A segment from its tag and elements; an element is a text or its components. Empty trailing elements are left out. */
function segment(tag: string, ...elements: Array<string | Array<string | null | undefined> | null | undefined>): string {
  const parts = elements.map((e) => (Array.isArray(e) ? trimEnd(e.map((c) => esc(c))).join(':') : esc(e)));
  return [tag, ...trimEnd(parts)].join('+') + "'";
}

function nad(qualifier: string, party: ShipNoticeAddress): string {
  return segment('NAD', qualifier, party.gln ? [party.gln, '', '9'] : null, null, [party.name.slice(0, 35)], [party.street?.slice(0, 35)], party.city?.slice(0, 35), null, party.postalCode?.slice(0, 9), party.country?.slice(0, 3));
}

/** The interchange text of the notice's DESADV (no line breaks between segments). */
export function buildDesadv(notice: ShipNotice, envelope: Envelope): string {
  const created = stamp(envelope.createdAt);
  const ship = dateParts(notice.shipDate);
  const control = String(envelope.controlNumber);
  const body: string[] = [];
  body.push(segment('UNH', control, ['DESADV', 'D', '96A', 'UN', 'EAN005']));
  body.push(segment('BGM', '351', notice.noticeNo, '9'));
  body.push(segment('DTM', ['137', created.date + created.time, '203']));
  body.push(segment('DTM', ship.time ? ['11', ship.date + ship.time, '203'] : ['11', ship.date, '102']));
  if (notice.customerPo) body.push(segment('RFF', ['ON', notice.customerPo]));
  body.push(segment('RFF', ['VN', notice.orderNo]));
  if (notice.load?.loadNo) body.push(segment('RFF', ['SRN', notice.load.loadNo]));
  if (notice.load?.mbl) body.push(segment('RFF', ['MB', notice.load.mbl]));
  if (notice.load?.hbl) body.push(segment('RFF', ['BH', notice.load.hbl]));
  body.push(nad('SF', notice.shipFrom));
  body.push(nad('ST', notice.shipTo));
  if (notice.carrier || notice.load?.vessel || notice.load?.voyage) {
    // TDT: stage 20 (main carriage), the conveyance reference (the voyage), mode 10 (sea) when a vessel carries it, the carrier, the vessel's name.
    const mode = notice.load?.vessel ? '10' : '30';
    body.push(segment('TDT', '20', notice.load?.voyage?.slice(0, 17), [mode], null, notice.carrier ? [notice.carrier.scac, notice.carrier.scac ? '172' : '', notice.carrier.scac ? '182' : '', notice.carrier.name.slice(0, 35)] : null, null, null, notice.load?.vessel ? ['', '', '', notice.load.vessel.slice(0, 35)] : null));
  }
  if (notice.load?.containerNo) {
    body.push(segment('EQD', 'CN', notice.load.containerNo));
    if (notice.load.sealNo) body.push(segment('SEL', notice.load.sealNo, 'CA'));
  }
  let level = 1;
  body.push(segment('CPS', '1'));
  let lineNo = 0;
  for (const group of groupByPallet(notice.cartons)) {
    let parent = '1';
    if (group.pallet) {
      level += 1;
      parent = String(level);
      body.push(segment('CPS', parent, '1'));
      body.push(segment('PAC', '1', null, '201'));
      body.push(segment('PCI', '33E'));
      body.push(segment('GIN', 'BJ', group.pallet));
    }
    for (const carton of group.cartons) {
      level += 1;
      body.push(segment('CPS', String(level), parent));
      body.push(segment('PAC', '1', null, 'CT'));
      body.push(segment('PCI', '33E'));
      body.push(segment('GIN', 'BJ', carton.sscc));
      for (const line of carton.lines) {
        lineNo += 1;
        body.push(segment('LIN', String(lineNo), null, isGtin(line.gtin) ? [line.gtin, 'SRV'] : null));
        body.push(segment('PIA', '1', [line.sku, 'SA']));
        body.push(segment('QTY', ['12', line.qty, line.unit]));
        if (line.lot || line.expiry) {
          body.push(segment('PCI', '36E'));
          if (line.expiry) body.push(segment('DTM', ['36', dateParts(line.expiry).date, '102']));
          if (line.lot) body.push(segment('GIN', 'BX', line.lot));
        }
      }
    }
  }
  body.push(segment('UNT', String(body.length + 1), control));
  const unb = segment(
    'UNB',
    ['UNOC', '3'],
    [envelope.sender.id, envelope.sender.qualifier ?? '14'],
    [envelope.receiver.id, envelope.receiver.qualifier ?? '14'],
    [created.date.slice(2), created.time],
    control,
    null,
    null,
    null,
    null,
    null,
    envelope.test ? '1' : null,
  );
  return [UNA, unb, ...body, segment('UNZ', '1', control)].join('');
}
