import net from 'node:net';

/**
 * A local listener playing a PDF printer on TCP: every connection is one document, kept in
 * `received`; `documents(n)` answers once n documents have arrived.
 */
export async function pdfPrinter() {
  const received: Buffer[] = [];
  const waiting: { count: number; resolve: (docs: Buffer[]) => void }[] = [];
  const server = net.createServer((socket) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => {
      received.push(Buffer.concat(chunks));
      socket.end();
      for (const w of waiting.filter((w) => received.length >= w.count)) w.resolve([...received]);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    received,
    documents: (count: number) => (received.length >= count ? Promise.resolve([...received]) : new Promise<Buffer[]>((resolve) => waiting.push({ count, resolve }))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
