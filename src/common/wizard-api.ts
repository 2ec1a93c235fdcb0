/** The order wizards' answer types, written once for the server (src/server/modules/wizard) and the screens (src/screens/wizard). */

/** The two order wizards: wine sales and non-merchandise sales. */
export type WizardKind = 'wine' | 'nonMer';

/** What a wizard keeps between steps. Every field is optional until the step that asks for it is left. */
export interface WizardData {
  ownerId?: number;
  customerOrderNo?: string | null;
  consigneeId?: number | null;
  shipToName?: string | null;
  shipToAddressEn?: string | null;
  shipToAddressCn?: string | null;
  contact?: string | null;
  phone?: string | null;
  lines?: Array<{ skuId: number; qty: string }>;
  carrierCode?: string | null;
  vasInstructions?: string[];
  instructionText?: string | null;
  requiredShipDate?: string | null;
  remark?: string | null;
}

/** An item a wizard offers or holds, with the quantity available in the warehouse now. */
export interface WizardItem {
  id: number;
  code: string;
  description: string;
  base_uom: string;
  available: string;
}

/** The user's temporary order of a wizard and the step they are on (1 to 5). */
export interface TempOrder {
  kind: WizardKind;
  currentStep: number;
  data: WizardData;
  updatedAt: string | null;
  /** The SKUs of its lines with what is available now, for the screen to show. */
  items: WizardItem[];
}
