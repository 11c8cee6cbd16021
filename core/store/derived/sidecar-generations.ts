/**
 * The sidecar's record of its snapshots (index-sidecar.ts): per index, the generation its parts
 * are in, what it was built from and the feed position it reflects (snapshot); the generations
 * begun (snapshot_generation); and where each part of one lies in its file (snapshot_part).
 * Each function runs on the sidecar's connection; the files themselves are snapshot-file.ts's.
 */
import type { FeedPosition } from '../port/feed-position.js';
import type { DB } from '../sqlite/sqlite.js';
import { clearBuilding, recordWriter, uncommitted, writersGone } from './sidecar-holders.js';
import { fromBeforeErase } from './sidecar-erase.js';
import type { PartEntry } from './snapshot-file.js';

/** A generation nobody committed for this long (seconds, as the store's clock counts) was left by a crashed writer. */
const ORPHAN_AGE_S = 60 * 60;
/**
 * A generation begun less than this long ago and not committed is another writer's snapshot under
 * way: a process whose own is due leaves that index to it (claim). Longer than any write takes (a
 * 100k store's take seconds), short enough that a writer killed mid-write holds nobody back long.
 * A writer on this machine whose process is gone holds nobody back at all (sidecar-holders.ts).
 */
export const UNDER_WAY_S = 5 * 60;

/** What a snapshot was built from: its encoding, the conditions it depends on, the feed position it reflects. */
export interface SnapshotHeader {
  format: string;
  conditions: string;
  position: FeedPosition;
}

/** What claim() found: the write is this process's, or another's snapshot makes it needless. */
export type SnapshotClaim = { kind: 'claimed'; generation: number } | { kind: 'covered'; position: FeedPosition } | { kind: 'busy' };

type HeaderRow = { format: string; conditions: string; epoch: string; seq: number };

const headerOf = (row: HeaderRow): SnapshotHeader => ({ format: row.format, conditions: row.conditions, position: { epoch: row.epoch, seq: row.seq } });

/** The header of an index's snapshot; null when there is none. */
export function readHeader(db: DB, name: string): SnapshotHeader | null {
  const row = db.prepare('SELECT format, conditions, epoch, seq FROM snapshot WHERE name = ?').get(name) as HeaderRow | undefined;
  return row ? headerOf(row) : null;
}

/** The current generation of an index, its header and where its parts lie, read in one transaction. */
export function lookUpSnapshot(db: DB, name: string): { generation: number; header: SnapshotHeader; entries: PartEntry[] } | null {
  return db
    .transaction(() => {
      const row = db.prepare('SELECT generation, format, conditions, epoch, seq FROM snapshot WHERE name = ?').get(name) as (HeaderRow & { generation: number }) | undefined;
      if (!row) return null;
      const entries = db.prepare('SELECT part, offset, bytes, crc FROM snapshot_part WHERE generation = ? ORDER BY offset').all(row.generation) as PartEntry[];
      return { generation: row.generation, header: headerOf(row), entries };
    })
    .deferred();
}

/** Begins a generation of an index's snapshot, this process its writer. */
export function beginGeneration(db: DB, name: string, now: number): number {
  return db
    .transaction(() => {
      const generation = Number(db.prepare('INSERT INTO snapshot_generation(name, started_at) VALUES (?, ?)').run(name, now).lastInsertRowid);
      recordWriter(db, generation);
      return generation;
    })
    .immediate();
}

/**
 * In one transaction across processes (see IndexSidecar.claim): `covered` when the sidecar holds
 * this index at a position later than `since`, `busy` when another writer's generation is under
 * way (unless `force`), else `claimed` with a generation begun now. This holder's build is over.
 */
export function claimGeneration(db: DB, holder: string, name: string, header: SnapshotHeader, since: FeedPosition, now: number, force: boolean): SnapshotClaim {
  return db
    .transaction((): SnapshotClaim => {
      // Built: whoever writes the snapshot now, the processes waiting on this build wait on that.
      clearBuilding(db, holder, name);
      const held = db.prepare('SELECT epoch, seq FROM snapshot WHERE name = ?').get(name) as { epoch: string; seq: number } | undefined;
      if (held && holdsNewer(db, name, { ...header, position: since })) return { kind: 'covered', position: { epoch: held.epoch, seq: held.seq } };
      if (!force) {
        const underWay = db
          .prepare(`SELECT g.id FROM snapshot_generation g WHERE g.name = ? AND g.started_at > ? AND ${uncommitted('g.id')}`)
          .pluck()
          .all(name, now - UNDER_WAY_S) as number[];
        const gone = writersGone(db);
        if (underWay.some((g) => !gone.has(g))) return { kind: 'busy' };
      }
      return { kind: 'claimed', generation: beginGeneration(db, name, now) };
    })
    .immediate();
}

