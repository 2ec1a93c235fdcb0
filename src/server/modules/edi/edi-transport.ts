import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** How long handing one message to its endpoint may take. */
export const EDI_SEND_TIMEOUT_MS = 10_000;

/**
 * Hands an interchange to its endpoint: an http(s) URL gets it as the body of a POST (answered
 * with a 2xx status, within `timeoutMs`), a folder gets it as a file `<fileName>`, written under a
 * temporary name first so that a reader never sees half of it. Rejects with what went wrong.
 */
export async function deliver(endpoint: string, fileName: string, content: Uint8Array, contentType: string, timeoutMs = EDI_SEND_TIMEOUT_MS): Promise<void> {
  if (/^https?:\/\//i.test(endpoint)) {
    let response: Response;
    try {
      response = await fetch(endpoint, { method: 'POST', body: new Uint8Array(content), headers: { 'content-type': contentType }, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    } catch (error) {
      const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : ((error as Error & { cause?: Error }).cause?.message ?? (error as Error).message);
      throw new Error(`${endpoint}: ${reason}`);
    }
    const answer = (await response.text().catch(() => '')).slice(0, 200);
    if (!response.ok) throw new Error(`${endpoint} answered ${response.status}${answer ? `: ${answer}` : ''}`);
    return;
  }
  if (!endpoint.startsWith('/')) throw new Error(`endpoint "${endpoint}" is neither an http(s) URL nor an absolute folder path`);
  await mkdir(endpoint, { recursive: true });
  const target = join(endpoint, fileName);
  const temporary = `${target}.part`;
  await writeFile(temporary, content);
  await rename(temporary, target);
}
