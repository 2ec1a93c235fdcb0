/**
 * The type of an uploaded file, read from its first bytes (its "magic number"), never from its
 * name or from what the browser claims: a small table of the signatures the product meets (images,
 * PDF, zip and the Office files inside zip, plain text and CSV).
 */
export interface DetectedType {
  contentType: string;
  extension: string;
}

const SIGNATURES: Array<{ bytes: Array<number | null>; offset?: number; type: DetectedType }> = [
  { bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], type: { contentType: 'image/png', extension: 'png' } },
  { bytes: [0xff, 0xd8, 0xff], type: { contentType: 'image/jpeg', extension: 'jpg' } },
  { bytes: [...Buffer.from('GIF87a')], type: { contentType: 'image/gif', extension: 'gif' } },
  { bytes: [...Buffer.from('GIF89a')], type: { contentType: 'image/gif', extension: 'gif' } },
  // RIFF....WEBP
  { bytes: [0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50], type: { contentType: 'image/webp', extension: 'webp' } },
  { bytes: [...Buffer.from('%PDF-')], type: { contentType: 'application/pdf', extension: 'pdf' } },
];

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OCTET: DetectedType = { contentType: 'application/octet-stream', extension: 'bin' };

function startsWith(data: Buffer, bytes: Array<number | null>, offset = 0): boolean {
  if (data.length < offset + bytes.length) return false;
  return bytes.every((byte, i) => byte === null || data[offset + i] === byte);
}

/** Office documents are zip files whose entries name their kind (`xl/` for a workbook). */
function zipKind(data: Buffer): DetectedType {
  const head = data.subarray(0, Math.min(data.length, 1 << 20)).toString('latin1');
  if (head.includes('xl/workbook.xml') || (head.includes('[Content_Types].xml') && head.includes('xl/'))) {
    return { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extension: 'xlsx' };
  }
  if (head.includes('word/document.xml')) return { contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', extension: 'docx' };
  return { contentType: 'application/zip', extension: 'zip' };
}

function isText(sample: Buffer): boolean {
  if (sample.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample);
    return true;
  } catch {
    // A multi-byte character cut at the end of the sample is still text.
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(sample.subarray(0, Math.max(0, sample.length - 3)));
      return sample.length > 3;
    } catch {
      return false;
    }
  }
}

/** Several lines with the same number (above zero) of one separator: comma, semicolon or tab. */
function looksLikeCsv(text: string): boolean {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '').slice(0, 20);
  if (lines.length < 2) return false;
  return [',', ';', '\t'].some((separator) => {
    const counts = lines.map((line) => line.split(separator).length - 1);
    return counts[0] > 0 && counts.every((count) => count === counts[0]);
  });
}

export function detectFileType(data: Buffer): DetectedType {
  for (const signature of SIGNATURES) if (startsWith(data, signature.bytes, signature.offset)) return signature.type;
  if (startsWith(data, ZIP)) return zipKind(data);
  const sample = data.subarray(0, 8192);
  if (data.length > 0 && isText(sample)) {
    return looksLikeCsv(sample.toString('utf8')) ? { contentType: 'text/csv', extension: 'csv' } : { contentType: 'text/plain', extension: 'txt' };
  }
  return OCTET;
}

/** Types the preview screen shows (`/previewImgFile`): images and PDF. */
export function isPreviewable(contentType: string): boolean {
  return ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf'].includes(contentType);
}
