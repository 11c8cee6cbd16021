/**
 * The index sidecar: a SQLite file beside the store (`<store file>.mnemo-index`) holding snapshots
 * of the derived indexes, so a process opening a big store reads them instead of rebuilding them
 * (docs/store-format.md describes the file). The store itself is never written for this: a nooa
 * file stays as nooa wrote it.
 *
 * A snapshot is a set of named parts (snapshot-parts.ts). Its bytes go into a plain file of their
 * own under a new generation (snapshot-file.ts: read back with one read, used in place), a piece
 * per call (a 100 MB snapshot never holds the thread for long), synced and renamed into place; a
 * last short transaction here records where each part lies, points the index's row at the new
 * generation and drops the old one. A crash before that leaves the previous snapshot (and an
 * orphan file, swept later); after it, the new one. Never a mix. Each part carries its length and
 * CRC-32, so a damaged file reads as "no snapshot" (rebuild), never as a wrong index.
 *
 * Anything going wrong with the sidecar (cannot create it, read-only directory, corrupt, from
 * another build) costs a rebuild and at most one warning: the caller gets null, never an error.
 */
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { sqliteBindingOf } from '../sqlite/connection.js';
import type { DB } from '../sqlite/sqlite.js';
import type { FeedPosition } from '../port/feed-position.js';
import type { PartSource, SnapshotParts } from './snapshot-parts.js';
import { clearBuilding, HOLDER_SCHEMA, markBuilding, othersBuilding, recordWriter, uncommitted, writersGone } from './sidecar-holders.js';
import { dropErased, erasableContents, fromBeforeErase } from './sidecar-erase.js';
import { layOut, PartsFile, PartsFileWriter, partsFile, removePartsDir, removePartsFiles, sweepPartsFiles, type PartEntry } from './snapshot-file.js';

/**
 * Bump when the file's tables or the parts' files change; `le`: typed arrays are stored
 * little-endian. 2: the parts moved out of SQLite blobs into a file per generation. 3: a CRC per
 * 4 KB block of each part (read a part's bytes, or some of them, when first needed).
 */
const SIDECAR_FORMAT = 'mnemo-index/3/le';
/** The most written per turn of the event loop (a write of ~10 ms on a slow disk). */
const PIECE_BYTES = 16 * 1024 * 1024;
/** Reading a generation whose file another process just replaced: look up the current one again, this many times. */
const READ_ATTEMPTS = 3;
const MMAP_BYTES = 2 * 1024 * 1024 * 1024;
/** A generation nobody committed for this long (seconds, as the store's clock counts) was left by a crashed writer. */
const ORPHAN_AGE_S = 60 * 60;
/**
 * A generation begun less than this long ago and not committed is another writer's snapshot under
 * way: a process whose own is due leaves that index to it (claim). Longer than any write takes (a
 * 100k store's take seconds), short enough that a writer killed mid-write holds nobody back long.
 * A writer on this machine whose process is gone holds nobody back at all (sidecar-holders.ts).
 */
