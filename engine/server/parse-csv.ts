/**
 * Parses CSV text (RFC 4180: quoted fields, doubled quotes, CR/LF line ends, a leading BOM) into
 * rows of cells. A quote left open is reported rather than guessed at.
 */
export function parseCsv(text: string, delimiter = ','): { rows: string[][]; error?: string } {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let sawAny = false;
  for (; i < text.length; i += 1) {
    const ch = text[i];
    sawAny = true;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 1;
        } else {
          quoted = false;
        }
      } else {
        cell += ch;
      }
    } else if (ch === '"' && cell === '') {
      quoted = true;
    } else if (ch === delimiter) {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      sawAny = false;
    } else {
      cell += ch;
    }
  }
  if (quoted) return { rows, error: 'unterminated quoted field' };
  if (sawAny || cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return { rows };
}
