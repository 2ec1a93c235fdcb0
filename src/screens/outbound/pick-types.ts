/** A pick task as /pick/tasks answers it. */
export interface PickTask {
  id: number;
  wave_id: number | null;
  wave_no: string | null;
  so_id: number;
  order_no: string;
  line_no: number;
  sku_code: string;
  sku_description: string;
  lot_no: string;
  expiry_date: string | null;
  location_code: string;
  zone: string | null;
  pick_seq: number | null;
  lpn: string;
  qty: string;
  picked_qty: string;
  status: 'open' | 'picked' | 'short' | 'cancelled';
  to_lpn: string | null;
  reason: string | null;
  /** Stock of the SKU free to allocate in other locations: a short pick may look there. */
  other_available: string;
}

export interface WaveSummary {
  id: number;
  wave_no: string;
  status: string;
  order_count: number;
  line_count: number;
  qty: string;
  allocated_qty: string;
  picked_qty: string;
  open_tasks: number;
}

export function left(task: PickTask): number {
  return Number(task.qty) - Number(task.picked_qty);
}
