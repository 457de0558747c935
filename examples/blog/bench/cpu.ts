import { readFile } from 'node:fs/promises';
import type pg from 'pg';

/*
 * CPU time spent by the server under test and by PostgreSQL during a measurement, read from
 * /proc (Linux): with everything on one small machine, CPU per request tells where the time
 * goes better than latency does. Elsewhere the figures are simply missing.
 */

/** Linux reports utime and stime in clock ticks of 1/100 s on every common configuration. */
const TICK_MS = 10;

async function processCpuMs(pid: number): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

export interface CpuSnapshot {
  server: number | undefined;
  /** Per backend pid of the bench database. */
  database: Map<number, number>;
}

/** Snapshots the CPU time of the server process and of every backend connected to the bench database. */
export async function cpuSnapshot(serverPid: number | undefined, client: pg.Client | undefined): Promise<CpuSnapshot> {
  const database = new Map<number, number>();
  if (client) {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    for (const { pid } of rows) {
      const ms = await processCpuMs(pid);
      if (ms !== undefined) database.set(pid, ms);
    }
  }
  return { server: serverPid === undefined ? undefined : await processCpuMs(serverPid), database };
}

/**
 * CPU milliseconds between two snapshots: the server's, and the database's summed over the
 * backends (those that connected meanwhile count from zero; short-lived parallel workers are
 * missed, which the benchmark's plans do not use).
 */
export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): { server: number | undefined; database: number | undefined } {
  const server = before.server === undefined || after.server === undefined ? undefined : after.server - before.server;
  let database: number | undefined;
  for (const [pid, ms] of after.database) database = (database ?? 0) + ms - (before.database.get(pid) ?? 0);
  return { server, database };
}
