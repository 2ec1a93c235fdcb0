/**
 * What the laundry's routes answer (docs/laundry.md): the public /moose routes the phone screens
 * call with a device key, and the administration routes that issue devices and customers.
 */

/** A garment's way through the laundry; the server allows only these steps, in this order. */
export const GARMENT_STATUSES = ['received', 'washing', 'cleaned', 'returned'] as const;
export type GarmentStatus = (typeof GARMENT_STATUSES)[number];

/** The header a public laundry call carries its device key in. */
export const LAUNDRY_DEVICE_HEADER = 'x-laundry-device';

/** The shape of a device key: `lnd_` and 32 characters of base64url. */
export const LAUNDRY_KEY_PATTERN = /^lnd_[A-Za-z0-9_-]{32}$/;

/** The calling device, as `/moose/device` answers it. */
export interface LaundryDeviceSelf {
  name: string;
}

/** `/moose/counts`: received and returned today, washing and cleaned (waiting to be returned) now. */
export interface LaundryCounts {
  received: number;
  washing: number;
  cleaned: number;
  returned: number;
}

export interface LaundryGarment {
  tag: string;
  status: GarmentStatus;
  batchId: number | null;
  receivedAt: string;
  cleanedAt: string | null;
  returnedAt: string | null;
}

/** `/moose/query`: a customer and their garments, newest first. */
export interface LaundryCustomerInfo {
  code: string;
  name: string;
  garments: LaundryGarment[];
}

/** A washing batch and the tags in it. */
export interface LaundryBatch {
  id: number;
  status: 'washing' | 'finished';
  startedAt: string;
  tags: string[];
}

/** A receive, batch add or return: the garment as it is now. */
export interface LaundryScanAnswer {
  tag: string;
  status: GarmentStatus;
  customerName: string;
}

/** An issued device, as the administration lists it (never its key). */
export interface LaundryDeviceRow {
  id: number;
  name: string;
  keyHint: string;
  createdAt: string;
  createdBy: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
  lastUsedAt: string | null;
}

/** `/laundry/device/issue`: the device and its key, shown this once. */
export interface LaundryIssuedDevice {
  device: LaundryDeviceRow;
  key: string;
}

export interface LaundryCustomerRow {
  id: number;
  code: string;
  name: string;
  phone: string | null;
  active: boolean;
  createdAt: string;
}
