/**
 * What the PostgreSQL benchmarks share: the server to run on, a fresh database dropped afterwards,
 * and pgbench's TPC-B-like figure from the same server with the same number of clients, printed
 * beside ours.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import pg from 'pg';

/** BENCH_DATABASE_URL, else DATABASE_URL, else TEST_DATABASE_URL, else the local server. */
export function benchServerUrl(): string {
  return process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

export async function adminStatement(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Creates a database for the run and answers its URL and how to drop it. */
export async function freshDatabase(serverUrl: string, suffix = ''): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `wms_bench_${Date.now().toString(36)}_${crypto.randomBytes(3).toString('hex')}${suffix}`;
  await adminStatement(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminStatement(serverUrl, `drop database if exists ${name} with (force)`) };
}

/** pgbench's TPC-B-like tps on a database of its own (scale 8), `clients` clients for `seconds`. */
export function pgbenchTps(url: string, clients: number, seconds: number): number {
  const env = { ...process.env };
  execFileSync('pgbench', ['-i', '-q', '-s', '8', url], { stdio: 'pipe', env });
  const out = execFileSync('pgbench', ['-c', String(clients), '-j', '2', '-T', String(seconds), url], { encoding: 'utf8', env });
  const match = /tps = ([\d.]+)/.exec(out);
  if (!match) throw new Error(`pgbench printed no tps:\n${out}`);
  return Number(match[1]);
}
