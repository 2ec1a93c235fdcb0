/** The transport routes' answers (docs/transport.md), written once for the server and the route planner screen. */

export type DoStatus = 'unplanned' | 'planned' | 'confirmed' | 'delivered';
export type RouteStatus = 'open' | 'confirmed';

export interface DeliveryOrder {
  id: number;
  doNo: string;
  customerName: string;
  consigneeName: string | null;
  address: string | null;
  city: string | null;
  latitude: number | null;
  longitude: number | null;
  windowFrom: string | null;
  windowTo: string | null;
  weightKg: string;
  volumeM3: string;
  palletCount: number;
  status: DoStatus;
  soNo: string | null;
  remarks: string | null;
  /** The route it is on, if any. */
  routeId: number | null;
}

export interface Capacity {
  weightKg: string | null;
  volumeM3: string | null;
  pallets: number | null;
}

export interface RouteLoad {
  weightKg: string;
  volumeM3: string;
  pallets: number;
}

export interface TmsRoute {
  id: number;
  routeNo: string;
  routeDate: string;
  status: RouteStatus;
  vehicleId: number | null;
  vehiclePlate: string | null;
  driverId: number | null;
  driverName: string | null;
  remarks: string | null;
  capacity: Capacity;
  load: RouteLoad;
  /** The capacities the stops exceed: 'weight', 'volume', 'pallets'. */
  over: Array<'weight' | 'volume' | 'pallets'>;
  /** The stops in order. */
  stops: DeliveryOrder[];
  /** Warehouse -> stops (with coordinates) -> warehouse, km; the path between stops alone when the warehouse has no coordinates. */
  distanceKm: number;
}

export interface RoutesAnswer {
  routes: TmsRoute[];
  /** The warehouse's coordinates when known (system parameters TMS_WAREHOUSE_LAT / TMS_WAREHOUSE_LNG). */
  warehouse: { lat: number; lng: number } | null;
  /** The map's tile URL (system parameter MAP_TILE_URL, else the env MAP_TILE_URL); null: a plain coordinate canvas. */
  tileUrl: string | null;
}

export interface Choice {
  id: number;
  code: string;
  name: string | null;
  capacity?: Capacity;
}
