import { AppError } from '../../../common/errors.js';

/**
 * What the warehouse asks of a parcel carrier, whatever its API: book a shipment (its id), register
 * parcels on it (their ids and tracking numbers), find a shipment by our reference, its label as PDF
 * or ZPL, and cancel it. Every call either answers or throws an AppError: CARRIER_TIMEOUT when the
 * carrier does not answer in time or cannot be reached, CARRIER_FAILED when it answers with an error.
 */
export interface CarrierAdapter {
  createShipmentId(shipment: CarrierShipmentRequest, idempotencyKey: string): Promise<{ shipmentId: string }>;
  addOrders(shipmentId: string, parcels: CarrierParcelRequest[], idempotencyKey: string): Promise<CarrierParcel[]>;
  findByReference(reference: string): Promise<CarrierShipmentFound[]>;
  label(shipmentId: string, format: LabelFormat): Promise<{ contentType: string; body: Buffer }>;
  cancel(shipmentId: string): Promise<void>;
}

export type LabelFormat = 'pdf' | 'zpl';

export interface CarrierShipmentRequest {
  reference: string;
  expectedDeliveryDate: string;
  gateway: string;
  service: string;
  serviceProvider: string;
  battery: string;
}

export interface CarrierParcelRequest {
  /** Our carton number, the parcel's key in both directions. */
  parcelNo: string;
  orderNo: string;
  sscc: string | null;
  weight: string | null;
  weightUom: string | null;
}

export interface CarrierParcel {
  parcelNo: string;
  parcelId: string | null;
  trackingNo: string | null;
}

export interface CarrierShipmentFound {
  shipmentId: string;
  reference: string;
  status: string | null;
  parcels: CarrierParcel[];
}

/** Where a carrier's API is and how to call it. */
export interface CarrierEndpoint {
  code: string;
  baseUrl: string;
  secret: string;
  timeoutMs: number;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null);

function parcelOf(value: unknown): CarrierParcel | null {
  if (!value || typeof value !== 'object') return null;
  const row = value as Record<string, unknown>;
  const parcelNo = text(row.parcelNo);
  if (!parcelNo) return null;
  return { parcelNo, parcelId: text(row.id), trackingNo: text(row.trackingNo) };
}

/**
 * The carrier adapter for the HTTP JSON API of docs/carriers.md: `Authorization: Bearer <credential>`,
 * JSON bodies, the account's time-out on every call (connecting, waiting and reading the answer).
 */
export function httpCarrier(endpoint: CarrierEndpoint): CarrierAdapter {
  const base = endpoint.baseUrl.replace(/\/+$/, '');
  const failed = (detail: string) => new AppError('CARRIER_FAILED', { carrier: endpoint.code, detail: detail.slice(0, 200) });

  async function call(method: string, path: string, options: { body?: unknown; idempotencyKey?: string; raw?: boolean } = {}): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${endpoint.secret}`, accept: options.raw ? '*/*' : 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(endpoint.timeoutMs),
        redirect: 'error',
      });
    } catch {
      throw new AppError('CARRIER_TIMEOUT', { carrier: endpoint.code });
    }
    if (!response.ok) {
      let detail = `HTTP ${response.status}`;
      try {
        const answer = (await response.json()) as { message?: unknown };
        if (typeof answer?.message === 'string') detail += `: ${answer.message}`;
      } catch {
        // An error answer without a JSON message: its status says enough.
      }
      throw failed(detail);
    }
    return response;
  }

  async function json(response: Response): Promise<Record<string, unknown>> {
    let value: unknown;
    try {
      value = await response.json();
    } catch (error) {
      if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) throw new AppError('CARRIER_TIMEOUT', { carrier: endpoint.code });
      throw failed('not a JSON answer');
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw failed('not a JSON object');
    return value as Record<string, unknown>;
  }

  return {
    async createShipmentId(shipment, idempotencyKey) {
      const answer = await json(await call('POST', '/shipments', { body: shipment, idempotencyKey }));
      const shipmentId = text(answer.id);
      if (!shipmentId) throw failed('no shipment id');
      return { shipmentId };
    },
    async addOrders(shipmentId, parcels, idempotencyKey) {
      const answer = await json(await call('POST', `/shipments/${encodeURIComponent(shipmentId)}/parcels`, { body: { parcels }, idempotencyKey }));
      const list = Array.isArray(answer.parcels) ? answer.parcels.map(parcelOf) : [];
      const byNo = new Map(list.filter((p): p is CarrierParcel => p !== null).map((p) => [p.parcelNo, p]));
      if (parcels.some((p) => !byNo.has(p.parcelNo))) throw failed('parcels missing from the answer');
      return parcels.map((p) => byNo.get(p.parcelNo) as CarrierParcel);
    },
    async findByReference(reference) {
      const answer = await json(await call('GET', `/shipments?reference=${encodeURIComponent(reference)}`));
      const list = Array.isArray(answer.shipments) ? answer.shipments : [];
      return list.flatMap((value): CarrierShipmentFound[] => {
        if (!value || typeof value !== 'object') return [];
        const row = value as Record<string, unknown>;
        const shipmentId = text(row.id);
        if (!shipmentId) return [];
        const parcels = Array.isArray(row.parcels) ? row.parcels.map(parcelOf).filter((p): p is CarrierParcel => p !== null) : [];
        return [{ shipmentId, reference: text(row.reference) ?? reference, status: text(row.status), parcels }];
      });
    },
    async label(shipmentId, format) {
      const response = await call('GET', `/shipments/${encodeURIComponent(shipmentId)}/label?format=${format}`, { raw: true });
      let body: Buffer;
      try {
        body = Buffer.from(await response.arrayBuffer());
      } catch {
        throw new AppError('CARRIER_TIMEOUT', { carrier: endpoint.code });
      }
      if (body.length === 0) throw failed('empty label');
      if (format === 'pdf' && body.subarray(0, 5).toString('latin1') !== '%PDF-') throw failed('not a PDF label');
      if (format === 'zpl' && !body.toString('utf8').includes('^XA')) throw failed('not a ZPL label');
      return { contentType: format === 'pdf' ? 'application/pdf' : 'text/plain; charset=utf-8', body };
    },
    async cancel(shipmentId) {
      await call('DELETE', `/shipments/${encodeURIComponent(shipmentId)}`);
    },
  };
}
