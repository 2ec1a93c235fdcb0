import { api, download } from '../../app/public';
import type { FieldError } from '../../common/errors';
import type { JsonChange } from '../../common/designer/stable-json';
import type {
  CopyReport,
  DefinitionFile,
  ImportItem,
  PageDetail as SharedPageDetail,
  PageKey,
  PageSummary,
  SqlTestResult,
  VersionInfo,
  VersionStatus,
} from '../../common/designer/api-types';
import type { PageDefinition } from '../../../engine/schema/index.js';

/** The designer's calls (src/server/modules/designer/designer.routes.ts); shapes in src/common/designer. */
export type { CopyReport, DefinitionFile, ImportItem, PageKey, PageSummary, SqlTestResult, VersionInfo, VersionStatus };
export type PageDetail = SharedPageDetail<PageDefinition>;

/** One line of the designer's audit trail: who did what to which page, when. */
export interface AuditEntry {
  id: number;
  at: string;
  login_account: string;
  action: string;
  module_code: string | null;
  function_code: string | null;
  version: number | null;
  details: unknown;
}

export const designerApi = {
  modules: () => api<{ modules: Array<{ moduleCode: string; pages: number }> }>('/generic/modules'),
  audit: (filter: { moduleCode?: string; functionCode?: string; limit?: number }) => api<{ entries: AuditEntry[] }>('/generic/audit', { query: filter }),
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
