import type { Transaction } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { findMenuEntryId, insertMenuEntry, nextSequenceInGroup, updateMenuEntry } from './menu.repository.js';

export interface MenuEntry {
  /** The entry's code, which is also the module code its `<code>:view` right names. */
  code: string;
  /** The menu group it is listed under. */
  parentCode: string;
  titleKey: string;
  route: string;
  /** Its place in the group; left out, an existing entry keeps its place and a new one comes last. */
  sequence: number | undefined;
  by: string;
}

/**
 * Inserts or updates (and enables) a menu entry in `sys_module`, the table the menu and the module
 * rights read, in the caller's transaction: users holding `<code>:view` see it at once (the
 * designer's published generic pages).
 */
export async function saveMenuEntry(trx: Transaction<DB>, entry: MenuEntry): Promise<void> {
  const existingId = await findMenuEntryId(trx, entry.code);
  if (existingId !== undefined) {
    await updateMenuEntry(trx, existingId, entry);
    return;
  }
  const sequence = entry.sequence ?? (await nextSequenceInGroup(trx, entry.parentCode));
  await insertMenuEntry(trx, { ...entry, sequence });
}
