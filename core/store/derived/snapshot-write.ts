/**
 * One snapshot being written into the index sidecar, a piece at a time (IndexSidecar.write): its
 * parts go into a new generation's file (snapshot-file.ts), a piece per step so a 100 MB snapshot
 * never holds the thread for long; once sealed, a short transaction publishes the generation.
 */
import type { SnapshotHeader } from './sidecar-generations.js';
import { layOut, PartsFileWriter, type PartEntry } from './snapshot-file.js';
import type { SnapshotParts } from './snapshot-parts.js';

/** The most written per turn of the event loop (a write of ~10 ms on a slow disk). */
const PIECE_BYTES = 16 * 1024 * 1024;

/** What a write needs of the sidecar it writes into (an IndexSidecar). */
export interface SnapshotWriteTarget {
  readonly isClosed: boolean;
  partsPath(generation: number): string;
  beginGeneration(name: string, now: number): number;
  knowsGeneration(generation: number): boolean;
  commitGeneration(name: string, generation: number, header: SnapshotHeader, entries: readonly PartEntry[], now: number): boolean;
  checkpoint(): void;
  abandonGeneration(generation: number): void;
}

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
    private readonly sidecar: SnapshotWriteTarget,
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
