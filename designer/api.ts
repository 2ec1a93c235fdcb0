import { api, download } from '../src/app/public';
import type { FieldError } from '../src/common/errors';
import type { JsonChange } from '../src/common/designer/stable-json';
import type {
  PageDetail as SharedPageDetail,
  PageKey,
  PageSummary,
  VersionInfo,
  VersionStatus,
} from '../src/common/designer/api-types';
import type { PageDefinition } from '../engine/schema/index.js';

/** The designer's calls (src/server/modules/designer/designer.routes.ts); shapes in src/common/designer. */
export type { PageKey, PageSummary, VersionInfo, VersionStatus };
export type PageDetail = SharedPageDetail<PageDefinition>;

export interface CopyReport {
  pages: Array<{ projectCode: string; from: PageKey; to: PageKey; version: number; status: 'draft' | 'published'; replacedDraft: boolean }>;
  remapped: Array<{ projectCode: string; page: PageKey; path: string; from: string; to: string }>;
  unresolved: Array<{ projectCode: string; page: PageKey; path: string; reference: string; reason: string }>;
}

export interface DefinitionFile {
  path: string;
  content: string;
}

export interface ImportItem {
  path: string;
  moduleCode: string | null;
  functionCode: string | null;
  action: 'add' | 'change' | 'unchanged' | 'invalid';
  changes: JsonChange[];
  problems: FieldError[];
  version?: number;
}

export interface SqlTestResult {
  ok: boolean;
  columns: string[];
  rows: Record<string, unknown>[];
  error?: string;
  errorCode?: string;
}

export const designerApi = {
  pages: (moduleCode?: string) => api<{ pages: PageSummary[] }>('/generic/module', { query: { moduleCode } }),
  page: (key: PageKey) => api<PageDetail>('/generic/page', { query: { ...key } }),
  version: (key: PageKey, version: number, shipped = false) =>
    api<{ version: number; status: VersionStatus; content: PageDefinition }>('/generic/version', { query: { ...key, version, shipped } }),
  diff: (key: PageKey, left: number, right: number) =>
    api<{ left: unknown; right: unknown; changes: JsonChange[] }>('/generic/diff', { query: { ...key, left, right } }),
  saveDraft: (key: PageKey, content: unknown) =>
    api<{ version: number; problems: FieldError[] }>('/generic/draft', { method: 'PUT', body: { ...key, content }, quiet: true }),
  publish: (key: PageKey, menu?: { parentCode: string }) => api<{ version: number }>('/generic/publish', { body: { ...key, menu }, quiet: true }),
  /** One named version; a version already published or inactive is refused with the server's popup. */
  publishVersion: (key: PageKey, version: number) => api<{ version: number }>('/generic/publish', { body: { ...key, version } }),
  rollback: (key: PageKey, version: number) => api<{ version: number }>('/generic/rollback', { body: { ...key, version } }),
  deactivate: (key: PageKey) => api<{ version: number }>('/generic/status', { body: { ...key, status: 'inactive' } }),
  deleteDraft: (key: PageKey, version: number) => api<{ ok: true }>('/generic/deletion/header', { body: { ...key, version } }),
  copy: (from: PageKey, to: PageKey, options: { withSubPages: boolean; publish: boolean }) =>
    api<CopyReport>('/generic/copy', { body: { from, to, ...options } }),
  copyToProjects: (pages: PageKey[], projectCodes: string[], options: { withSubPages: boolean; publish: boolean }) =>
    api<CopyReport>('/generic/copyToProjectList', { body: { pages, projectCodes, ...options } }),
  copyToNewProject: (pages: PageKey[], projectCode: string, projectName: string, options: { withSubPages: boolean; publish: boolean }) =>
    api<CopyReport>('/generic/copyToNewProject', { body: { pages, projectCode, projectName, ...options } }),
  clearCache: () => api<{ ok: true }>('/generic/redis/clear', { body: {} }),
  exportDefinitions: (body: { pages?: PageKey[]; includeShipped?: boolean }) =>
    api<{ files: DefinitionFile[]; projectCode: string }>('/generic/definitions/export', { body }),
  importDefinitions: (files: DefinitionFile[], dryRun: boolean) =>
    api<{ dryRun: boolean; items: ImportItem[] }>('/generic/definitions/import', { body: { files, dryRun }, quiet: true }),
  testSql: (body: { name: string; text: string; mode?: 'read' | 'write'; inputs?: Record<string, string | null> }) =>
    api<SqlTestResult>('/generic/sql/test', { body }),
  projects: () => api<{ options: Array<{ value: string; label: string }> }>('/generic/dropdown/project'),
  menuGroups: () => api<{ groups: Array<{ code: string; titleKey: string }> }>('/generic/menu/groups'),
};

export { download };
