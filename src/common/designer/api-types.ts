/**
 * Shapes of the designer's calls (src/server/modules/designer/designer.routes.ts), shared by the
 * server that answers them and the designer screens that read them.
 */
import type { FieldError } from '../errors';
import type { JsonChange } from './stable-json';

export interface PageKey {
  moduleCode: string;
  functionCode: string;
}

/** The statuses of a stored version. */
export type VersionStatus = 'draft' | 'published' | 'inactive';

/** A page as the designer lists it: which versions the project has, and the shipped default. */
export interface PageSummary extends PageKey {
  titleCode: string | null;
  startup: boolean;
  /** The shipped default's published version, if the product ships this page. */
  shippedVersion: number | null;
  publishedVersion: number | null;
  draftVersion: number | null;
  latestVersion: number | null;
  updatedAt: string | null;
  updatedBy: string | null;
}

export interface VersionInfo {
  version: number;
  status: VersionStatus;
  contentHash: string;
  createdAt: string;
  createdBy: string | null;
  updatedAt: string;
  updatedBy: string | null;
}

/** One page with its versions; `Content` is the page definition as the reader types it. */
export interface PageDetail<Content = unknown> extends PageKey {
  versions: VersionInfo[];
  shipped: { version: number; content: Content } | null;
  /** What the designer opens: the draft, else the published version, else the shipped default. */
  working: { source: 'draft' | 'published' | 'shipped'; version: number; content: Content } | null;
  /** Problems the validator finds in the working content (a draft may be saved with problems). */
  problems: FieldError[];
}

/** A page a copy wrote. */
export interface CopiedPage {
  projectCode: string;
  from: PageKey;
  to: PageKey;
  version: number;
  status: 'draft' | 'published';
  /** The target already had a draft of this page; the copy replaced it. */
  replacedDraft: boolean;
}

/** A reference inside a copied page that now points elsewhere. */
export interface RemappedReference {
  projectCode: string;
  page: PageKey;
  path: string;
  from: string;
  to: string;
}

/** A reference the copy could not make good in the target: the report says where and why. */
export interface UnresolvedReference {
  projectCode: string;
  page: PageKey;
  path: string;
  reference: string;
  reason: 'missingPage' | 'missingText' | 'startupCleared';
}

/** The answer of every copy: what was written, what was remapped, what points at nothing. */
export interface CopyReport {
  pages: CopiedPage[];
  remapped: RemappedReference[];
  unresolved: UnresolvedReference[];
}

/** One file of a definition export or import. */
export interface DefinitionFile {
  /** `<module>/<function>.page.json` */
  path: string;
  /** The definition as canonical JSON (sorted keys, two-space indent, trailing newline). */
  content: string;
}

export type ImportAction = 'add' | 'change' | 'unchanged' | 'invalid';

/** What an import does (or, on a dry run, would do) with one file. */
export interface ImportItem {
  path: string;
  moduleCode: string | null;
  functionCode: string | null;
  action: ImportAction;
  /** What would change against what the project resolves to now. */
  changes: JsonChange[];
  problems: FieldError[];
  /** The version published by the import (not on a dry run). */
  version?: number;
}

/** A test run of a named SQL: its first rows, or why it did not run. */
export interface SqlTestResult {
  ok: boolean;
  columns: string[];
  rows: Record<string, unknown>[];
  error?: string;
  errorCode?: string;
}
