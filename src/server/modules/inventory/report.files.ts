import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { createBackgroundFile, produceBackgroundFile } from '../download/index.js';
import { CONTENT_TYPES, renderReport, type ReportFormat, type ReportPlan } from './report.service.js';

type Log = { error(object: unknown, message: string): void; warn(object: unknown, message: string): void };

function stamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

export interface ReportFileOwner {
  userId: number;
  projectId: number | null;
  by: string;
}

/** Stores a planned report's file in the owner's download center, running; answers its id. */
export function createReportFile(db: Kysely<DB>, owner: ReportFileOwner, plan: ReportPlan, format: ReportFormat, days: number): Promise<number> {
  return createBackgroundFile(db, {
    userId: owner.userId,
    projectId: owner.projectId,
    kind: 'report',
    title: plan.title,
    fileName: `${plan.fileBase}-${stamp(new Date())}.${format}`,
    contentType: CONTENT_TYPES[format],
    rowsTotal: plan.total,
    days,
    by: owner.by,
  });
}

/** Writes the report into its stored file, with progress; a failure marks the file failed. */
export function writeReportFile(db: Kysely<DB>, id: number, plan: ReportPlan, format: ReportFormat, log: Log) {
  return produceBackgroundFile(db, id, (progress) => renderReport(plan, format, progress), log);
}
