import { sql, type Kysely } from 'kysely';

/**
 * Open pick tasks left behind by earlier versions, which did not end a task when the allocation it
 * was made from was given back: every open task of an ended order (cancelled, deleted, closed), and
 * every open task of a line and balance row whose open tasks together claim more than the line's
 * allocation record there (or with no record at all), is ended like the order actions now end them:
 * cancelled when nothing was picked on it, shorted when something was. Making the order's pick tasks
 * again (/so/pick, or releasing its wave again) covers what the line still holds with new tasks.
 * The waves of the ended tasks take their status from their tasks again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ended = await sql<{ wave_id: string | number | null }>`
    update pick_task t
       set status = case when t.picked_qty > 0 then 'short' else 'cancelled' end, updated_by = 'migration', updated_at = now()
     where t.status = 'open'
       and (exists (select 1 from so_header h where h.id = t.so_id and h.status in ('cancelled', 'deleted', 'closed'))
            or (select sum(o.qty - o.picked_qty) from pick_task o where o.status = 'open' and o.so_line_id = t.so_line_id and o.balance_id = t.balance_id)
               > coalesce((select a.qty from so_allocation a where a.so_line_id = t.so_line_id and a.balance_id = t.balance_id), 0))
    returning t.wave_id`.execute(db);
  const waveIds = [...new Set(ended.rows.flatMap((r) => (r.wave_id === null ? [] : [Number(r.wave_id)])))];
  if (waveIds.length === 0) return;
  await sql`
    update wave w
       set status = case when p.picked then (case when p.open then 'partial_picked' else 'picked' end) else 'released' end,
           updated_by = 'migration', updated_at = now()
      from (select w2.id,
                   exists (select 1 from pick_task t where t.wave_id = w2.id and t.status <> 'cancelled' and t.picked_qty > 0) as picked,
                   exists (select 1 from pick_task t where t.wave_id = w2.id and t.status = 'open') as open
              from wave w2 where w2.id = any(${waveIds}::bigint[])) p
     where w.id = p.id and w.status not in ('new', 'cancelled')`.execute(db);
}
