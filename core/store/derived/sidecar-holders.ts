/**
 * Who is working on an index in the sidecar (index-sidecar.ts), and whether that process still
 * runs: the writer of each generation not yet committed (snapshot_writer), and the processes
 * building an index from the store for want of a snapshot (index_build). Judged by process, not by
 * the store's clock, which a process started with a fixed time (`--now`) never moves. A pid
 * reused since, or a process on another machine sharing the file, is taken as alive: the sidecar's
 * time rules still end its hold.
 *
 * Both tables are created beside a format-3 file's tables rather than in a new format: a build
 * without them keeps using the file (and the time rules alone), instead of two builds on one
 * machine each starting the file over.
 */
import { hostname } from 'node:os';
import type { DB } from '../sqlite/sqlite.js';

export const HOLDER_SCHEMA = `
  CREATE TABLE IF NOT EXISTS snapshot_writer (generation INTEGER PRIMARY KEY, host TEXT NOT NULL, pid INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS index_build (
    name TEXT NOT NULL, holder TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL,
    format TEXT NOT NULL, conditions TEXT NOT NULL, started_at INTEGER NOT NULL, PRIMARY KEY (name, holder));
`;

/**
 * A build begun longer ago than this holds nobody back. Eight agents opening a 100k store
 * together each built every index on two cores, a minute or more, and their clients' requests
 * timed out; now one builds and the others wait for its snapshot (othersBuilding).
 */
const BUILD_UNDER_WAY_S = 10 * 60;

const HOST = hostname();

/** A generation (aliased `alias`) neither published nor given parts: a write under way, or abandoned. */
export const uncommitted = (alias: string) =>
  `NOT EXISTS (SELECT 1 FROM snapshot s WHERE s.generation = ${alias}) AND NOT EXISTS (SELECT 1 FROM snapshot_part p WHERE p.generation = ${alias})`;

/** Records this process as the writer of a generation it began. */
export function recordWriter(db: DB, generation: number): void {
  db.prepare('INSERT OR REPLACE INTO snapshot_writer(generation, host, pid) VALUES (?, ?, ?)').run(generation, HOST, process.pid);
}

/** The uncommitted generations begun by a process of this machine that no longer runs: a writer killed mid-write. */
export function writersGone(db: DB): Set<number> {
  const rows = db.prepare(`SELECT w.generation, w.pid FROM snapshot_writer w WHERE w.host = ? AND ${uncommitted('w.generation')}`).all(HOST) as {
    generation: number;
    pid: number;
  }[];
  return new Set(rows.filter((r) => !processRuns(r.pid)).map((r) => r.generation));
}

/** Says `holder` is building an index from the store. */
export function markBuilding(db: DB, holder: string, name: string, format: string, conditions: string, now: number): void {
  db.prepare('INSERT OR REPLACE INTO index_build(name, holder, host, pid, format, conditions, started_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    name,
    holder,
    HOST,
    process.pid,
    format,
    conditions,
    now,
  );
}

/** `holder` no longer builds it (its snapshot's write is claimed, or it stopped). */
export function clearBuilding(db: DB, holder: string, name: string): void {
  db.prepare('DELETE FROM index_build WHERE name = ? AND holder = ?').run(name, holder);
}

/**
 * Whether another process that still runs builds this index (same encoding and conditions, begun
 * in the last BUILD_UNDER_WAY_S) or writes its snapshot (a generation begun in the last
 * `writeUnderWayS`). Only other processes count: another engine of this one builds on the same
 * thread, so waiting on it would wait forever.
 */
export function othersBuilding(db: DB, holder: string, name: string, format: string, conditions: string, now: number, writeUnderWayS: number): boolean {
  const other = (r: { host: string; pid: number }) => r.host !== HOST || (r.pid !== process.pid && processRuns(r.pid));
  const builders = db
    .prepare('SELECT host, pid FROM index_build WHERE name = ? AND holder <> ? AND format = ? AND conditions = ? AND started_at > ?')
    .all(name, holder, format, conditions, now - BUILD_UNDER_WAY_S) as { host: string; pid: number }[];
  if (builders.some(other)) return true;
  const writers = db
    .prepare(`SELECT w.host, w.pid FROM snapshot_generation g JOIN snapshot_writer w ON w.generation = g.id WHERE g.name = ? AND g.started_at > ? AND ${uncommitted('g.id')}`)
    .all(name, now - writeUnderWayS) as { host: string; pid: number }[];
  return writers.some(other);
}

/** Whether a process of this machine runs (signal 0 checks without sending; EPERM: it runs as another user). */
function processRuns(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code !== 'ESRCH';
  }
}
