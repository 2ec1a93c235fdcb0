import type { Id, Audit } from '../../db/schema.js';

/** The tables of the attachment area; its migration 0080 creates them. */
declare module '../../db/schema.js' {
  interface DB {
    attachment: AttachmentTable;
  }
}

/**
 * A file attached to one record of one page definition, within one
 * project. The user's file name is only a label: the bytes live in `content`, never on a path
 * made from it.
 */
export interface AttachmentTable extends Audit {
  id: Id;
  /** The project the record belongs to (the session's when it was uploaded); null for pages without project. */
  project_id: number | null;
  module_code: string;
  function_code: string;
  /** The record's key (`_key` of the engine), as text. */
  record_key: string;
  file_name: string;
  remark: string | null;
  /** Detected from the content, never from the name. */
  content_type: string;
  size_bytes: number;
  sha256: string;
  content: Buffer;
}
