import type { Kysely } from 'kysely';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { failDownload, finishDownload, insertDownload, setProgress } from './download.repository.js';

/*
 * Files of the download center that other areas produce (the transaction log, the balance reports,
 * scheduled reports): the row is stored first, running, then the area's producer writes the file,
 * reporting the rows written as it goes, and the row ends done with the bytes or failed with a code.
 */

export interface NewBackgroundFile {
  userId: number;
  projectId: number | null;
  kind: string;
  title: string;
  fileName: string;
  contentType: string;
  rowsTotal: number | null;
  days: number;
  by: string;
}

/** Reports the rows written so far. */
export type ProgressReport = (rowsWritten: number) => void;

/** Writes the file's bytes; throws to fail it. */
export type FileProducer = (progress: ProgressReport) => Promise<{ content: Buffer; rows: number }>;

/** Stores the file's row, running, for its user; answers its id. */
export function createBackgroundFile(db: Kysely<DB>, file: NewBackgroundFile): Promise<number> {
  return inTransaction(db, (trx) => insertDownload(trx, file));
}

/**
 * Produces a stored file: progress is written beside the producer's own reads, in order, and
 * awaited before the end (on the embedded database, with one session, the writes queue behind the
 * reads). Answers the outcome; a failure is recorded on the file, never thrown.
 */
export async function produceBackgroundFile(
  db: Kysely<DB>,
  id: number,
  produce: FileProducer,
  log: { error(object: unknown, message: string): void; warn(object: unknown, message: string): void },
): Promise<{ ok: true; rows: number; size: number } | { ok: false; code: string }> {
  let progress: Promise<void> = Promise.resolve();
  const report: ProgressReport = (rows) => {
    progress = progress.then(() => setProgress(db, id, rows)).catch((error: unknown) => log.warn({ err: error }, 'download progress not saved'));
  };
  try {
    const { content, rows } = await produce(report);
    await progress;
    await inTransaction(db, (trx) => finishDownload(trx, id, content, rows));
    return { ok: true, rows, size: content.length };
  } catch (error) {
    await progress;
    log.error({ err: error, download: id }, 'background file failed');
    const code = error instanceof AppError ? error.code : 'INTERNAL';
    await inTransaction(db, (trx) => failDownload(trx, id, code));
    return { ok: false, code };
  }
}
