/**
 * The public entry of the attachment area: what other areas may use of it. Another area imports this
 * file and nothing else of the folder (lint: local/import-boundaries).
 */
export type { AttachmentInfo, RecordRef } from './attachment.repository.js';
export { attachFiles, attachmentStream } from './attachment.service.js';
export { attachmentMultipartLimits, readPlacedUpload, readUploadWithinLimit, refuseOverLimit } from './attachment.upload.js';
export type { UploadedFile } from './attachment.upload.js';
