/**
 * Another process's resident memory and CPU time, read from Linux's /proc (null elsewhere, or once
 * the process is gone): how a benchmark sees what a server child costs without instrumenting it.
 */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on every Linux Node runs on). */
const TICKS_PER_SECOND = 100;

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** Resident set size (VmRSS) in bytes. */
export function rssBytes(pid: number): number | null {
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(read(`/proc/${pid}/status`) ?? '');
  return m ? Number(m[1]) * 1024 : null;
}

/** User + system CPU time in seconds. */
export function cpuSeconds(pid: number): number | null {
  const stat = read(`/proc/${pid}/stat`);
  if (stat === null) return null;
  // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? (utime + stime) / TICKS_PER_SECOND : null;
}
