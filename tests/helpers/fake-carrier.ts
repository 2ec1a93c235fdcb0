import http from 'node:http';
import type net from 'node:net';

/**
 * A parcel carrier's HTTP JSON API (docs/carriers.md) on a local port, for tests: it books
 * shipments, registers parcels, finds by reference, hands out labels and cancels. `mode` makes it
 * answer 500 to everything (`fail`) or never answer (`hang`); `calls` lists what it was asked.
 */
export interface FakeCarrier {
  url: string;
  mode: 'ok' | 'fail' | 'hang';
  calls: Array<{ method: string; path: string; body: unknown; key: string | null; auth: string | null }>;
  shipments: Map<string, { id: string; reference: string; status: string; parcels: Array<{ parcelNo: string; id: string; trackingNo: string }> }>;
  close(): Promise<void>;
}

export async function startFakeCarrier(): Promise<FakeCarrier> {
  const sockets = new Set<net.Socket>();
  const byKey = new Map<string, unknown>();
  let next = 1;
  const fake: FakeCarrier = { url: '', mode: 'ok', calls: [], shipments: new Map(), close: async () => undefined };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://carrier');
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
      const key = (request.headers['idempotency-key'] as string | undefined) ?? null;
      fake.calls.push({ method: request.method ?? '', path: url.pathname + url.search, body, key, auth: request.headers.authorization ?? null });
      if (fake.mode === 'hang') return; // never answers
      const send = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      if (fake.mode === 'fail') return send(500, { message: 'carrier is down' });
      if (key && byKey.has(key)) return send(200, byKey.get(key));
      const parts = url.pathname.split('/').filter(Boolean);
      if (request.method === 'POST' && parts.length === 1 && parts[0] === 'shipments') {
        const id = `CS${String(next++).padStart(6, '0')}`;
        fake.shipments.set(id, { id, reference: typeof body?.reference === 'string' ? body.reference : '', status: 'booked', parcels: [] });
        const answer = { id };
        if (key) byKey.set(key, answer);
        return send(201, answer);
      }
      const shipment = parts[0] === 'shipments' && parts[1] ? fake.shipments.get(decodeURIComponent(parts[1])) : undefined;
      if (request.method === 'GET' && parts.length === 1 && parts[0] === 'shipments') {
        const reference = url.searchParams.get('reference');
        return send(200, { shipments: [...fake.shipments.values()].filter((s) => s.reference === reference) });
      }
      if (!shipment) return send(404, { message: 'no such shipment' });
      if (request.method === 'POST' && parts[2] === 'parcels') {
        const added = ((body?.parcels as Array<{ parcelNo: string }>) ?? []).map((p) => ({ parcelNo: p.parcelNo, id: `P${next++}`, trackingNo: `TRK${next++}` }));
        shipment.parcels.push(...added);
        const answer = { parcels: added };
        if (key) byKey.set(key, answer);
        return send(200, answer);
      }
      if (request.method === 'GET' && parts[2] === 'label') {
        const zpl = url.searchParams.get('format') === 'zpl';
        response.writeHead(200, { 'content-type': zpl ? 'text/plain' : 'application/pdf' });
        return response.end(zpl ? `^XA^FO50,50^FD${shipment.id}^FS^XZ` : `%PDF-1.4\n% label ${shipment.id}\n%%EOF\n`);
      }
      if (request.method === 'DELETE' && parts.length === 2) {
        shipment.status = 'cancelled';
        response.writeHead(204);
        return response.end();
      }
      return send(404, { message: 'unknown call' });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return fake;
}
