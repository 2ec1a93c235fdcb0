import { api } from '../../app/public';
import type { DeviceSessionRow, HandheldConfigDetail, HandheldConfigRow, HandheldDefinition, HandheldFlowAnswer, HandheldFunction, LocationRule, ScanValueRow, SuggestLocationAnswer } from '../../common/handheld-api';
import type { ContainerCartonsAnswer, PutawayFindAnswer, PutawayTasksAnswer, ReceivableLinesAnswer } from '../../common/inbound-api';
import type { BlindCountTicket, CountTicketsAnswer, HandheldStockAnswer } from '../../common/inventory-api';
import type { PickTasksAnswer } from '../../common/outbound-api';
import type { LoadHeader, LoadTable } from '../../common/loading-api';
import type { CodeRow, PackAnswer, PackCarton } from '../packing/pack-api';

/** The calls of the handheld area's screens (docs/handheld.md, "Configured flows"). */
const post = <T>(path: string, body: unknown) => api<T>(path, { body, quiet: true });

export const listConfigs = async () => (await api<{ rows: HandheldConfigRow[] }>('/handheld/config/list', { quiet: true })).rows;
export const getConfig = (id: number) => api<HandheldConfigDetail>(`/handheld/config/get?id=${id}`, { quiet: true });
export const copyProjects = async () => (await api<{ rows: Array<{ id: number; code: string; name: string }> }>('/handheld/config/projects', { quiet: true })).rows;
export const createConfig = (body: { code: string; name: string; fn: HandheldFunction }) => post<HandheldConfigDetail>('/handheld/config/create', body);
export const saveConfig = (body: { id: number; name: string; status: 'active' | 'inactive'; draft: HandheldDefinition }) => post<HandheldConfigDetail>('/handheld/config/save', body);
export const publishConfig = (id: number) => post<HandheldConfigDetail>('/handheld/config/publish', { id });
export const copyConfig = (body: { id: number; projectId: number; code?: string }) => post<{ id: number; projectId: number; code: string }>('/handheld/config/copy', body);

export const flowOf = (fn: HandheldFunction) => api<HandheldFlowAnswer>(`/handheld/flow?fn=${fn}`, { quiet: true });
export const suggestLocation = (body: { rules: LocationRule[]; skuCode?: string; lastLocation?: string | null; storage?: string | null }) =>
  post<SuggestLocationAnswer>('/handheld/suggestLocation', body);

export const mySession = async () => (await api<{ session: DeviceSessionRow | null }>('/rfUser/me', { quiet: true })).session;
export const signIn = (deviceId: string, flow: HandheldFunction) => post<DeviceSessionRow>('/rfUser/signIn', { deviceId, flow });
export const signOut = () => post<{ ended: number }>('/rfUser/signOut', {});
export const recordScan = (deviceId: string, flow: HandheldFunction) => post<{ recorded: boolean }>('/rfUser/scan', { deviceId, flow });
export const endDevice = (id: number) => post<DeviceSessionRow>('/rfUser/end', { id });
export const devices = async () => (await api<{ rows: DeviceSessionRow[] }>('/rfUser/devices', { quiet: true })).rows;

export const putawayTasks = async () => (await api<PutawayTasksAnswer>('/putaway/tasks', { quiet: true })).tasks;
export const findPutawayTask = (code: string) => post<PutawayFindAnswer>('/putaway/find', { code });

export const containerCartons = async (containerId: string) => (await post<ContainerCartonsAnswer>('/scan/table', { containerId })).cartons;
/** The receivable ASN lines of an ASN number, SKU code or barcode (also a GS1 label's GTIN). */
export const receivableLines = (text: string) => post<ReceivableLinesAnswer>('/rec/batch/editor', { text });
export const stockAt = (body: { location: string; sku?: string; lotNo?: string; lpn?: string }) => post<HandheldStockAnswer>('/inventory/handheld/stock', body);
/** The open pick tasks of the warehouse (the pick action's order search). */
export const openPickTasks = () => post<PickTasksAnswer>('/pick/tasks', { openOnly: true });
/** A count ticket, blind, by its scanned number or its id (a ticket tapped in the list). */
export const countTicket = (ticket: { ticketNo: string } | { id: number }) => post<BlindCountTicket>('/inventory/handheld/countTicket', ticket);
/** The count tickets that take counts (open, counted or sent to recount). */
export const countTickets = async () => (await api<CountTicketsAnswer>('/inventory/handheld/countTickets', { quiet: true })).tickets;
/** "Location is empty": these lines of a ticket are counted as a true zero (needs the connection). */
export const countEmpty = (lineIds: number[]) => post<{ lines: number }>('/inventory/cycleCount/empty', { lineIds });
/** The dialog values stored with a confirmation (by its key), read back. */
export const scanValues = async (query: { fn: HandheldFunction; scanKey: string }) =>
  (await api<{ rows: ScanValueRow[] }>(`/handheld/scanValue/list?fn=${query.fn}&scanKey=${encodeURIComponent(query.scanKey)}`, { quiet: true })).rows;

/**
 * Pack (the scan-and-pack calls of /pack): the order by its number or by one of its open cartons, its
 * carton types and weight units. Opening a carton, the scans and check-complete go through the
 * offline queue (actions/pack.ts).
 */
export const packOrder = (orderNo: string) => post<PackAnswer>('/scanPack', { orderNo });
export const packByCarton = (code: string) => post<PackAnswer & { carton: PackCarton }>('/scanPack/carton', { code });
export const cartonTypes = async () => (await api<{ rows: CodeRow[] }>('/pack/carton/type', { quiet: true })).rows;
export const weightUnits = async () => (await api<{ rows: CodeRow[] }>('/pack/scan/wgtUom', { quiet: true })).rows;

/** Load (the calls of /loading): a load by its number, and its cartons. */
export const loadByNo = (loadNo: string) => post<LoadHeader>('/loading/getLoadByUid', { loadNo });
export const loadTable = (loadId: number) => post<LoadTable>('/loading/table', { loadId });
