import Decimal from 'decimal.js';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { lockInScope } from '../../db/scoped-rows.js';
import type { StockScope } from '../inventory/index.js';
import { endOpenTasksOfLines, refreshWaveProgress, setWaveStatus, tasksOfWave, type WaveRow } from './wave.repository.js';

/**
 * Pick tasks follow the allocation they were made from. An open task stands for stock its order
 * line holds at the task's balance row; whatever gives that allocation back (unallocate, cancel,
 * close, delete) ends the line's open tasks in the same transaction, and the waves of those tasks
 * follow. Confirming a task checks its line's allocation record again under lock (pick.service).
 */

/** The wave's status from its tasks: picked when nothing is open and something was picked, partial picked when something was. */
export async function refreshWaveStatus(trx: Transaction<DB>, wave: WaveRow, by: string): Promise<WaveRow['status']> {
  await refreshWaveProgress(trx, wave);
  if (wave.status === 'new' || wave.status === 'cancelled') return wave.status;
  const tasks = await tasksOfWave(trx, Number(wave.id));
  const picked = tasks.some((t) => new Decimal(t.picked_qty).greaterThan(0));
  const open = tasks.some((t) => t.status === 'open');
  const next: WaveRow['status'] = picked ? (open ? 'partial_picked' : 'picked') : 'released';
  if (next !== wave.status) await setWaveStatus(trx, Number(wave.id), next, by);
  return next;
}

/**
 * Ends the open tasks of order lines whose allocation was just given back (called once the lines'
 * quantities are written, so the waves' progress is counted from them): untouched tasks are
 * cancelled, partly picked ones shorted; then every wave they were on takes its status again.
 */
export async function endTasksOfLines(trx: Transaction<DB>, scope: StockScope, lineIds: readonly number[]): Promise<void> {
  const waveIds = await endOpenTasksOfLines(trx, lineIds, scope.operator);
  for (const waveId of waveIds) {
    const wave = await lockInScope(trx, 'wave', { projectId: scope.projectId }, waveId);
    if (wave) await refreshWaveStatus(trx, wave, scope.operator);
  }
}
