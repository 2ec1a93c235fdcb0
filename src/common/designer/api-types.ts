/**
 * Shapes of the designer's calls (src/server/modules/designer/designer.routes.ts), shared by the
 * server that answers them and the designer screens that read them.
 */
import type { FieldError } from '../errors';

export interface PageKey {
  moduleCode: string;
  functionCode: string;
}

/** The statuses of a stored version (spec section 4). */
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
