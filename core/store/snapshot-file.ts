/**
 * A snapshot's bytes, in a plain file of their own per generation, in a folder beside the index
 * sidecar (`<store>.mnemo-index.parts/g<generation>.bin`; the sidecar's SQLite tables say which
 * generation is current and where each part lies). Read back with one read into one buffer whose
 * parts are then used in place as typed-array views: the bytes cross into memory once, where
 * SQLite blobs cost two copies (SQLite's, then the Buffer's), and touching fresh memory is the
 * slowest thing a read does on a small virtual machine.
 *
 * Parts lie at 8-byte aligned offsets, so a view of any typed array needs no copy. A file is
 * written under `.tmp`, synced, then renamed to its final name, before the sidecar points at its
 * generation: a reader that finds the file finds it whole. Each part's length and CRC-32 are
 * checked on read, so a damaged file reads as "no snapshot" (a rebuild), never as a wrong index.
 */
import { closeSync, existsSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readSync, readdirSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { SnapshotParts } from './snapshot-parts.js';

/** Where one part lies in its generation's file. */
export interface PartEntry {
  part: string;
  offset: number;
  bytes: number;
  crc: number;
}

const ALIGN = 8;
const FILE_NAME = /^g(\d+)\.bin(\.tmp)?$/;

export function partsDir(sidecarPath: string): string {
  return `${sidecarPath}.parts`;
}

export function partsFile(sidecarPath: string, generation: number): string {
  return join(partsDir(sidecarPath), `g${generation}.bin`);
}

/** Each part's place in the file (8-byte aligned) and CRC, and the file's length. */
export function layOut(parts: SnapshotParts): { entries: PartEntry[]; total: number } {
  const entries: PartEntry[] = [];
  let total = 0;
  for (const [part, data] of parts) {
    const offset = Math.ceil(total / ALIGN) * ALIGN;
    entries.push({ part, offset, bytes: data.byteLength, crc: crc32(data) });
    total = offset + data.byteLength;
  }
  return { entries, total };
}

/** Writes one generation's file a piece at a time (`writeNext`), then `seal()`s it under its final name. */
export class PartsFileWriter {
  private fd: number | null = null;
  private readonly pieces: { position: number; data: Uint8Array }[] = [];
  private readonly tmpPath: string;

  constructor(
    private readonly finalPath: string,
    parts: SnapshotParts,
    entries: readonly PartEntry[],
    pieceBytes: number,
  ) {
    this.tmpPath = `${finalPath}.tmp`;
    for (const e of entries) {
      const data = parts.get(e.part)!;
      for (let at = 0; at < data.byteLength; at += pieceBytes) this.pieces.push({ position: e.offset + at, data: data.subarray(at, at + pieceBytes) });
    }
    this.pieces.reverse();
  }

  /** Writes the next piece; true once every piece is written. */
  writeNext(): boolean {
    if (this.fd === null) {
      mkdirSync(join(this.finalPath, '..'), { recursive: true });
      this.fd = openSync(this.tmpPath, 'w');
    }
    const piece = this.pieces.pop();
    if (!piece) return true;
    writeAll(this.fd, piece.data, piece.position);
    return this.pieces.length === 0;
  }

  /** Syncs the file to disk and gives it its final name (a reader finds it whole or not at all). */
  seal(total: number): void {
    while (!this.writeNext());
    const fd = this.fd!;
    // Its exact length (a last part that is empty leaves none of its bytes): a reader checks it first.
    ftruncateSync(fd, total);
    fsyncSync(fd);
    closeSync(fd);
    this.fd = null;
    renameSync(this.tmpPath, this.finalPath);
  }

  /** Stops and removes what was written. */
  discard(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    rmSync(this.tmpPath, { force: true });
  }
}

/**
 * A generation's parts, read with one read into one buffer and checked; 'missing' when the file is
 * not there (another process replaced that generation meanwhile), 'damaged' when it does not match.
 */
export function readPartsFile(path: string, entries: readonly PartEntry[], total: number): SnapshotParts | 'missing' | 'damaged' {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return 'missing';
    throw err;
  }
  let buffer: Uint8Array;
  try {
    if (fstatSync(fd).size !== total) return 'damaged';
    buffer = new Uint8Array(new ArrayBuffer(total));
    for (let at = 0; at < total; ) {
      const n = readSync(fd, buffer, at, total - at, at);
      if (n === 0) return 'damaged';
      at += n;
    }
  } finally {
    closeSync(fd);
  }
  const parts: SnapshotParts = new Map();
  for (const e of entries) {
    if (e.offset % ALIGN !== 0 || e.offset + e.bytes > total) return 'damaged';
    const view = buffer.subarray(e.offset, e.offset + e.bytes);
    if (crc32(view) !== e.crc) return 'damaged';
    parts.set(e.part, view);
  }
  return parts;
}

/** Removes generations' files (a reader holding one open keeps reading it; a failure leaves it for the next sweep). */
export function removePartsFiles(sidecarPath: string, generations: readonly number[]): void {
  for (const g of generations) {
    for (const p of [partsFile(sidecarPath, g), `${partsFile(sidecarPath, g)}.tmp`]) {
      try {
        unlinkSync(p);
      } catch {
        // Gone already, or held open where that forbids removal: swept later.
      }
    }
  }
}

/** Removes the files of generations the sidecar no longer knows (a crashed writer's, a removal that failed). */
export function sweepPartsFiles(sidecarPath: string, known: (generation: number) => boolean): void {
  const dir = partsDir(sidecarPath);
  if (!existsSync(dir)) return;
  const stale: number[] = [];
  for (const name of readdirSync(dir)) {
    const m = FILE_NAME.exec(name);
    if (m && !known(Number(m[1]))) stale.push(Number(m[1]));
  }
  removePartsFiles(sidecarPath, stale);
}

export function removePartsDir(sidecarPath: string): void {
  rmSync(partsDir(sidecarPath), { recursive: true, force: true });
}

function writeAll(fd: number, data: Uint8Array, position: number): void {
  for (let at = 0; at < data.byteLength; ) at += writeSync(fd, data, at, data.byteLength - at, position + at);
}
