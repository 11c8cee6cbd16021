/**
 * A snapshot's file read part by part (core/store/derived/snapshot-file.ts PartsFile): opening it reads
 * only its directory and its table of block CRCs; a part, or a range of one, is read and checked
 * when asked for, so damage is found in the blocks a reader reads, and only there.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { IndexSidecar } from '../../core/store/derived/index-sidecar.js';
import { BLOCK_BYTES, PartsFile, layOut } from '../../core/store/derived/snapshot-file.js';
import { PartsReader, SnapshotDamaged, type PartSource } from '../../core/store/derived/snapshot-parts.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/fixture.js';

const NOW = 1_780_000_000;
const header = { format: 'test/1', conditions: '', position: { epoch: 'e', seq: 1 } };

/** A sidecar holding one snapshot of two parts: `small` (one block) and `big` (three blocks of counting numbers). */
function written() {
  const store = MemoryStore.open(join(tempDir(), 'm.sqlite'), { create: true, clock: fixedClock(NOW) });
  const sidecar = IndexSidecar.open(store)!;
  const big = Uint32Array.from({ length: (3 * BLOCK_BYTES) / 4 }, (_, i) => i);
  const parts = new Map([
    ['small', new Uint8Array([1, 2, 3])],
    ['big', new Uint8Array(big.buffer)],
  ]);
  sidecar.write('test', header, parts, NOW)!.finish();
  const { entries } = layOut(parts);
  const file = (generation: number) => sidecar.partsPath(generation);
  const generation = Number(sidecar.connection().prepare("SELECT generation FROM snapshot WHERE name = 'test'").pluck().get());
  /** Overwrites `bytes` bytes of a part (or the CRC table, '#blocks') at `at` with 0xff. */
  const damage = (part: string, at: number, bytes = 4) => {
    const e = entries.find((x) => x.part === part)!;
    const fd = openSync(file(generation), 'r+');
    writeSync(fd, new Uint8Array(bytes).fill(0xff), 0, bytes, e.offset + at);
    closeSync(fd);
  };
  return { store, sidecar, damage };
}

const rangeOf = (parts: PartSource, from: number, to: number) => new PartsReader(parts).typedRange('big', Uint32Array, from, to);

describe('a snapshot file read part by part', () => {
  it('reads a range of a part from the blocks that hold it, and finds damage only in the blocks it reads', () => {
    const { store, sidecar, damage } = written();
    damage('big', 2 * BLOCK_BYTES + 8); // the third block of `big`
    const snap = sidecar.read('test')!;
    expect(snap.parts).toBeInstanceOf(PartsFile);
    expect(Array.from(snap.parts.get('small')!)).toEqual([1, 2, 3]);
    // Entries in the first two blocks, one range straddling them: read and checked, right.
    expect(Array.from(rangeOf(snap.parts, 1000, 1030))).toEqual(Array.from({ length: 30 }, (_, i) => 1000 + i));
    expect(Array.from(rangeOf(snap.parts, 0, 3))).toEqual([0, 1, 2]);
    // The damaged block: found when read, never handed out.
    expect(() => rangeOf(snap.parts, 2 * (BLOCK_BYTES / 4) + 1, 2 * (BLOCK_BYTES / 4) + 4)).toThrow(SnapshotDamaged);
    expect(() => snap.parts.get('big')).toThrow(SnapshotDamaged);
    sidecar.close();
    store.close();
  });

  it('is no snapshot at all when its table of block checksums is damaged', () => {
    const { store, sidecar, damage } = written();
    const warnings: string[] = [];
    store.close();
    damage('#blocks', 0);
    const reopened = MemoryStore.open(store.path, { clock: fixedClock(NOW), onWarning: (w) => warnings.push(w) });
    const again = IndexSidecar.open(reopened)!;
    expect(again.read('test')).toBeNull();
    expect(again.header('test')).toBeNull(); // forgotten: rebuilt and written again by its index
    expect(warnings.some((w) => /damaged snapshot of test/.test(w))).toBe(true);
    again.close();
    sidecar.close();
    reopened.close();
  });

  it('shares one copy of a text part that two snapshots of one sidecar hold byte for byte, and no other part', () => {
    const store = MemoryStore.open(join(tempDir(), 'm.sqlite'), { create: true, clock: fixedClock(NOW) });
    const sidecar = IndexSidecar.open(store)!;
    const ids = new TextEncoder().encode('m-0001m-0002m-0003'.repeat(400));
    const other = ids.slice();
    other[other.length - 1] = 0x39; // the same length, one byte apart in the last block
    const counts = Uint32Array.from({ length: 300 }, (_, i) => i);
    sidecar.write('a', header, new Map([['ids.utf8', ids], ['rowids', new Uint8Array(counts.buffer)]]), NOW)!.finish();
    sidecar.write('b', header, new Map([['ids.utf8', ids.slice()], ['rowids', new Uint8Array(counts.buffer.slice(0))]]), NOW)!.finish();
    sidecar.write('c', header, new Map([['ids.utf8', other]]), NOW)!.finish();
    const [a, b, c] = ['a', 'b', 'c'].map((name) => sidecar.read(name)!.parts);
    const idsOfA = a!.get('ids.utf8')!;
    expect(b!.get('ids.utf8')).toBe(idsOfA);
    expect(Array.from(c!.get('ids.utf8')!)).toEqual(Array.from(other));
    // A part read as numbers may be adopted and changed in place by its index: each keeps its own.
    expect(b!.get('rowids')).not.toBe(a!.get('rowids'));
    // Another sidecar of the same store reads its own bytes (and would find them damaged).
    const again = IndexSidecar.open(store)!;
    expect(again.read('b')!.parts.get('ids.utf8')).not.toBe(idsOfA);
    again.close();
    sidecar.close();
    store.close();
  });
});
