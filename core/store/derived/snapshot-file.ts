/**
 * A snapshot's bytes, in a plain file of their own per generation, in a folder beside the index
 * sidecar (`<store>.mnemo-index.parts/g<generation>.bin`; the sidecar's SQLite tables say which
 * generation is current and where each part lies). A part is read when an index first asks for
 * it, with one read into a buffer of its own, and used in place through typed-array views: the
 * bytes cross into memory once (SQLite blobs cost two copies), only those of the parts a caller
 * touches, and touching fresh memory is the slowest thing a read does on a small virtual machine.
 *
 * Parts lie at 8-byte aligned offsets, so a view of any typed array needs no copy. A file is
 * written under a temporary name of its writer's own (`g<generation>.bin.<pid>-<random>.tmp`: two
 * processes writing into one folder never share one), synced, then renamed to its final name,
 * before the sidecar points at its generation: a reader that finds the file finds it whole. Each
 * part's length and CRC-32 are checked when the part is read, so a damaged file reads as "no
 * snapshot" (a rebuild), never as a wrong index.
 */
import { closeSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readSync, readdirSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { SnapshotDamaged, SnapshotMismatch, type PartSource, type SnapshotParts } from './snapshot-parts.js';

/** Where one part lies in its generation's file. */
export interface PartEntry {
  part: string;
  offset: number;
  bytes: number;
  crc: number;
}

const ALIGN = 8;
/**
 * Each part is checked in blocks of this many bytes (a CRC-32 each, all in the file's last part,
 * BLOCKS_PART, whose own CRC is in the sidecar's table): a reader that needs a few hundred
 * entries of a part (one memory's access times, one dimension's vector list) reads and checks the
 * blocks that hold them, not the whole part.
 */
export const BLOCK_BYTES = 4096;
const BLOCKS_PART = '#blocks';
/** Ranges read of one part after which the rest of it is read whole (a snapshot being written, a long catch-up). */
const RANGES_BEFORE_WHOLE = 512;
/** A generation's file, or a writer's temporary one (`.tmp` alone: written by an earlier build). */
const FILE_NAME = /^g(\d+)\.bin(?:\.(?:\d+-[0-9a-f]+\.)?tmp)?$/;

export function partsDir(sidecarPath: string): string {
  return `${sidecarPath}.parts`;
}

export function partsFile(sidecarPath: string, generation: number): string {
  return join(partsDir(sidecarPath), `g${generation}.bin`);
}

/**
 * Each part's place in the file (8-byte aligned) and CRC, and the file's length; the parts as
 * written, with the table of their blocks' CRCs added last.
 */
export function layOut(given: SnapshotParts): { parts: SnapshotParts; entries: PartEntry[]; total: number } {
  const parts: SnapshotParts = new Map([...given].filter(([part]) => part !== BLOCKS_PART));
  parts.set(BLOCKS_PART, new Uint8Array(blockChecksums(parts).buffer));
  const entries: PartEntry[] = [];
  let total = 0;
  for (const [part, data] of parts) {
    const offset = Math.ceil(total / ALIGN) * ALIGN;
    entries.push({ part, offset, bytes: data.byteLength, crc: crc32(data) });
    total = offset + data.byteLength;
  }
  return { parts, entries, total };
}

/** The CRC of every block of every part, part after part (in the parts' order). */
function blockChecksums(parts: SnapshotParts): Uint32Array {
  let blocks = 0;
  for (const data of parts.values()) blocks += blockCount(data.byteLength);
  const crcs = new Uint32Array(blocks);
  let b = 0;
  for (const data of parts.values()) for (let at = 0; at < data.byteLength; at += BLOCK_BYTES) crcs[b++] = crc32(data.subarray(at, at + BLOCK_BYTES));
  return crcs;
}

const blockCount = (bytes: number) => Math.ceil(bytes / BLOCK_BYTES);

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
    // Its own name: another process may be writing a file of its own beside it (see sweepPartsFiles).
    this.tmpPath = `${finalPath}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
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
 * A generation's file, opened and its layout checked; each part read when first asked for (one
 * read of its byte range into a buffer of its own, so any typed array views it in place), or only
 * some of its bytes (range), and every block read checked against its CRC: the first recall after
 * an open reads only what it touches. The file stays open until close() (so a generation another
 * process replaces meanwhile is still read whole: an unlinked file stays readable while open).
 */
export class PartsFile implements PartSource {
  private readonly entries = new Map<string, PartEntry & { firstBlock: number }>();
  private readonly read = new Map<string, Uint8Array>();
  private readonly ranges = new Map<string, number>();

  private constructor(
    private fd: number | null,
    private readonly blockCrcs: Uint32Array,
    entries: readonly PartEntry[],
    /** Where the files of one sidecar share the text parts they have read (null: nowhere). */
    private readonly sharedTexts: SharedTexts | null,
  ) {
    let b = 0;
    for (const e of entries) {
      if (e.part === BLOCKS_PART) continue;
      this.entries.set(e.part, { ...e, firstBlock: b });
      b += blockCount(e.bytes);
    }
  }

  /**
   * 'missing' when the file is not there (another process replaced that generation meanwhile),
   * 'damaged' when its length, its layout or its table of block CRCs does not match.
   */
  static open(path: string, entries: readonly PartEntry[], total: number, sharedTexts: SharedTexts | null = null): PartsFile | 'missing' | 'damaged' {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT') return 'missing';
      throw err;
    }
    const table = entries.find((e) => e.part === BLOCKS_PART);
    const blocks = entries.reduce((n, e) => (e.part === BLOCKS_PART ? n : n + blockCount(e.bytes)), 0);
    const fits = fstatSync(fd).size === total && table?.bytes === blocks * 4 && entries.every((e) => e.offset % ALIGN === 0 && e.offset + e.bytes <= total);
    const crcs = fits ? readAt(fd, table!.offset, table!.bytes) : null;
    if (!crcs || crc32(crcs) !== table!.crc) {
      closeSync(fd);
      return 'damaged';
    }
    return new PartsFile(fd, new Uint32Array(crcs.buffer, 0, blocks), entries, sharedTexts);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  byteLength(name: string): number | undefined {
    return this.entries.get(name)?.bytes;
  }

  /** The part's bytes, read and checked on the first call; throws SnapshotDamaged when they do not match. */
  get(name: string): Uint8Array | undefined {
    const done = this.read.get(name);
    if (done) return done;
    const e = this.entries.get(name);
    if (!e) return undefined;
    const shared = name.endsWith('.utf8') || name.endsWith('.len') ? this.sharedTexts : null;
    const key = shared ? this.contentKey(e) : '';
    const twin = shared?.get(key)?.deref();
    if (twin) {
      this.read.set(name, twin);
      return twin;
    }
    const bytes = this.blocks(e, 0, e.bytes);
    if (shared) shareText(shared, key, bytes);
    this.read.set(name, bytes);
    return bytes;
  }

  /** A part's length, whole checksum and block checksums: what two parts with the same bytes share. */
  private contentKey(e: PartEntry & { firstBlock: number }): string {
    return `${e.bytes}:${e.crc}:${crc32(this.blockCrcs.subarray(e.firstBlock, e.firstBlock + blockCount(e.bytes)))}`;
  }

  /**
   * Bytes [from, to) of a part, reading (and checking) only the blocks that hold them; aligned in
   * their buffer as they are in the part (so a typed array of the part's element size views them).
   */
  range(name: string, from: number, to: number): Uint8Array {
    const ranges = (this.ranges.get(name) ?? 0) + 1;
    this.ranges.set(name, ranges);
    const whole = ranges > RANGES_BEFORE_WHOLE ? this.get(name) : this.read.get(name);
    if (whole) return whole.subarray(from, to);
    const e = this.entries.get(name);
    if (!e) throw new SnapshotMismatch(`snapshot part ${name} is missing`);
    if (from < 0 || to > e.bytes || to < from) throw new SnapshotMismatch(`snapshot part ${name}: bytes ${from}-${to} are past its end`);
    const start = Math.floor(from / BLOCK_BYTES) * BLOCK_BYTES;
    const bytes = this.blocks(e, start, Math.min(e.bytes, Math.ceil(to / BLOCK_BYTES) * BLOCK_BYTES));
    return bytes.subarray(from - start, to - start);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  /** Part bytes [start, end) (start on a block boundary, end on one or the part's end), each block checked. */
  private blocks(e: PartEntry & { firstBlock: number }, start: number, end: number): Uint8Array {
    if (this.fd === null) throw new SnapshotDamaged(`snapshot part ${e.part}: its file was closed before it was read`);
    const bytes = readAt(this.fd, e.offset + start, end - start);
    if (!bytes) throw new SnapshotDamaged(`snapshot part ${e.part} is cut short`);
    for (let at = 0, b = e.firstBlock + start / BLOCK_BYTES; at < bytes.byteLength; at += BLOCK_BYTES, b++) {
      if (crc32(bytes.subarray(at, at + BLOCK_BYTES)) !== this.blockCrcs[b]) throw new SnapshotDamaged(`snapshot part ${e.part} does not match its checksum`);
    }
    return bytes;
  }
}

/**
 * Text parts (their bytes and their lengths) read lately by the files of one sidecar, by
 * contentKey. Every index of a store keeps the same ids (and most the same owners) in a snapshot
 * of its own: at a million memories, 31 MB of ids and 4 MB of their lengths read and checked four
 * times over on the first recall after an open. A text part is only ever read, never written in
 * place, so the indexes can share one copy (and one StoredStrings made from it). The key is made of the
 * checksums its writer recorded for every 4 KB block: two parts share a copy only when the bytes
 * written agree block for block.
 */
export type SharedTexts = Map<string, WeakRef<Uint8Array>>;

function shareText(shared: SharedTexts, key: string, bytes: Uint8Array): void {
  for (const [k, ref] of shared) if (!ref.deref()) shared.delete(k);
  shared.set(key, new WeakRef(bytes));
}

/** `length` bytes at `position` into a buffer of their own; null when the file ends first. */
function readAt(fd: number, position: number, length: number): Uint8Array | null {
  const bytes = new Uint8Array(new ArrayBuffer(length));
  for (let at = 0; at < length; ) {
    const n = readSync(fd, bytes, at, length - at, position + at);
    if (n === 0) return null;
    at += n;
  }
  return bytes;
}

/**
 * Removes generations' files, and their writers' temporary files (a reader holding one open keeps
 * reading it; a failure leaves it for the next sweep).
 */
export function removePartsFiles(sidecarPath: string, generations: readonly number[]): void {
  if (generations.length === 0) return;
  const gone = new Set(generations);
  for (const { name, generation } of listPartsFiles(sidecarPath)) if (gone.has(generation)) removeQuietly(join(partsDir(sidecarPath), name));
}

/**
 * Removes the files of generations the sidecar no longer knows (a crashed writer's, a removal that
 * failed). The folder is listed before `knownGenerations()` is asked: a writer records its
 * generation in the sidecar before it creates the file, so every file listed that is still being
 * written is known by then (asked first, a generation begun between the two would look unknown
 * and its file, half-written, would be removed under its writer).
 */
export function sweepPartsFiles(sidecarPath: string, knownGenerations: () => ReadonlySet<number>): void {
  const files = listPartsFiles(sidecarPath);
  if (files.length === 0) return;
  const known = knownGenerations();
  for (const { name, generation } of files) if (!known.has(generation)) removeQuietly(join(partsDir(sidecarPath), name));
}

/** The folder's generation files and temporary files, with their generation. */
function listPartsFiles(sidecarPath: string): { name: string; generation: number }[] {
  let names: string[];
  try {
    names = readdirSync(partsDir(sidecarPath));
  } catch {
    return []; // no folder yet (nothing written), or gone (the sidecar started over)
  }
  const files: { name: string; generation: number }[] = [];
  for (const name of names) {
    const m = FILE_NAME.exec(name);
    if (m) files.push({ name, generation: Number(m[1]) });
  }
  return files;
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Gone already, or held open where that forbids removal: swept later.
  }
}

/**
 * Removes the parts' folder; retried (ENOTEMPTY) when another process adds a part while it is
 * being removed, as happens when an agent writes a snapshot while an erase purges them.
 */
export function removePartsDir(sidecarPath: string): void {
  rmSync(partsDir(sidecarPath), { recursive: true, force: true, maxRetries: 10, retryDelay: 20 });
}

function writeAll(fd: number, data: Uint8Array, position: number): void {
  for (let at = 0; at < data.byteLength; ) at += writeSync(fd, data, at, data.byteLength - at, position + at);
}
