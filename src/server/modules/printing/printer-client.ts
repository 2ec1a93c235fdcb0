import net from 'node:net';

/** How long connecting to a printer and handing it a document may take, in all. */
export const PRINTER_TIMEOUT_MS = 3000;

/**
 * Sends a document to a printer's raw port (9100 for most): connects, writes the bytes, closes
 * its side and resolves once the bytes are handed to the network. Rejects when the printer refuses
 * the connection, or when connecting and writing take longer than `timeoutMs` (a printer that is
 * off, or one that takes nothing more).
 */
export function sendRaw(host: string, port: number, payload: Uint8Array, timeoutMs = PRINTER_TIMEOUT_MS): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const socket = net.connect({ host, port });
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        socket.destroy();
        reject(error);
      } else {
        socket.destroy();
        resolve();
      }
    };
    const timer = setTimeout(() => finish(new Error(`printer ${host}:${port} did not take the document within ${timeoutMs} ms`)), timeoutMs);
    socket.once('error', (error) => finish(error));
    socket.once('connect', () => {
      socket.end(payload, () => finish());
    });
  });
}
