import type { PGlite } from '@electric-sql/pglite';

/**
 * A PGlite data directory dump that loads in a fraction of the time of a plain `dumpDataDir`: every
 * test file loads one, and loading costs CPU in proportion to its size. A plain dump holds the
 * databases template0 and template1 (no test creates a database on PGlite) and 16 MB files of
 * write-ahead log, of which a restart needs only the segment with the last checkpoint, and of that
 * only the pages up to the checkpoint record.
 *
 * `dropTemplateDatabases` runs once on a new cluster; `compactDump` then dumps it: the log switches
 * to a new segment, a checkpoint is written at its start, and the tar keeps that one segment cut
 * after the checkpoint record. PostgreSQL reads the log from the checkpoint on and finds its end at
 * the first page that is missing; it writes the log on from there, growing the file as it goes.
 */
export async function dropTemplateDatabases(pglite: PGlite): Promise<void> {
  for (const name of ['template0', 'template1']) {
    await pglite.exec(`alter database ${name} with is_template false`);
    await pglite.exec(`drop database ${name}`);
  }
}

/** WAL pages are 8 KiB; one page more than the insert position is kept, which PostgreSQL reads as empty. */
const WAL_PAGE = 8192;
const WAL_SEGMENT = 16 * 1024 * 1024;

export async function compactDump(pglite: PGlite): Promise<Uint8Array> {
  await pglite.exec('select pg_switch_wal()');
  await pglite.exec('checkpoint');
  const { rows } = await pglite.query<{ redo: string; last: string; offset: string }>(
    `select redo_wal_file as redo, pg_walfile_name(pg_current_wal_insert_lsn()) as last,
            ((pg_current_wal_insert_lsn() - '0/0'::pg_lsn) % ${WAL_SEGMENT})::text as offset
       from pg_control_checkpoint()`,
  );
  const { redo, last, offset } = rows[0];
  const lastLength = Math.min(WAL_SEGMENT, (Math.ceil(Number(offset) / WAL_PAGE) + 1) * WAL_PAGE);
  const tar = new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer());
  return rewriteTar(tar, (name, size) => {
    const segment = /pg_wal\/([0-9A-F]{24})$/.exec(name)?.[1];
    if (!segment) return size;
    if (segment < redo || segment > last) return undefined;
    return segment === last ? Math.min(size, lastLength) : size;
  });
}

/**
 * Copies a ustar archive entry by entry: `keep` answers how many bytes of an entry's data to keep
 * (its size to keep it whole, fewer to cut it) or undefined to leave the entry out.
 */
export function rewriteTar(tar: Uint8Array, keep: (name: string, size: number) => number | undefined): Uint8Array {
  const text = (from: number, length: number) => new TextDecoder().decode(tar.subarray(from, from + length)).replace(/\0.*$/s, '');
  const parts: Uint8Array[] = [];
  let at = 0;
  while (at + 512 <= tar.length && tar.subarray(at, at + 512).some((byte) => byte !== 0)) {
    const prefix = text(at + 345, 155);
    const name = prefix ? `${prefix}/${text(at, 100)}` : text(at, 100);
    const size = parseInt(text(at + 124, 12).trim() || '0', 8);
    const kept = keep(name, size);
    if (kept !== undefined) {
      const header = tar.slice(at, at + 512);
      if (kept !== size) header.set(new TextEncoder().encode(`${kept.toString(8).padStart(11, '0')}\0`), 124);
      // The checksum is the sum of the header's bytes with its own field read as spaces.
      header.fill(0x20, 148, 156);
      const sum = header.reduce((total, byte) => total + byte, 0);
      header.set(new TextEncoder().encode(`${sum.toString(8).padStart(6, '0')}\0 `), 148);
      parts.push(header, tar.subarray(at + 512, at + 512 + kept), new Uint8Array((512 - (kept % 512)) % 512));
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
  parts.push(new Uint8Array(1024));
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
