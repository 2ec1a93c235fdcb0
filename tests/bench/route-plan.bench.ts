import { performance } from 'node:perf_hooks';
import { pathKm, suggestOrder } from '../../src/common/route-plan.js';
import type { BenchReport } from './run.js';

/** The route planner's suggested stop order (nearest neighbour + 2-opt) on scattered stops around a warehouse: time and the distance saved. */
export const name = 'route-plan';

export async function run(): Promise<BenchReport> {
  let seed = 11;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const start = { lat: 13.75, lng: 100.5 };
  const figures: Record<string, unknown> = {};
  const summary: string[] = [];
  for (const size of [10, 30, 60, 120]) {
    const stops = Array.from({ length: size }, () => ({ lat: 13.5 + random() * 0.5, lng: 100.25 + random() * 0.5 }));
    const began = performance.now();
    const order = suggestOrder(stops, start);
    const ms = performance.now() - began;
    const before = pathKm(stops, start, true);
    const after = pathKm(order.map((i) => stops[i]), start, true);
    figures[`stops${size}`] = { ms: Math.round(ms * 100) / 100, kmAsGiven: Math.round(before), kmSuggested: Math.round(after) };
    summary.push(`${size} stops: ${ms.toFixed(1)} ms, ${Math.round(before)} km as given -> ${Math.round(after)} km suggested`);
  }
  await Promise.resolve();
  return { summary, figures };
}
