import type { Generated } from 'kysely';
import type { SendQueueColumns, SendStatus } from '../../area-kit/queued-sender.js';
import type { Audit, Id } from '../../db/schema.js';

/** The EDI area's tables; migration 0320 creates them. */
declare module '../../db/schema.js' {
  interface DB {
    edi_partner: EdiPartnerTable;
    edi_message: EdiMessageTable;
  }
}

export type EdiStandard = 'edifact' | 'x12' | 'none';
/** The moment an order's ship notice is made on its own: at check-complete of packing, or when it ships. */
export type EdiTrigger = 'check_complete' | 'ship';
/** An owner's setting of when its ship notices are sent: at one of the moments, or `never` on their own (only when asked for). */
export type EdiSendOn = EdiTrigger | 'never';
export type EdiMessageKind = 'desadv' | 'x12_856';
/** `queued`: waiting to be sent (again); `sent`: the endpoint took it; `failed`: given up after too many attempts, sent again only on request. */
export type EdiMessageStatus = SendStatus;

/** The EDI setting of an owner (the warehouse's customer) in a project. */
export interface EdiPartnerTable extends Audit {
  id: Id;
  project_id: number;
  owner_id: number;
  standard: Generated<EdiStandard>;
  send_on: Generated<EdiSendOn>;
  /** An http(s) URL the message is POSTed to, or an absolute folder path it is written into. */
  endpoint: string | null;
  /** Our id and theirs: GLNs for EDIFACT, interchange ids for X12. */
  sender_id: string;
  sender_qualifier: string | null;
  receiver_id: string;
  receiver_qualifier: string | null;
  test_indicator: Generated<boolean>;
  active: Generated<boolean>;
}

export interface EdiMessageTable extends Audit, SendQueueColumns {
  id: Id;
  project_id: number;
  warehouse_id: number;
  partner_id: number;
  owner_id: number;
  kind: EdiMessageKind;
  order_id: number | null;
  /** The ship notice's number. */
  reference: string;
  interchange_control: string;
  group_control: string;
  message_control: string;
  /** The interchange exactly as sent. */
  content: Uint8Array;
}
