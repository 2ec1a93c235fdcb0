/**
 * Distances and a suggested stop order for a delivery route (docs/transport.md). Pure: the server
 * and the route planner screen both use it. A point is latitude/longitude in degrees.
 */
export interface GeoPoint {
  lat: number;
  lng: number;
}

const EARTH_RADIUS_KM = 6371.0088;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in km (haversine). */
export function haversineKm(a: GeoPoint, b: GeoPoint): number {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Length in km of the path start -> stops in the order given (and back to start when `roundTrip`); no start: from the first stop. */
export function pathKm(stops: readonly GeoPoint[], start?: GeoPoint | null, roundTrip = false): number {
  const points = start ? [start, ...stops] : [...stops];
  if (start && roundTrip && stops.length > 0) points.push(start);
  let total = 0;
  for (let i = 1; i < points.length; i++) total += haversineKm(points[i - 1], points[i]);
  return total;
}

/**
 * A short visiting order of `stops` from `start` (indexes into `stops`): nearest neighbour first,
 * then 2-opt (reverse a stretch while that shortens the open path) until no reversal helps. With no
 * start the path begins at the first stop. Deterministic: ties keep the lower index.
 */
export function suggestOrder(stops: readonly GeoPoint[], start?: GeoPoint | null): number[] {
  const n = stops.length;
  if (n <= 1) return stops.map((_, i) => i);
  const order: number[] = [];
  const left = new Set(stops.map((_, i) => i));
  let from: GeoPoint;
  if (start) from = start;
  else {
    order.push(0);
    left.delete(0);
    from = stops[0];
  }
  while (left.size > 0) {
    let best = -1;
    let bestKm = Infinity;
    for (const i of left) {
      const km = haversineKm(from, stops[i]);
      if (km < bestKm) {
        bestKm = km;
        best = i;
      }
    }
    order.push(best);
    left.delete(best);
    from = stops[best];
  }
  return twoOpt(order, stops, start ?? null);
}

function twoOpt(order: number[], stops: readonly GeoPoint[], start: GeoPoint | null): number[] {
  const route = [...order];
  const at = (k: number): GeoPoint | null => (k < 0 ? start : stops[route[k]]);
  const d = (p: GeoPoint | null, q: GeoPoint | null) => (p && q ? haversineKm(p, q) : 0);
  // With no start the first stop stays first; the path is open at its end.
  const first = start ? 0 : 1;
  let improved = true;
  let rounds = 0;
  while (improved && rounds < 100) {
    improved = false;
    rounds++;
    for (let i = first; i < route.length - 1; i++) {
      for (let j = i + 1; j < route.length; j++) {
        const before = d(at(i - 1), at(i)) + (j + 1 < route.length ? d(at(j), at(j + 1)) : 0);
        const after = d(at(i - 1), at(j)) + (j + 1 < route.length ? d(at(i), at(j + 1)) : 0);
        if (after + 1e-9 < before) {
          route.splice(i, j - i + 1, ...route.slice(i, j + 1).reverse());
          improved = true;
        }
      }
    }
  }
  return route;
}
