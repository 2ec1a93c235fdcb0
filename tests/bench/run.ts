/**
 * `npm run bench`: runs every `tests/bench/*.bench.ts`, prints its figures
 * and writes them as JSON to `tests/bench/results/<name>-<time>.json`. Benchmarks are never timed
 * assertions; they measure and report.
 *
 * A benchmark file exports `name` and `run(): Promise<BenchReport>`. Pass names to run only some:
 * `npm run bench -- selection`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface BenchReport {
  /** Short, human-readable lines printed after the run. */
  summary: string[];
  /** Everything measured, written to the JSON file. */
  figures: Record<string, unknown>;
}

interface BenchModule {
  name: string;
  run(): Promise<BenchReport>;
}

const HERE = import.meta.dirname;
const RESULTS = path.join(HERE, 'results');

async function main(): Promise<void> {
  const only = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
  const files = fs
    .readdirSync(HERE)
    .filter((file) => file.endsWith('.bench.ts'))
    .sort();
  fs.mkdirSync(RESULTS, { recursive: true });
  let failed = 0;
  for (const file of files) {
    const bench = (await import(pathToFileURL(path.join(HERE, file)).href)) as BenchModule;
    if (only.length && !only.includes(bench.name)) continue;
    console.log(`\n== ${bench.name} (${file})`);
    const started = new Date();
    try {
      const report = await bench.run();
      const out = path.join(RESULTS, `${bench.name}-${started.toISOString().replace(/[:.]/g, '-')}.json`);
      fs.writeFileSync(out, `${JSON.stringify({ name: bench.name, startedAt: started.toISOString(), ...report.figures }, null, 2)}\n`);
      for (const line of report.summary) console.log(line);
      console.log(`written to ${path.relative(process.cwd(), out)}`);
    } catch (error) {
      failed++;
      console.error(`${bench.name} failed:`, error);
    }
  }
  if (failed) process.exitCode = 1;
}

await main();