const UNDER_WAY_S = 5 * 60;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS sidecar_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS snapshot_generation (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, started_at INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS snapshot (
    name TEXT PRIMARY KEY, generation INTEGER NOT NULL, format TEXT NOT NULL, conditions TEXT NOT NULL,
    epoch TEXT NOT NULL, seq INTEGER NOT NULL, written_at INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS snapshot_part (
    generation INTEGER NOT NULL, part TEXT NOT NULL, offset INTEGER NOT NULL, bytes INTEGER NOT NULL, crc INTEGER NOT NULL,
    PRIMARY KEY (generation, part));
`;

/** What a snapshot was built from: its encoding, the conditions it depends on, the feed position it reflects. */
export interface SnapshotHeader {
  format: string;
  conditions: string;
  position: FeedPosition;
}

export interface StoredSnapshot extends SnapshotHeader {
  /** Each part read, and its CRC checked, when first asked for (PartsFile). */
  parts: PartSource;
}

export { sidecarPath } from './sidecar-name.js';
import type { IndexSidecarLocation } from '../port/store-rows.js';

/**
 * What the sidecar needs of the store it sits beside (a StoreReader is one): two of the port's methods,
 * so that a test can give it a location without a store.
 */
export interface SidecarOwner {
  indexSidecarLocation(): IndexSidecarLocation | null;
  warn(key: string, message: string): void;
}

export interface SidecarOpenOptions {
  /**
   * Write the sidecar even when the store was opened read-only (a one-shot command such as
   * `mnemo explain`): the sidecar is a cache beside the store, never the store, and a command that
   * built an index should leave it for the next one. Only where this process may write that file.
   */
  keepBesideReadOnly?: boolean;
}

/** Whether this process may create or write the sidecar at `path` (and its -wal and parts beside it). */
function mayWriteBeside(path: string): boolean {
  try {
    accessSync(dirname(path), constants.W_OK);
    if (existsSync(path)) accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

export class IndexSidecar {
  private closed = false;
  /** This handle, in index_build: two engines of one process are two builders (tests, time travel). */
  private readonly holder = randomUUID();
  /** The generation file each index was last read from, open while it has parts not yet read. */
  private readonly openFiles = new Map<string, PartsFile>();

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
  static open(store: SidecarOwner, opts: SidecarOpenOptions = {}): IndexSidecar | null {
    const location = store.indexSidecarLocation();
    if (!location) return null;
    const { path } = location;
    const writable = location.writable || (opts.keepBesideReadOnly === true && mayWriteBeside(path));
    const warn = (message: string) => store.warn('index-sidecar', `${message}; indexes are built in memory instead`);
    if (!writable && !existsSync(path)) return null;
    const binding = sqliteBindingOf(store);
    const attempt = (): IndexSidecar => {
      // A cache folder (a PostgreSQL store's, pg-index-cache.ts) may not exist yet; only its user reads it.
      if (writable) mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      const db = new Database(path, { readonly: !writable, fileMustExist: !writable, ...(binding ? { nativeBinding: binding } : {}) });
      try {
        db.pragma('busy_timeout = 5000');
        // The list's text search (an FTS5 table here) reads many pages per query: a memory map
        // and big pages spare it a read() call per 4 KB page (page_size only takes on a new, empty file).
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

  /** Whether a sidecar file is at `path` (without opening, let alone creating, it). */
  static exists(path: string): boolean {
    return existsSync(path);
  }

  /** Where a generation's parts are (snapshot-file.ts). */
  partsPath(generation: number): string {
    return partsFile(this.path, generation);
  }

  /** Creates the tables, or starts over when the file was written by another format. */
  private prepare(): void {
    const db = this.db;
    const { hasMeta, format } = this.formatIn();
    if (format === SIDECAR_FORMAT) {
      if (this.writable) db.exec(HOLDER_SCHEMA);
      return;
    }
    if (!this.writable) throw new Error(hasMeta ? `written by another format (${format ?? 'none'})` : 'not an index file');
    const startedOver = db
      .transaction(() => {
        // Looked at again under the write lock: processes opening a new file at once all saw no
        // format above, and only the first may start it (a second would drop the tables and the
        // files the first has begun writing since).
        const current = this.formatIn();
        if (current.format === SIDECAR_FORMAT) return false;
        if (current.hasMeta) {
          const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
          for (const t of tables) db.exec(`DROP TABLE IF EXISTS "${t.replace(/"/g, '""')}"`);
        }
        db.exec(SCHEMA);
        db.exec(HOLDER_SCHEMA);
        db.prepare("INSERT OR REPLACE INTO sidecar_meta(key, value) VALUES ('format', ?)").run(SIDECAR_FORMAT);
        // Before the commit: once it is visible, another process may begin a generation's file in there.
        removePartsDir(this.path);
        return true;
      })
      .immediate();
    // An earlier format's blobs leave the file ~100 MB of free pages: give them back, once.
    if (startedOver && hasMeta) db.exec('VACUUM');
  }

  /** Whether the file has its meta table, and the format it names (undefined: none). */
  private formatIn(): { hasMeta: boolean; format: string | undefined } {
    const hasMeta = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sidecar_meta'").get() !== undefined;
    const format = hasMeta ? (this.db.prepare("SELECT value FROM sidecar_meta WHERE key = 'format'").pluck().get() as string | undefined) : undefined;
    return { hasMeta, format };
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

  /**
   * An index's snapshot, its parts read when first asked for; null when missing or damaged
   * (damage warns; a part found damaged later throws SnapshotDamaged, see reportDamage). When
   * another process replaced the generation between looking it up and opening its file, looks again.
   */
  read(name: string): StoredSnapshot | null {
    if (this.closed) return null;
    try {
      for (let attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
        const found = this.lookUp(name);
        if (!found) return null;
        const total = found.entries.reduce((end, e) => Math.max(end, e.offset + e.bytes), 0);
        const parts = PartsFile.open(this.partsPath(found.generation), found.entries, total);
        if (parts === 'missing') continue;
        if (parts === 'damaged') {
          this.reportDamage(name);
          return null;
        }
        this.openFiles.get(name)?.close();
        this.openFiles.set(name, parts);
        return { ...found.header, parts };
      }
      this.warn(`the index file ${this.path}: the snapshot of ${name} is missing its parts; rebuilding it`);
      return null;
    } catch (err) {
      this.warn(`cannot read the index file ${this.path} (${(err as Error).message})`);
      return null;
    }
  }

  /** A snapshot's bytes do not match what was written: warns, and forgets it (the index is rebuilt and written again). */
  reportDamage(name: string): void {
    this.warn(`the index file ${this.path} has a damaged snapshot of ${name}; rebuilding it`);
    try {
      this.forget(name);
    } catch {
      // A read-only or busy sidecar keeps it; the next writer replaces it.
    }
  }

  /** The current generation of an index, its header and where its parts lie, read in one transaction. */
  private lookUp(name: string): { generation: number; header: SnapshotHeader; entries: PartEntry[] } | null {
    return this.db
      .transaction(() => {
        const row = this.db.prepare('SELECT generation, format, conditions, epoch, seq FROM snapshot WHERE name = ?').get(name) as
          | { generation: number; format: string; conditions: string; epoch: string; seq: number }
          | undefined;
        if (!row) return null;
        const entries = this.db.prepare('SELECT part, offset, bytes, crc FROM snapshot_part WHERE generation = ? ORDER BY offset').all(row.generation) as PartEntry[];
        return { generation: row.generation, header: { format: row.format, conditions: row.conditions, position: { epoch: row.epoch, seq: row.seq } }, entries };
      })
      .deferred();
  }

  /**
   * Starts writing a snapshot; `step()` writes one piece per call (call it from separate ticks),
   * `finish()` runs the rest at once. Null when the sidecar is read-only.
   */
  write(name: string, header: SnapshotHeader, parts: SnapshotParts, now: number, claimed: number | null = null): SnapshotWrite | null {
    if (!this.writable || this.closed) return null;
    return new SnapshotWrite(this, name, header, parts, now, claimed);
  }

  /**
   * Claims the writing of an index's snapshot before it is encoded, in one transaction across
   * processes: every agent on a store and the workbench beside them patch the same changes and
   * would each encode the same index at about the same moment, holding their threads for as long
   * as an encoding takes (seconds at 100k memories), for one snapshot that is kept.
   * - `covered`: the sidecar already holds this index at a position later than `since` (the one
   *   the caller's last snapshot or load reflected): another process wrote it since.
   * - `busy`: another writer began one in the last UNDER_WAY_S and has not committed it, and is
   *   not known to be gone (a process of this machine that no longer runs: killed mid-write).
   * - `claimed`: the generation to write (SnapshotWrite takes it), begun now.
   * `force` claims unless covered: a write the caller must leave (index-handoff.ts) waits for nobody.
   */
  claim(name: string, header: SnapshotHeader, since: FeedPosition, now: number, opts: { force?: boolean } = {}): SnapshotClaim | null {
    if (!this.writable || this.closed) return null;
    return this.db
      .transaction((): SnapshotClaim => {
        // Built: whoever writes the snapshot now, the processes waiting on this build wait on that.
        clearBuilding(this.db, this.holder, name);
        const held = this.db.prepare('SELECT epoch, seq FROM snapshot WHERE name = ?').get(name) as { epoch: string; seq: number } | undefined;
        if (held && this.holdsNewer(name, { ...header, position: since })) return { kind: 'covered', position: { epoch: held.epoch, seq: held.seq } };
        if (!opts.force) {
          const underWay = this.db
            .prepare(
              `SELECT g.id FROM snapshot_generation g WHERE g.name = ? AND g.started_at > ? AND ${uncommitted('g.id')}`,
            )
            .pluck()
            .all(name, now - UNDER_WAY_S) as number[];
          const gone = writersGone(this.db);
          if (underWay.some((g) => !gone.has(g))) return { kind: 'busy' };
        }
        return { kind: 'claimed', generation: this.beginGeneration(name, now) };
      })
      .immediate();
  }

  /** Says this handle is building an index from the store (sidecar-holders.ts); nothing when read-only. */
  markBuilding(name: string, format: string, conditions: string, now: number): void {
    if (this.writable && !this.closed) markBuilding(this.db, this.holder, name, format, conditions, now);
  }

  /** This handle stopped building it (closed mid-build, or before its snapshot's write was claimed). */
  clearBuilding(name: string): void {
    if (this.writable && !this.closed) clearBuilding(this.db, this.holder, name);
  }

  /** Whether another process builds this index or writes its snapshot (sidecar-holders.ts): a caller about to build it waits instead. */
  othersBuilding(name: string, format: string, conditions: string, now: number): boolean {
    return !this.closed && othersBuilding(this.db, this.holder, name, format, conditions, now, UNDER_WAY_S);
  }

  /**
   * Records the position of an index that lives in the sidecar (no parts); keeps a newer one
   * unless `force` (the index was just rebuilt: what it holds is at least as new as `header`).
   */
  recordPosition(name: string, header: SnapshotHeader, now: number, opts: { force?: boolean } = {}): void {
    if (!this.writable || this.closed) return;
    this.db
      .transaction(() => {
        if (!opts.force && this.holdsNewer(name, header)) return;
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

  /** How many index snapshots the file holds, and rows of the list's text search (of these memories, or all): what an erase would drop. */
  contents(ids?: readonly string[]): { snapshots: number; text_rows: number } {
    if (this.closed) return { snapshots: 0, text_rows: 0 };
    return erasableContents(this.db, ids);
  }

  /**
   * Drops what an erase must take out of the file (sidecar-erase.ts): every snapshot with its
   * parts' files, and the erased memories' rows of the list's text search, their FTS5 segments
   * merged away; records the feed position the erase ended at (`through`), before which no
   * snapshot is published again; then the file is rewritten (VACUUM) and its WAL truncated, so none
   * of the old bytes stay beside the store. A dropped snapshot is rebuilt, or written again by a
   * process whose indexes patched the erase in. Another process reading a snapshot's file keeps the
   * file it has open until it lets it go (its name is gone).
   */
  purge(erased: readonly string[], through: FeedPosition | null): { snapshots: number; text_rows: number; problems: string[] } {
    const problems: string[] = [];
    if (!this.writable || this.closed) return { snapshots: 0, text_rows: 0, problems: [`the index file ${this.path} is read-only here; its snapshots were not dropped`] };
    const counted = this.contents(erased);
    const db = this.db;
    db.pragma('secure_delete = ON');
    db.transaction(() => dropErased(db, erased, through)).immediate();
    for (const file of this.openFiles.values()) file.close();
    this.openFiles.clear();
    try {
      removePartsDir(this.path);
    } catch (err) {
      // The rows above are gone already: the receipt must still come back, naming what is left.
      problems.push(`the folder of the index snapshots' parts beside ${this.path} could not be removed (${(err as Error).message}): remove it by hand`);
    }
    try {
      db.exec('VACUUM');
    } catch (err) {
      problems.push(`the index file ${this.path} could not be rewritten (${(err as Error).message}); its freed pages are zeroed (secure_delete)`);
    }
    const [ck] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
    if (ck && ck.busy !== 0) problems.push(`a reader kept the index file's WAL (${this.path}-wal) open, so it was not truncated`);
    return { ...counted, problems };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const file of this.openFiles.values()) file.close();
    this.openFiles.clear();
    this.db.close();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  // ---------------------------------------------------------------- used by SnapshotWrite

  /** @internal */
  beginGeneration(name: string, now: number): number {
    return this.db
      .transaction(() => {
        const generation = Number(this.db.prepare('INSERT INTO snapshot_generation(name, started_at) VALUES (?, ?)').run(name, now).lastInsertRowid);
        recordWriter(this.db, generation);
        return generation;
      })
      .immediate();
  }

  /**
   * Points the index at the new generation unless another process committed one at a later
   * position meanwhile, or at the same one begun after ours (then ours is dropped: a lost race, not
   * a failure); drops the generations no snapshot points at any more and those of crashed writers.
   * True when ours is published.
   *
   * Several processes may write the same index at once (agents on one PostgreSQL store share this
   * machine's cache file): a generation another writer has begun and not committed has no parts
   * recorded yet, and is left alone until ORPHAN_AGE_S has passed, with its file.
   * @internal
   */
  commitGeneration(name: string, generation: number, header: SnapshotHeader, entries: readonly PartEntry[], now: number): boolean {
    const dropped: number[] = [];
    const committed = this.db
      .transaction(() => {
        dropped.length = 0;
        // Not known any more: another process dropped it as a crashed writer's (begun over ORPHAN_AGE_S ago).
        // An index from before an erase may hold what it erased (its process had not caught up yet).
        const publish = this.knowsGeneration(generation) && !this.holdsNewer(name, header, generation) && !fromBeforeErase(this.db, header.position);
        if (publish) {
          const insPart = this.db.prepare('INSERT OR REPLACE INTO snapshot_part(generation, part, offset, bytes, crc) VALUES (?, ?, ?, ?, ?)');
          for (const p of entries) insPart.run(generation, p.part, p.offset, p.bytes, p.crc);
          this.db
            .prepare('INSERT OR REPLACE INTO snapshot(name, generation, format, conditions, epoch, seq, written_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
            .run(name, generation, header.format, header.conditions, header.position.epoch, header.position.seq, now);
          this.db.prepare('DELETE FROM snapshot_writer WHERE generation = ?').run(generation);
        } else {
          dropped.push(this.dropGeneration(generation));
        }
        // Generations no snapshot points at: committed ones since replaced (they have parts), and
        // any a crashed writer left (no parts, begun long ago).
        const unused = this.db
          .prepare(
            `SELECT id FROM snapshot_generation g WHERE NOT EXISTS (SELECT 1 FROM snapshot s WHERE s.generation = g.id)
               AND (EXISTS (SELECT 1 FROM snapshot_part p WHERE p.generation = g.id) OR g.started_at < ?)`,
          )
          .pluck()
          .all(now - ORPHAN_AGE_S) as number[];
        for (const g of new Set([...unused, ...writersGone(this.db)])) dropped.push(this.dropGeneration(g));
        return publish;
      })
      .immediate();
    // After the commit: a reader that looked a dropped generation up before it finds its file gone and looks again.
    removePartsFiles(this.path, dropped);
    sweepPartsFiles(this.path, () => new Set(this.db.prepare('SELECT id FROM snapshot_generation').pluck().all() as number[]));
    return committed;
  }

  /**
   * Moves the new snapshot's rows from the WAL into the file (where the memory map reads them) and
   * truncates the WAL, unless a reader holds it (then later).
   * @internal
   */
  checkpoint(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  /** Whether a generation begun is still recorded (not dropped as a crashed writer's). @internal */
  knowsGeneration(generation: number): boolean {
    return this.db.prepare('SELECT 1 FROM snapshot_generation WHERE id = ?').get(generation) !== undefined;
  }

  /** @internal */
  abandonGeneration(generation: number): void {
    if (this.closed) return;
    this.db.transaction(() => this.dropGeneration(generation)).immediate();
    removePartsFiles(this.path, [generation]);
  }

  private dropGeneration(generation: number): number {
    this.db.prepare('DELETE FROM snapshot_part WHERE generation = ?').run(generation);
    this.db.prepare('DELETE FROM snapshot_generation WHERE id = ?').run(generation);
    this.db.prepare('DELETE FROM snapshot_writer WHERE generation = ?').run(generation);
    return generation;
  }

  /**
   * Whether the sidecar already holds this index at a later position of the same feed epoch, or
   * (`begunAfter`) at the same one in a generation begun after that one: another process's, written
   * beside ours. One begun before ours is replaced: it may be the one this process could not read.
   */
  private holdsNewer(name: string, header: SnapshotHeader, begunAfter?: number): boolean {
    const row = this.db.prepare('SELECT generation, epoch, seq, format, conditions FROM snapshot WHERE name = ?').get(name) as
      | { generation: number; epoch: string; seq: number; format: string; conditions: string }
      | undefined;
    if (!row || row.epoch !== header.position.epoch || row.format !== header.format || row.conditions !== header.conditions) return false;
    return row.seq > header.position.seq || (begunAfter !== undefined && row.seq === header.position.seq && row.generation > begunAfter);
  }
}

/** What claim() found: the write is this process's, or another's snapshot makes it needless. */
export type SnapshotClaim = { kind: 'claimed'; generation: number } | { kind: 'covered'; position: FeedPosition } | { kind: 'busy' };

/** One snapshot being written, a piece at a time (see IndexSidecar.write). */
export class SnapshotWrite {
  private readonly entries: PartEntry[];
  private readonly total: number;
  /** The parts as written (with the table of their blocks' CRCs). */
  private readonly parts: SnapshotParts;
  private generation: number | null = null;
  private file: PartsFileWriter | null = null;
  private written = false;
  private done = false;
  private wasCommitted = false;

  constructor(
    private readonly sidecar: IndexSidecar,
    private readonly name: string,
    private readonly header: SnapshotHeader,
    parts: SnapshotParts,
    private readonly now: number,
    /** The generation claim() began for it, if any (else begun at the first step). */
    claimed: number | null = null,
  ) {
    this.generation = claimed;
    ({ parts: this.parts, entries: this.entries, total: this.total } = layOut(parts));
  }

  get finished(): boolean {
    return this.done;
  }

  /** The snapshot is in the sidecar (not dropped, abandoned or lost to a race). */
  get committed(): boolean {
    return this.wasCommitted;
  }

  /** Writes the next piece (or, when none is left, seals the file and commits); true once the snapshot is committed or dropped. */
  step(): boolean {
    if (this.done) return true;
    if (this.sidecar.isClosed) {
      this.abandon();
      return true;
    }
    if (this.generation === null) this.generation = this.sidecar.beginGeneration(this.name, this.now);
    if (this.file === null) {
      this.file = new PartsFileWriter(this.sidecar.partsPath(this.generation), this.parts, this.entries, PIECE_BYTES);
    }
    if (!this.written) {
      this.written = this.file!.writeNext();
      return false;
    }
    try {
      this.file!.seal(this.total);
    } catch (err) {
      // Taken for a crashed writer's (begun over ORPHAN_AGE_S ago: a process suspended meanwhile)
      // and dropped, with its file, by another process: lost like a race, not failed.
      if ((err as { code?: string }).code === 'ENOENT' && !this.sidecar.knowsGeneration(this.generation)) {
        this.file!.discard();
        this.done = true;
        return true;
      }
      throw err;
    }
    this.sidecar.commitGeneration(this.name, this.generation, this.header, this.entries, this.now);
    this.sidecar.checkpoint();
    this.done = true;
    this.wasCommitted = true;
    return true;
  }

  finish(): void {
    while (!this.step());
  }

  /** Stops writing and removes what was written (the previous snapshot stays). */
  abandon(): void {
    if (this.done) return;
    this.done = true;
    this.file?.discard();
    if (this.generation !== null) this.sidecar.abandonGeneration(this.generation);
  }
}

function isDamage(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('SQLITE_NOTADB') || code.startsWith('SQLITE_CORRUPT'));
}

function removeSidecarFiles(path: string): void {
  for (const p of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(p)) unlinkSync(p);
  removePartsDir(path);
}
