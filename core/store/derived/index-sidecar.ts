/**
 * The index sidecar: a SQLite file beside the store (`<store file>.mnemo-index`) holding snapshots
 * of the derived indexes, so a process opening a big store reads them instead of rebuilding them
 * (docs/store-format.md describes the file). The store itself is never written for this: a nooa
 * file stays as nooa wrote it.
 *
 * A snapshot is a set of named parts (snapshot-parts.ts). Its bytes go into a plain file of their
 * own under a new generation (snapshot-file.ts: read back with one read, used in place), a piece
 * per call (snapshot-write.ts: a 100 MB snapshot never holds the thread for long), synced and
 * renamed into place; a last short transaction (sidecar-generations.ts) records where each part
 * lies, points the index's row at the new generation and drops the old one. A crash before that leaves the previous snapshot (and an
 * orphan file, swept later); after it, the new one. Never a mix. Each part carries its length and
 * CRC-32, so a damaged file reads as "no snapshot" (rebuild), never as a wrong index.
 *
 * Anything going wrong with the sidecar (cannot create it, read-only directory, corrupt, from
 * another build: sidecar-format.ts) costs a rebuild and at most one warning: the caller gets null,
 * never an error.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { FeedPosition } from '../port/feed-position.js';
import type { IndexSidecarLocation } from '../port/store-rows.js';
import { sqliteBindingOf } from '../sqlite/connection.js';
import type { DB } from '../sqlite/sqlite.js';
import { isDamage, mayWriteBeside, openSidecarFile, removeSidecarFiles } from './sidecar-format.js';
import {
  beginGeneration,
  claimGeneration,
  dropGeneration,
  generationIds,
  knowsGeneration,
  lookUpSnapshot,
  publishGeneration,
  readHeader,
  recordPosition,
  UNDER_WAY_S,
  type SnapshotClaim,
  type SnapshotHeader,
} from './sidecar-generations.js';
import { clearBuilding, markBuilding, othersBuilding } from './sidecar-holders.js';
import { PartsFile, partsFile, removePartsDir, removePartsFiles, sweepPartsFiles, type PartEntry, type SharedTexts } from './snapshot-file.js';
import type { PartSource, SnapshotParts } from './snapshot-parts.js';
import { dropErased, erasableContents } from './sidecar-erase.js';
import { SnapshotWrite } from './snapshot-write.js';

export { sidecarPath } from './sidecar-name.js';
export type { SnapshotClaim, SnapshotHeader } from './sidecar-generations.js';
export { SnapshotWrite } from './snapshot-write.js';

/** Reading a generation whose file another process just replaced: look up the current one again, this many times. */
const READ_ATTEMPTS = 3;

export interface StoredSnapshot extends SnapshotHeader {
  /** Each part read, and its CRC checked, when first asked for (PartsFile). */
  parts: PartSource;
}

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

export class IndexSidecar {
  private closed = false;
  /** This handle, in index_build: two engines of one process are two builders (tests, time travel). */
  private readonly holder = randomUUID();
  /** The generation file each index was last read from, open while it has parts not yet read. */
  private readonly openFiles = new Map<string, PartsFile>();
  /** Text parts the indexes' snapshot files have read, shared between them (the same ids in each: PartsFile.get). */
  private readonly sharedTexts: SharedTexts = new Map();

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
    const attempt = () => new IndexSidecar(path, openSidecarFile(path, writable, binding), writable, warn);
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

  /** The connection, for an index that lives in the sidecar itself (the list's text search). */
  connection(): DB {
    return this.db;
  }

  /** The header of an index's snapshot, without its parts; null when there is none. */
  header(name: string): SnapshotHeader | null {
    if (this.closed) return null;
    try {
      return readHeader(this.db, name);
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
        const found = lookUpSnapshot(this.db, name);
        if (!found) return null;
        const total = found.entries.reduce((end, e) => Math.max(end, e.offset + e.bytes), 0);
        const parts = PartsFile.open(this.partsPath(found.generation), found.entries, total, this.sharedTexts);
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
    return claimGeneration(this.db, this.holder, name, header, since, now, opts.force === true);
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
    recordPosition(this.db, name, header, now, opts.force === true);
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
    return beginGeneration(this.db, name, now);
  }

  /** Publishes a written generation (publishGeneration), then removes the files of those dropped. True when ours is published. @internal */
  commitGeneration(name: string, generation: number, header: SnapshotHeader, entries: readonly PartEntry[], now: number): boolean {
    const { committed, dropped } = publishGeneration(this.db, name, generation, header, entries, now);
    // After the commit: a reader that looked a dropped generation up before it finds its file gone and looks again.
    removePartsFiles(this.path, dropped);
    sweepPartsFiles(this.path, () => generationIds(this.db));
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
    return knowsGeneration(this.db, generation);
  }

  /** @internal */
  abandonGeneration(generation: number): void {
    if (this.closed) return;
    this.db.transaction(() => dropGeneration(this.db, generation)).immediate();
    removePartsFiles(this.path, [generation]);
  }
}
