import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { apiCall, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';

interface JobRow {
  id: number;
  printerName: string;
  status: string;
  attempts: number;
  errorCode: string | null;
}

/** A port nothing listens on: taken from the system, then given back. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The print queue in Chromium: a test label queued on a printer that is off is retried until it
 * failed, the queue lists it with the error in the user's language, and once a printer (a local
 * listener) answers on that port, retry of the selected job in the screen sends it.
 */
describe('the print queue screen', () => {
  const ctx = useServerAndBrowser();

  it('lists a failed job, shows its ZPL, and sends it on retry once the printer listens', async () => {
    const { server, browser } = ctx;
    const token = await apiSignIn(server);
    const call = <T>(path: string, body?: unknown) => apiCall<T>(server, token, path, body);
    const port = await closedPort();
    const name = `E2E-PQ-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    const printer = (await call<{ row: { _key: number } }>('/generic/adding', { moduleCode: 'printing', functionCode: 'printer', record: { name, ip: '127.0.0.1', port, printer_type: 'raw_zpl' } })).row._key;
    await call('/generic/behavior', { moduleCode: 'printing', functionCode: 'printer', behaviour: 'testLabel', keys: [printer] });
    const job = (await call<JobRow[]>('/print/job?limit=500')).find((j) => j.printerName === name);
    expect(job).toBeDefined();
    // The printer is off: each retry counts an attempt, and after ten the job is failed.
    for (let attempt = 0; attempt < 10; attempt += 1) await call('/print/job/retry', { ids: [job!.id] });
    expect((await call<JobRow[]>('/print/job?limit=500')).find((j) => j.id === job!.id)).toMatchObject({ status: 'failed', attempts: 10, errorCode: 'PRINTER_UNAVAILABLE' });

    const page = await signedInPage(browser, server, '/page/printJob');
    const row = page.getByTestId(`print-job-${job!.id}`);
    await row.waitFor({ timeout: 60_000 });
    expect(await page.getByTestId(`print-job-status-${job!.id}`).getAttribute('data-status')).toBe('failed');
    expect(await row.innerText()).toContain('The printer is not available or the connection failed.');
    // The scan field has the focus: a reference scanned and Enter keeps only that job's row.
    await eventually(() => page.evaluate(() => document.activeElement?.closest('[data-testid="print-queue-scan"]') !== null || document.activeElement?.getAttribute('data-testid') === 'print-queue-scan')).toBe(true);

    await page.getByTestId(`print-job-document-${job!.id}`).click();
    await eventually(() => page.getByTestId('print-job-zpl').innerText()).toContain('^XA');
    await page.keyboard.press('Escape');
    await page.getByTestId('print-job-zpl').waitFor({ state: 'hidden' });

    const received: string[] = [];
    const listener = net.createServer((socket) => {
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'));
        socket.end();
      });
    });
    await new Promise<void>((resolve) => listener.listen(port, '127.0.0.1', resolve));
    try {
      await row.locator('.ant-checkbox-input').check();
      await page.getByTestId('print-queue-retry').click();
      const confirm = page.locator('.wms-popup-confirm.wms-popup-top');
      expect(await confirm.innerText()).toContain('Send 1 print job(s) to their printer again now?');
      await confirm.locator('.wms-popup-ok').click();
      await eventually(() => page.getByTestId(`print-job-status-${job!.id}`).getAttribute('data-status')).toBe('sent');
      await eventually(() => page.getByTestId('print-queue-notice').innerText()).toContain('1 of 1 job(s) sent.');
      await eventually(() => received.length).toBe(1);
      expect(received[0]).toMatch(/^\^XA[\s\S]*\^XZ\s*$/);
      expect(received[0]).toContain('^FDORDER: TEST^FS');
    } finally {
      await new Promise<void>((resolve) => listener.close(() => resolve()));
      await page.context().close();
    }
  });
});
