/**
 * The index sidecar: a SQLite file beside the store (`<store file>.mnemo-index`) holding snapshots
 * of the derived indexes, so a process opening a big store reads them instead of rebuilding them
 * (docs/store-format.md describes the file). The store itself is never written for this: a nooa
 * file stays as nooa wrote it.
 *
 * A snapshot is a set of named parts (snapshot-parts.ts), cut into chunks and written under a new
 * generation, a chunk per transaction (a 100 MB snapshot never holds the thread or the file's lock
 * for long); a last short transaction points the index's row at the new generation and drops the
 * old one. A crash before that leaves the previous snapshot (and orphan chunks, swept later); after
 * it, the new one. Never a mix. Each part carries its length and CRC-32, so a damaged page reads as
 * "no snapshot" (rebuild), never as a wrong index.
 *
 * Anything going wrong with the sidecar (cannot create it, read-only directory, corrupt, from
 * another build) costs a rebuild and at most one warning: the caller gets null, never an error.
 */
import Database from 'better-sqlite3';
import { existsSync, unlinkSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { nativeBindingOf } from './connection.js';
import type { DB } from './sqlite.js';
import type { FeedPosition, StoreReader } from './port.js';
import type { SnapshotParts } from './snapshot-parts.js';

/** Bump when the file's tables change; `le`: typed arrays are stored little-endian. */
const SIDECAR_FORMAT = 'mnemo-index/1/le';
/**
 * A chunk is written per turn of the event loop; a part longer than one is joined on read (a copy
 * into fresh memory, the slowest thing reading does). 16 MB keeps every part of a 100k store in
 * one chunk (the largest, the vectors' inverted lists, are ~12 MB).
 */
const CHUNK_BYTES = 16 * 1024 * 1024;
const MMAP_BYTES = 2 * 1024 * 1024 * 1024;
/** A generation nobody committed for this long was left by a crashed writer. */
const ORPHAN_AGE_MS = 60 * 60 * 1000;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS sidecar_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS snapshot_generation (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, started_at INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS snapshot (
    name TEXT PRIMARY KEY, generation INTEGER NOT NULL, format TEXT NOT NULL, conditions TEXT NOT NULL,
    epoch TEXT NOT NULL, seq INTEGER NOT NULL, written_at INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS snapshot_part (
    generation INTEGER NOT NULL, part TEXT NOT NULL, bytes INTEGER NOT NULL, crc INTEGER NOT NULL, chunks INTEGER NOT NULL,
    PRIMARY KEY (generation, part));
  CREATE TABLE IF NOT EXISTS snapshot_chunk (
    generation INTEGER NOT NULL, part TEXT NOT NULL, chunk INTEGER NOT NULL, data BLOB NOT NULL,
    PRIMARY KEY (generation, part, chunk));
`;

/** What a snapshot was built from: its encoding, the conditions it depends on, the feed position it reflects. */
export interface SnapshotHeader {
  format: string;
  conditions: string;
  position: FeedPosition;
}

export interface StoredSnapshot extends SnapshotHeader {
  parts: SnapshotParts;
}

export function sidecarPath(storePath: string): string {
  return `${storePath}.mnemo-index`;
}

export class IndexSidecar {
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly db: DB,
    readonly writable: boolean,
    private readonly warn: (message: string) => void,
  ) {}

  /**
   * The sidecar of an open store, created when missing; null for a `:memory:` store or when the
   * file cannot be opened (a warning says why). A read-only store's sidecar is read, never written.
   */
  static open(store: StoreReader): IndexSidecar | null {
    if (store.path === ':memory:' || store.path === '') return null;
    const path = sidecarPath(store.path);
    const warn = (message: string) => store.warn('index-sidecar', `${message}; indexes are built in memory instead`);
    const writable = !store.readonly;
    if (!writable && !existsSync(path)) return null;
    const binding = nativeBindingOf(store);
    const attempt = (): IndexSidecar => {
      const db = new Database(path, { readonly: !writable, fileMustExist: !writable, ...(binding ? { nativeBinding: binding } : {}) });
      try {
        db.pragma('busy_timeout = 5000');
        // Snapshots are a few large blobs: big pages and a memory map read them ~20x faster than
        // 4 KB pages through read() calls (page_size only takes on a new, empty file).
        db.pragma(`mmap_size = ${MMAP_BYTES}`);
        if (writable) {
          db.pragma('page_size = 65536');
          db.pragma('journal_mode = WAL');
          // A lost snapshot is rebuilt, so the sidecar need not sync every commit to disk.
          db.pragma('synchronous = NORMAL');
        }
        const sidecar = new IndexSidecar(path, db, writable, warn);
        sidecar.prepare();
        return sidecar;
      } catch (err) {
        db.close();
        throw err;
      }
    };
    try {
      return attempt();
    } catch (err) {
      if (!writable || !isDamage(err)) {
        warn(`cannot use the index file ${path} (${(err as Error).message})`);
        return null;
      }
    }
    // Damaged: start a new file (it only ever holds what can be rebuilt).
    try {
      removeSidecarFiles(path);
      return attempt();
    } catch (err) {
      warn(`cannot use the index file ${path} (${(err as Error).message})`);
      return null;
    }
  }

  /** Creates the tables, or starts over when the file was written by another format. */
  private prepare(): void {
    const db = this.db;
    const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sidecar_meta'").get() !== undefined;
    const format = hasMeta ? (db.prepare("SELECT value FROM sidecar_meta WHERE key = 'format'").pluck().get() as string | undefined) : undefined;
    if (format === SIDECAR_FORMAT) return;
    if (!this.writable) throw new Error(hasMeta ? `written by another format (${format ?? 'none'})` : 'not an index file');
    db.transaction(() => {
      if (hasMeta) {
        const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
        for (const t of tables) db.exec(`DROP TABLE IF EXISTS "${t.replace(/"/g, '""')}"`);
      }
      db.exec(SCHEMA);
      db.prepare("INSERT OR REPLACE INTO sidecar_meta(key, value) VALUES ('format', ?)").run(SIDECAR_FORMAT);
    }).immediate();
  }

  /** The connection, for an index that lives in the sidecar itself (the list's text search). */
  connection(): DB {
    return this.db;
  }

  /** The header of an index's snapshot, without its parts; null when there is none. */
  header(name: string): SnapshotHeader | null {
    if (this.closed) return null;
    try {
      const row = this.db.prepare('SELECT format, conditions, epoch, seq FROM snapshot WHERE name = ?').get(name) as
        | { format: string; conditions: string; epoch: string; seq: number }
        | undefined;
      return row ? { format: row.format, conditions: row.conditions, position: { epoch: row.epoch, seq: row.seq } } : null;
    } catch (err) {
      this.warn(`cannot read the index file ${this.path} (${(err as Error).message})`);
      return null;
    }
  }

  /** An index's snapshot, read in one transaction; null when missing or damaged (damage warns). */
  read(name: string): StoredSnapshot | null {
    if (this.closed) return null;
    try {
      return this.db
        .transaction(() => {
          const row = this.db.prepare('SELECT generation, format, conditions, epoch, seq FROM snapshot WHERE name = ?').get(name) as
            | { generation: number; format: string; conditions: string; epoch: string; seq: number }
            | undefined;
          if (!row) return null;
          const parts: SnapshotParts = new Map();
          const partRows = this.db.prepare('SELECT part, bytes, crc, chunks FROM snapshot_part WHERE generation = ?').all(row.generation) as {
            part: string;
            bytes: number;
            crc: number;
            chunks: number;
          }[];
          const chunkSql = this.db.prepare('SELECT data FROM snapshot_chunk WHERE generation = ? AND part = ? ORDER BY chunk').pluck();
          for (const p of partRows) {
            const chunks = chunkSql.all(row.generation, p.part) as Buffer[];
            const data = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
            if (chunks.length !== p.chunks || data.byteLength !== p.bytes || crc32(data) !== p.crc) {
              this.warn(`the index file ${this.path} has a damaged snapshot of ${name}; rebuilding it`);
              return null;
            }
            parts.set(p.part, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
          }
          return { format: row.format, conditions: row.conditions, position: { epoch: row.epoch, seq: row.seq }, parts };
        })
        .deferred();
    } catch (err) {
      this.warn(`cannot read the index file ${this.path} (${(err as Error).message})`);
      return null;
    }
  }

  /**
   * Starts writing a snapshot; `step()` writes one chunk per call (call it from separate ticks),
   * `finish()` runs the rest at once. Null when the sidecar is read-only.
   */
  write(name: string, header: SnapshotHeader, parts: SnapshotParts, now: number): SnapshotWrite | null {
    if (!this.writable || this.closed) return null;
    return new SnapshotWrite(this, name, header, parts, now);
  }

  /**
   * Records the position of an index that lives in the sidecar (no parts); keeps a newer one
   * unless `force` (the index was just rebuilt: what it holds is at least as new as `header`).
   */
  recordPosition(name: string, header: SnapshotHeader, now: number, opts: { force?: boolean } = {}): void {
    if (!this.writable || this.closed) return;
    this.db
      .transaction(() => {
        if (!opts.force && this.hasNewer(name, header)) return;
        this.db
          .prepare('INSERT OR REPLACE INTO snapshot(name, generation, format, conditions, epoch, seq, written_at) VALUES (?, 0, ?, ?, ?, ?, ?)')
          .run(name, header.format, header.conditions, header.position.epoch, header.position.seq, now);
      })
      .immediate();
  }

  /** Forgets an index's snapshot (its data no longer matches). */
  forget(name: string): void {
    if (!this.writable || this.closed) return;
    this.db.prepare('DELETE FROM snapshot WHERE name = ?').run(name);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  // ---------------------------------------------------------------- used by SnapshotWrite

  /** @internal */
  beginGeneration(name: string, now: number): number {
    return Number(this.db.prepare('INSERT INTO snapshot_generation(name, started_at) VALUES (?, ?)').run(name, now).lastInsertRowid);
  }

  /** @internal */
  writeChunk(generation: number, part: string, chunk: number, data: Uint8Array): void {
    this.db.prepare('INSERT OR REPLACE INTO snapshot_chunk(generation, part, chunk, data) VALUES (?, ?, ?, ?)').run(generation, part, chunk, data);
  }

  /**
   * Points the index at the new generation unless another process committed a newer position
   * meanwhile (then ours is dropped); drops the replaced generation and orphans of crashed writers.
   * @internal
   */
  commitGeneration(name: string, generation: number, header: SnapshotHeader, partInfo: readonly { part: string; bytes: number; crc: number; chunks: number }[], now: number): boolean {
    return this.db
      .transaction(() => {
        const newer = this.hasNewer(name, header);
        if (!newer) {
          const insPart = this.db.prepare('INSERT OR REPLACE INTO snapshot_part(generation, part, bytes, crc, chunks) VALUES (?, ?, ?, ?, ?)');
          for (const p of partInfo) insPart.run(generation, p.part, p.bytes, p.crc, p.chunks);
          this.db
            .prepare('INSERT OR REPLACE INTO snapshot(name, generation, format, conditions, epoch, seq, written_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
            .run(name, generation, header.format, header.conditions, header.position.epoch, header.position.seq, now);
        } else {
          this.dropGeneration(generation);
        }
        // Generations no snapshot points at: the one just replaced, and any a crashed writer left.
        const unused = this.db
          .prepare(
            `SELECT id FROM snapshot_generation g WHERE NOT EXISTS (SELECT 1 FROM snapshot s WHERE s.generation = g.id)
               AND (g.name = ? AND g.id < ? OR g.started_at < ?)`,
          )
          .pluck()
          .all(name, generation, now - ORPHAN_AGE_MS) as number[];
        for (const g of unused) this.dropGeneration(g);
        return !newer;
      })
      .immediate();
  }

  /**
   * Moves the new snapshot from the WAL into the file (where the memory map reads it) and
   * truncates the WAL, unless a reader holds it (then later).
   * @internal
   */
  checkpoint(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  /** @internal */
  abandonGeneration(generation: number): void {
    if (this.closed) return;
    this.db.transaction(() => this.dropGeneration(generation)).immediate();
  }

  private dropGeneration(generation: number): void {
    this.db.prepare('DELETE FROM snapshot_chunk WHERE generation = ?').run(generation);
    this.db.prepare('DELETE FROM snapshot_part WHERE generation = ?').run(generation);
    this.db.prepare('DELETE FROM snapshot_generation WHERE id = ?').run(generation);
  }

  /** Whether the sidecar already holds this index at a later position of the same feed epoch. */
  private hasNewer(name: string, header: SnapshotHeader): boolean {
    const row = this.db.prepare('SELECT epoch, seq, format, conditions FROM snapshot WHERE name = ?').get(name) as
      | { epoch: string; seq: number; format: string; conditions: string }
      | undefined;
    return !!row && row.epoch === header.position.epoch && row.format === header.format && row.conditions === header.conditions && row.seq > header.position.seq;
  }
}

/** One snapshot being written, a chunk at a time (see IndexSidecar.write). */
export class SnapshotWrite {
  private readonly queue: { part: string; chunk: number; data: Uint8Array }[] = [];
  private readonly partInfo: { part: string; bytes: number; crc: number; chunks: number }[] = [];
  private generation: number | null = null;
  private done = false;

  constructor(
    private readonly sidecar: IndexSidecar,
    private readonly name: string,
    private readonly header: SnapshotHeader,
    parts: SnapshotParts,
    private readonly now: number,
  ) {
    for (const [part, data] of parts) {
      const chunks = Math.max(1, Math.ceil(data.byteLength / CHUNK_BYTES));
      for (let c = 0; c < chunks; c++) this.queue.push({ part, chunk: c, data: data.subarray(c * CHUNK_BYTES, (c + 1) * CHUNK_BYTES) });
      this.partInfo.push({ part, bytes: data.byteLength, crc: crc32(data), chunks });
    }
    this.queue.reverse();
  }

  get finished(): boolean {
    return this.done;
  }

  /** Writes the next chunk (or, when none is left, commits); true once the snapshot is committed or dropped. */
  step(): boolean {
    if (this.done) return true;
    if (this.sidecar.isClosed) {
      this.done = true;
      return true;
    }
    this.generation ??= this.sidecar.beginGeneration(this.name, this.now);
    const next = this.queue.pop();
    if (next) {
      this.sidecar.writeChunk(this.generation, next.part, next.chunk, next.data);
      return false;
    }
    this.sidecar.commitGeneration(this.name, this.generation, this.header, this.partInfo, this.now);
    this.sidecar.checkpoint();
    this.done = true;
    return true;
  }

  finish(): void {
    while (!this.step());
  }

  /** Stops writing and removes what was written (the previous snapshot stays). */
  abandon(): void {
    if (this.done) return;
    this.done = true;
    if (this.generation !== null) this.sidecar.abandonGeneration(this.generation);
  }
}

function isDamage(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('SQLITE_NOTADB') || code.startsWith('SQLITE_CORRUPT'));
}

function removeSidecarFiles(path: string): void {
  for (const p of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(p)) unlinkSync(p);
}
