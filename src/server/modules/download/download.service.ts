import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { ExportRequest } from '../../../../engine/schema/api.js';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { streamInSlices } from '../../files/stored-file.js';
import { translate } from '../../http/i18n.js';
import { EXPORT_MAX_ROWS, createExportSheet, planExport, selectRows, type ExportPlan, type ExportSheet, type GenericContext } from '../generic/index.js';
import { failBackgroundFile, fileSink, finishBackgroundFile, progressOf } from './download.background.js';
import { deleteDownload, deleteExpiredDownloads, findDownload, insertDownload, listDownloads, readDownloadSlice, type DownloadInfo } from './download.repository.js';

/*
 * The download center: large exports run as background work with their progress in a row, the
 * user lists, downloads and deletes his own finished files, and files expire after a number of
 * days (the purge job). The work runs in this process once the row is committed; `BackgroundRunner`
 * is the seam where a job queue can take it over.
 */

/** Runs work after the request has been answered; failures are the work's own to record. */
export type BackgroundRunner = (name: string, work: () => Promise<void>) => void;

/** The default runner: in this process, on the next turn of the event loop. */
export function inProcessRunner(log: { error(object: unknown, message: string): void }): BackgroundRunner {
  return (name, work) => {
    setImmediate(() => {
      work().catch((error: unknown) => log.error({ err: error, work: name }, 'background work failed'));
    });
  };
}

export interface DownloadContext extends GenericContext {
  downloadDays: number;
  runner: BackgroundRunner;
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function stamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/**
 * Starts the engine's export of a page in the background (the same rights, filters and columns as
 * `/generic/export`, checked before anything is stored) and answers the new file's id at once.
 */
export async function startBackgroundExport(ctx: DownloadContext, request: ExportRequest): Promise<{ id: number }> {
  const plan = await planExport(ctx, request);
  const counted = await selectRows(ctx, { moduleCode: request.moduleCode, functionCode: request.functionCode, conditions: request.conditions, inputs: request.inputs, page: 1, pageSize: 1 });
  const rowsTotal = Math.min(counted.total, EXPORT_MAX_ROWS);
  const id = await inTransaction(ctx.db, (trx) =>
    insertDownload(trx, {
      userId: ctx.user.userId,
      projectId: ctx.user.projectId,
      kind: 'export',
      title: plan.title,
      fileName: `${request.moduleCode}-${request.functionCode}-${stamp(new Date())}.xlsx`,
      contentType: XLSX,
      rowsTotal,
      days: ctx.downloadDays,
      by: ctx.user.loginAccount,
    }),
  );
  const { db, language, log } = ctx;
  ctx.runner(`export ${id}`, () => writeExport(db, id, plan, translate(language, 'errors.EXPORT_INCOMPLETE'), log));
  return { id };
}

/** Writes the file, reporting the rows written after every batch; a failure marks the file failed. */
async function writeExport(db: Kysely<DB>, id: number, plan: ExportPlan, incompleteText: string, log: GenericContext['log']): Promise<void> {
  const sink = fileSink();
  let sheet: ExportSheet;
  try {
    sheet = await createExportSheet(plan, sink.stream);
  } catch (error) {
    log.error({ err: error, download: id }, 'background export failed');
    await failBackgroundFile(db, id, error);
    return;
  }
  let written = 0;
  // Progress is written beside the export's own read transaction, in order; on the embedded
  // database (one session) the writes wait for that transaction and are awaited before the end.
  const progress = progressOf(db, id, log);
  try {
    await plan.run(async (rows, labelOf) => {
      sheet.addRows(rows, labelOf);
      written += rows.length;
      progress.report(written);
      await new Promise((resolve) => setImmediate(resolve));
    });
  } catch (error) {
    log.error({ err: error, download: id }, 'background export failed');
    await progress.saved();
    if (written === 0) {
      await failBackgroundFile(db, id, error);
      return;
    }
    sheet.addNote(incompleteText);
  }
  await sheet.finish();
  const content = await sink.bytes;
  await progress.saved();
  await finishBackgroundFile(db, id, content, written);
}

export function listOwnDownloads(ctx: DownloadContext): Promise<DownloadInfo[]> {
  return listDownloads(ctx.db, ctx.user.userId);
}

/** A finished file of the caller, streamed from the database a slice at a time. */
export async function openOwnDownload(ctx: DownloadContext, id: number): Promise<{ info: DownloadInfo; stream: Readable }> {
  const info = await findDownload(ctx.db, id, ctx.user.userId);
  if (!info) throw new AppError('NO_RECORD');
  if (info.status !== 'done' || info.sizeBytes === null) throw new AppError('DOWNLOAD_NOT_READY');
  const db = ctx.db;
  return { info, stream: streamInSlices(info.sizeBytes, (offset, length) => readDownloadSlice(db, id, offset, length)) };
}

export async function deleteOwnDownload(ctx: DownloadContext, id: number): Promise<number> {
  const deleted = await inTransaction(ctx.db, (trx) => deleteDownload(trx, id, ctx.user.userId));
  if (deleted === 0) throw new AppError('NO_RECORD');
  return deleted;
}

/** The purge job: removes every expired file of every user. */
export function purgeExpiredDownloads(db: Kysely<DB>): Promise<number> {
  return inTransaction(db, (trx) => deleteExpiredDownloads(trx));
}
