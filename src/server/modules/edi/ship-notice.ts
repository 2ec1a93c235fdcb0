/**
 * One ship notice as both EDI standards carry it: who sends it to whom, what was shipped when, from
 * where to where, by whom, and each carton (SSCC, the pallet it stands on) with its lines.
 */

/** A party's identification: a GLN (13 digits) for EDIFACT, or an X12 interchange id with its qualifier (e.g. `ZZ`, `01`, `14`). */
export interface PartyId {
  id: string;
  /** X12 interchange id qualifier; EDIFACT uses 14 (GLN) when left out. */
  qualifier?: string;
}

export interface ShipNoticeAddress {
  name: string;
  /** The party's GLN where known. */
  gln?: string | null;
  street?: string | null;
  city?: string | null;
  postalCode?: string | null;
  /** ISO 3166 two-letter country code. */
  country?: string | null;
}

export interface ShipNoticeLine {
  /** GTIN of the item (8, 12, 13 or 14 digits) where known. */
  gtin?: string | null;
  sku: string;
  /** Shipped quantity as decimal text, e.g. `12` or `2.5`. */
  qty: string;
  /** Unit of measure (EA, PCE, KGM, ...). */
  unit: string;
  lot?: string | null;
  /** Expiry date `YYYY-MM-DD`. */
  expiry?: string | null;
}

export interface ShipNoticeCarton {
  /** The carton's SSCC, 18 digits. */
  sscc: string;
  /** The SSCC of the pallet the carton is shipped on, if any. */
  palletSscc?: string | null;
  lines: ShipNoticeLine[];
}

export interface ShipNotice {
  /** The owner (the warehouse's customer) whose EDI setting decides standard, ids and endpoint. */
  ownerId: number;
  /** The sales order it reports, if it is one. */
  orderId?: number | null;
  /** Sender and receiver; when left out, the owner's EDI setting gives them. */
  sender?: PartyId | null;
  receiver?: PartyId | null;
  /** The ship notice's own number (BGM / BSN). */
  noticeNo: string;
  /** Ship date `YYYY-MM-DD`, optionally with time `YYYY-MM-DDTHH:mm`. */
  shipDate: string;
  orderNo: string;
  customerPo?: string | null;
  shipFrom: ShipNoticeAddress;
  shipTo: ShipNoticeAddress;
  carrier?: { name: string; scac?: string | null } | null;
  /** The load it left on: our load number, container, seal, vessel, voyage, master and house bill of lading. */
  load?: {
    loadNo?: string | null;
    containerNo?: string | null;
    sealNo?: string | null;
    vessel?: string | null;
    voyage?: string | null;
    mbl?: string | null;
    hbl?: string | null;
  } | null;
  cartons: ShipNoticeCarton[];
}

/** The envelope of one interchange: its parties, its control number (interchange, group and message alike) and when it was made. */
export interface Envelope {
  sender: PartyId;
  receiver: PartyId;
  controlNumber: number;
  createdAt: Date;
  /** A test interchange (X12 ISA15 `T`, EDIFACT UNB test indicator 1). */
  test?: boolean;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** `CCYYMMDD` and `HHMM` of a moment in UTC. */
export function stamp(at: Date): { date: string; time: string } {
  return { date: `${at.getUTCFullYear()}${pad2(at.getUTCMonth() + 1)}${pad2(at.getUTCDate())}`, time: `${pad2(at.getUTCHours())}${pad2(at.getUTCMinutes())}` };
}

/** `CCYYMMDD` (and `HHMM` when it has a time) of a `YYYY-MM-DD[THH:mm]` text. */
export function dateParts(value: string): { date: string; time: string | null } {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/.exec(value);
  if (!match) throw new Error(`"${value}" is not a date YYYY-MM-DD`);
  return { date: `${match[1]}${match[2]}${match[3]}`, time: match[4] ? `${match[4]}${match[5]}` : null };
}

/** The pallets of a notice in the order their first carton comes, each with its cartons; cartons on no pallet come under `null`. */
export function groupByPallet(cartons: ShipNoticeCarton[]): Array<{ pallet: string | null; cartons: ShipNoticeCarton[] }> {
  const groups = new Map<string | null, ShipNoticeCarton[]>();
  for (const carton of cartons) {
    const key = carton.palletSscc || null;
    groups.set(key, [...(groups.get(key) ?? []), carton]);
  }
  return [...groups].map(([pallet, list]) => ({ pallet, cartons: list }));
}

/** The GTIN's length decides how each standard names it; 8, 12, 13 or 14 digits. */
export function isGtin(value: string | null | undefined): value is string {
  return !!value && /^(\d{8}|\d{12,14})$/.test(value);
}
