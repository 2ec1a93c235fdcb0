import { describe, expect, it } from 'vitest';
import { haversineKm, pathKm, suggestOrder, type GeoPoint } from '../../src/common/route-plan.js';

/** The route planner's distances and suggested stop order (src/common/route-plan.ts) on point sets whose answer is known. */

function permutations(items: number[]): number[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

/** The shortest open path from `start` through all points, by trying every order. */
function bruteForceKm(points: GeoPoint[], start: GeoPoint): number {
  return Math.min(...permutations(points.map((_, i) => i)).map((order) => pathKm(order.map((i) => points[i]), start)));
}

describe('route plan', () => {
  it('measures great-circle distances (haversine)', () => {
    expect(haversineKm({ lat: 48.8566, lng: 2.3522 }, { lat: 51.5074, lng: -0.1278 })).toBeCloseTo(343.5, 0);
    expect(haversineKm({ lat: 0, lng: 0 }, { lat: 0, lng: 1 })).toBeCloseTo(111.19, 1);
    expect(haversineKm({ lat: 13.7563, lng: 100.5018 }, { lat: 13.7563, lng: 100.5018 })).toBe(0);
    // Antipodes: half the circumference.
    expect(haversineKm({ lat: 0, lng: 0 }, { lat: 0, lng: 180 })).toBeCloseTo(Math.PI * 6371.0088, 3);
  });

  it('adds up a path, back to the start on a round trip', () => {
    const start = { lat: 0, lng: 0 };
    const stops = [{ lat: 0, lng: 1 }, { lat: 0, lng: 2 }];
    expect(pathKm(stops, start)).toBeCloseTo(2 * 111.195, 1);
    expect(pathKm(stops, start, true)).toBeCloseTo(4 * 111.195, 1);
    expect(pathKm(stops)).toBeCloseTo(111.195, 1);
    expect(pathKm([], start, true)).toBe(0);
  });

  it('visits points on a line in order from the start', () => {
    const lngs = [3, 1, 5, 2, 4];
    const order = suggestOrder(lngs.map((lng) => ({ lat: 0, lng })), { lat: 0, lng: 0 });
    expect(order.map((i) => lngs[i])).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps the first stop first when there is no start', () => {
    const lngs = [0, 3, 1, 2];
    const order = suggestOrder(lngs.map((lng) => ({ lat: 0, lng })));
    expect(order[0]).toBe(0);
    expect(order.map((i) => lngs[i])).toEqual([0, 1, 2, 3]);
  });

  it('reaches the shortest path with stops on both sides of the start', () => {
    const start = { lat: 0, lng: 0 };
    const points = [
      { lat: 0, lng: 0.9 }, // A
      { lat: 0, lng: -1 }, // B
      { lat: 0, lng: 2 }, // C
      { lat: 0, lng: -2.2 }, // D
    ];
    const order = suggestOrder(points, start);
    const km = pathKm(order.map((i) => points[i]), start);
    expect(km).toBeCloseTo(bruteForceKm(points, start), 6);
    expect(new Set(order)).toEqual(new Set([0, 1, 2, 3]));
  });

  it('finds the shortest path round a ring of shuffled stops', () => {
    const start = { lat: 10, lng: 10 };
    const ring = [0, 5, 2, 7, 1, 6, 3, 4].map((k) => ({ lat: 10 + 0.5 * Math.cos((k * Math.PI) / 4), lng: 10.5 + 0.5 * Math.sin((k * Math.PI) / 4) }));
    const order = suggestOrder(ring, start);
    expect(pathKm(order.map((i) => ring[i]), start)).toBeCloseTo(bruteForceKm(ring, start), 6);
  });

  it('is never longer than the nearest-neighbour path on a scattered set, and is a permutation', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const points = Array.from({ length: 40 }, () => ({ lat: 13 + random(), lng: 100 + random() }));
    const start = { lat: 13.5, lng: 100.5 };
    const order = suggestOrder(points, start);
    expect([...order].sort((a, b) => a - b)).toEqual(points.map((_, i) => i));
    expect(pathKm(order.map((i) => points[i]), start)).toBeLessThan(pathKm(points, start));
  });

  it('answers tiny sets as they are', () => {
    expect(suggestOrder([])).toEqual([]);
    expect(suggestOrder([{ lat: 1, lng: 1 }], { lat: 0, lng: 0 })).toEqual([0]);
  });
});
