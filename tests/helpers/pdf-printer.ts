import net from 'node:net';

/**
 * A local listener playing a raw printer on TCP: every connection is one document, kept in
 * `received` as `decode` reads it; `documents(n)` answers once n documents have arrived.
 */
export async function tcpPrinter<T>(decode: (document: Buffer) => T) {
  const received: T[] = [];
  const waiting: { count: number; resolve: (docs: T[]) => void }[] = [];
  const server = net.createServer((socket) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => {
      received.push(decode(Buffer.concat(chunks)));
      socket.end();
      for (const w of waiting.filter((w) => received.length >= w.count)) w.resolve([...received]);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    received,
    documents: (count: number) => (received.length >= count ? Promise.resolve([...received]) : new Promise<T[]>((resolve) => waiting.push({ count, resolve }))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A PDF printer: the documents as they arrived. */
export const pdfPrinter = () => tcpPrinter((document) => document);

/** A label printer taking ZPL: the documents as text. */
export const zplPrinter = () => tcpPrinter((document) => document.toString('utf8'));