/**
 * Points the index at the new generation unless another process committed one at a later
 * position meanwhile, or at the same one begun after ours (then ours is dropped: a lost race, not
 * a failure); drops the generations no snapshot points at any more and those of crashed writers.
 * `committed`: ours is published; `dropped`: the generations whose files are to be removed.
 *
 * Several processes may write the same index at once (agents on one PostgreSQL store share this
 * machine's cache file): a generation another writer has begun and not committed has no parts
 * recorded yet, and is left alone until ORPHAN_AGE_S has passed, with its file.
 */
export function publishGeneration(db: DB, name: string, generation: number, header: SnapshotHeader, entries: readonly PartEntry[], now: number): { committed: boolean; dropped: number[] } {
  const dropped: number[] = [];
  const committed = db
    .transaction(() => {
      dropped.length = 0;
      // Not known any more: another process dropped it as a crashed writer's (begun over ORPHAN_AGE_S ago).
      // An index from before an erase may hold what it erased (its process had not caught up yet).
      const publish = knowsGeneration(db, generation) && !holdsNewer(db, name, header, generation) && !fromBeforeErase(db, header.position);
      if (publish) {
        const insPart = db.prepare('INSERT OR REPLACE INTO snapshot_part(generation, part, offset, bytes, crc) VALUES (?, ?, ?, ?, ?)');
        for (const p of entries) insPart.run(generation, p.part, p.offset, p.bytes, p.crc);
        db.prepare('INSERT OR REPLACE INTO snapshot(name, generation, format, conditions, epoch, seq, written_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
          name,
          generation,
          header.format,
          header.conditions,
          header.position.epoch,
          header.position.seq,
          now,
        );
        db.prepare('DELETE FROM snapshot_writer WHERE generation = ?').run(generation);
      } else {
        dropped.push(dropGeneration(db, generation));
      }
      // Generations no snapshot points at: committed ones since replaced (they have parts), and
      // any a crashed writer left (no parts, begun long ago).
      const unused = db
        .prepare(
          `SELECT id FROM snapshot_generation g WHERE NOT EXISTS (SELECT 1 FROM snapshot s WHERE s.generation = g.id)
             AND (EXISTS (SELECT 1 FROM snapshot_part p WHERE p.generation = g.id) OR g.started_at < ?)`,
        )
        .pluck()
        .all(now - ORPHAN_AGE_S) as number[];
      for (const g of new Set([...unused, ...writersGone(db)])) dropped.push(dropGeneration(db, g));
      return publish;
    })
    .immediate();
  return { committed, dropped };
}

/** Records the position of an index that lives in the sidecar (no parts); keeps a newer one unless `force`. */
export function recordPosition(db: DB, name: string, header: SnapshotHeader, now: number, force: boolean): void {
  db.transaction(() => {
    if (!force && holdsNewer(db, name, header)) return;
    db.prepare('INSERT OR REPLACE INTO snapshot(name, generation, format, conditions, epoch, seq, written_at) VALUES (?, 0, ?, ?, ?, ?, ?)').run(
      name,
      header.format,
      header.conditions,
      header.position.epoch,
      header.position.seq,
      now,
    );
  }).immediate();
}

/** Whether a generation begun is still recorded (not dropped as a crashed writer's). */
export function knowsGeneration(db: DB, generation: number): boolean {
  return db.prepare('SELECT 1 FROM snapshot_generation WHERE id = ?').get(generation) !== undefined;
}

/** Every generation recorded, committed or under way (what the parts' folder may hold files of). */
export function generationIds(db: DB): Set<number> {
  return new Set(db.prepare('SELECT id FROM snapshot_generation').pluck().all() as number[]);
}

/** Forgets a generation: its parts' places, itself and its writer (the caller removes its file after the commit). */
export function dropGeneration(db: DB, generation: number): number {
  db.prepare('DELETE FROM snapshot_part WHERE generation = ?').run(generation);
  db.prepare('DELETE FROM snapshot_generation WHERE id = ?').run(generation);
  db.prepare('DELETE FROM snapshot_writer WHERE generation = ?').run(generation);
  return generation;
}

/**
 * Whether the sidecar already holds this index at a later position of the same feed epoch, or
 * (`begunAfter`) at the same one in a generation begun after that one: another process's, written
 * beside ours. One begun before ours is replaced: it may be the one this process could not read.
 */
function holdsNewer(db: DB, name: string, header: SnapshotHeader, begunAfter?: number): boolean {
  const row = db.prepare('SELECT generation, epoch, seq, format, conditions FROM snapshot WHERE name = ?').get(name) as
    | { generation: number; epoch: string; seq: number; format: string; conditions: string }
    | undefined;
  if (!row || row.epoch !== header.position.epoch || row.format !== header.format || row.conditions !== header.conditions) return false;
  return row.seq > header.position.seq || (begunAfter !== undefined && row.seq === header.position.seq && row.generation > begunAfter);
}
