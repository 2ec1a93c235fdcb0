import { PassThrough } from 'node:stream';
import type { Kysely } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { failDownload, finishDownload, insertDownload, setProgress, type NewDownload } from './download.repository.js';

/*
 * Files of the download center written in the background: the engine's exports (download.service.ts)
 * and what other areas produce (the transaction log, the balance reports, scheduled reports). The
 * row is stored first, running, then the file is written, reporting the rows written as it goes,
 * and the row ends done with the bytes or failed with a code.
 */

export type NewBackgroundFile = NewDownload;

/** Reports the rows written so far. */
export type ProgressReport = (rowsWritten: number) => void;

/** Writes the file's bytes; throws to fail it. */
export type FileProducer = (progress: ProgressReport) => Promise<{ content: Buffer; rows: number }>;

type Log = { error(object: unknown, message: string): void; warn(object: unknown, message: string): void };

/** Stores the file's row, running, for its user; answers its id. */
export function createBackgroundFile(db: Kysely<DB>, file: NewBackgroundFile): Promise<number> {
  return inTransaction(db, (trx) => insertDownload(trx, file));
}

/**
 * The rows written so far, saved beside the producer's own reads, in order (on the embedded
 * database, with one session, the writes queue behind the reads); `saved` is awaited before the
 * file ends. A progress that cannot be saved is only logged.
 */
export function progressOf(db: Kysely<DB>, id: number, log: Pick<Log, 'warn'>): { report: ProgressReport; saved(): Promise<void> } {
  let progress: Promise<void> = Promise.resolve();
  return {
    report(rows) {
      progress = progress.then(() => inTransaction(db, (trx) => setProgress(trx, id, rows))).catch((error: unknown) => log.warn({ err: error }, 'download progress not saved'));
    },
    saved: () => progress,
  };
}

/** Ends the file done, with its bytes and the rows written. */
export function finishBackgroundFile(db: Kysely<DB>, id: number, content: Buffer, rows: number): Promise<void> {
  return inTransaction(db, (trx) => finishDownload(trx, id, content, rows));
}

/** Ends the file failed with the error's code (INTERNAL for what is no AppError); answers the code. */
export async function failBackgroundFile(db: Kysely<DB>, id: number, error: unknown): Promise<string> {
  const code = error instanceof AppError ? error.code : 'INTERNAL';
  await inTransaction(db, (trx) => failDownload(trx, id, code));
  return code;
}

/** A stream to write a file into, and its bytes once the stream has ended. */
export function fileSink(): { stream: PassThrough; bytes: Promise<Buffer> } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const bytes = new Promise<Buffer>((resolve, reject) => {
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
  return { stream, bytes };
}

/**
 * Produces a stored file: progress is written beside the producer's own reads and awaited before
 * the end. Answers the outcome; a failure is recorded on the file, never thrown.
 */
export async function produceBackgroundFile(
  db: Kysely<DB>,
  id: number,
  produce: FileProducer,
  log: Log,
): Promise<{ ok: true; rows: number; size: number } | { ok: false; code: string }> {
  const progress = progressOf(db, id, log);
  try {
    const { content, rows } = await produce(progress.report);
    await progress.saved();
    await finishBackgroundFile(db, id, content, rows);
    return { ok: true, rows, size: content.length };
  } catch (error) {
    await progress.saved();
    log.error({ err: error, download: id }, 'background file failed');
    return { ok: false, code: await failBackgroundFile(db, id, error) };
  }
}
