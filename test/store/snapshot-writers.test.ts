/**
 * Several processes writing snapshots into one index sidecar at once (core/store/derived/index-sidecar.ts,
 * snapshot-file.ts): agents on one PostgreSQL store share this machine's cache file, an agent's
 * `mnemo mcp` and the workbench share a SQLite store's. Here two handles on one sidecar in one
 * process stand for two processes, their writes interleaved piece by piece in a fixed order.
 *
 * What could go wrong: one writer's commit or sweep removing the file another is still writing
 * (its rename then fails: a warning and a lost snapshot), two writers sharing a temporary name, a
 * half-written file published, a lost race reported as a failure.
 */
import { closeSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import type { Engine } from '../../core/engine/engine.js';
import { recallCorpus } from '../../core/recall/pipeline.js';
import { IndexSidecar, sidecarPath, type SnapshotWrite } from '../../core/store/derived/index-sidecar.js';
import { partsDir, sweepPartsFiles } from '../../core/store/derived/snapshot-file.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { feedStore, freshIndexes, indexesOf, openIndexed } from '../../support/derived-indexes.js';
import { tempDir } from '../../support/fixture.js';

const NOW = 1_780_000_000;
const at = (seq: number) => ({ format: 'test/1', conditions: '', position: { epoch: 'e', seq } });

/** Parts whose bytes say who wrote them. */
const partsOf = (writer: number) =>
  new Map([
    ['a', new Uint8Array(1000).fill(writer)],
    ['b', new Uint8Array(5000).fill(writer + 1)],
    ['c', new Uint8Array(300).fill(writer + 2)],
  ]);

/** Two handles on the sidecar of one store, each with the warnings its "process" printed. */
function twoHandles() {
  const path = join(tempDir('mnemo-snap-race-'), 'm.sqlite');
  const handle = () => {
    const warnings: string[] = [];
    const store = MemoryStore.open(path, { create: true, clock: fixedClock(NOW), onWarning: (w) => warnings.push(w) });
    return { store, sidecar: IndexSidecar.open(store)!, warnings };
  };
  const one = handle();
  const two = handle();
  return {
    one,
    two,
    files: () => readdirSync(partsDir(sidecarPath(path))).sort(),
    close: () => {
      for (const h of [one, two]) {
        h.sidecar.close();
        h.store.close();
      }
    },
  };
}

/** Steps the writes in turn, one piece each, until every one is done; throws what a step throws. */
function alternate(...writes: SnapshotWrite[]): void {
  while (writes.some((w) => !w.finished)) for (const w of writes) if (!w.finished) w.step();
}

/** Calls `seen` each time the engine encodes its recall corpus or its vectors for a snapshot (the two largest). */
function watchEncodes(engine: Engine, seen: (name: string) => void): void {
  for (const index of [recallCorpus(engine), engine.vectors.get()]) {
    const save = index.saveSnapshot.bind(index);
    index.saveSnapshot = () => {
      seen(index.snapshotFormat);
      return save();
    };
  }
}

const firstByte = (sidecar: IndexSidecar, name: string, part: string) => sidecar.read(name)!.parts.get(part)![0];

describe('two writers on one sidecar', () => {
  it('both finish when they write the same index piece by piece in turn; the first published is kept, whole', () => {
    const { one, two, files, close } = twoHandles();
    const first = one.sidecar.write('idx', at(5), partsOf(10), NOW)!;
    const second = two.sidecar.write('idx', at(5), partsOf(20), NOW)!;
    first.step(); // one's generation begun, its first piece written
    second.step(); // two's, a later generation
    expect(files().filter((f) => f.endsWith('.tmp'))).toHaveLength(2); // each its own temporary file
    expect(() => alternate(second, first)).not.toThrow(); // two publishes first, while one is mid-write
    expect(first.finished && second.finished).toBe(true);
    // One lost the race: the snapshot two published at the same position stays, and it is whole.
    for (const h of [one, two]) {
      expect(firstByte(h.sidecar, 'idx', 'a')).toBe(20);
      expect(firstByte(h.sidecar, 'idx', 'b')).toBe(21);
      expect(firstByte(h.sidecar, 'idx', 'c')).toBe(22);
    }
    expect(files()).toHaveLength(1); // no temporary left, the loser's file removed
    expect([...one.warnings, ...two.warnings]).toEqual([]);
    close();
  });

  it('a later position published by one replaces the other\'s, whichever finishes first', () => {
    const { one, two, files, close } = twoHandles();
    const older = one.sidecar.write('idx', at(5), partsOf(10), NOW)!;
    const newer = two.sidecar.write('idx', at(7), partsOf(20), NOW)!;
    older.step();
    newer.step();
    alternate(newer, older); // the newer first: the older one, finishing after, is dropped
    expect(firstByte(one.sidecar, 'idx', 'b')).toBe(21);
    const newest = one.sidecar.write('idx', at(9), partsOf(30), NOW)!;
    const stale = two.sidecar.write('idx', at(8), partsOf(40), NOW)!;
    newest.step();
    stale.step();
    alternate(stale, newest); // the stale one first: the newest, finishing after, replaces it
    expect(firstByte(two.sidecar, 'idx', 'b')).toBe(31);
    expect(files()).toHaveLength(1);
    expect([...one.warnings, ...two.warnings]).toEqual([]);
    close();
  });

  it('claims a write once across handles: busy while another writer has one under way, covered once a later snapshot is published', () => {
    const { one, two, close } = twoHandles();
    const claimed = one.sidecar.claim('idx', at(5), at(5).position, NOW);
    expect(claimed?.kind).toBe('claimed');
    expect(two.sidecar.claim('idx', at(5), at(5).position, NOW + 10)?.kind).toBe('busy'); // one's is under way
    expect(two.sidecar.claim('other', at(5), at(5).position, NOW + 10)?.kind).toBe('claimed'); // per index
    const forced = two.sidecar.claim('idx', at(6), at(6).position, NOW + 10, { force: true }); // a hand-over waits for nobody
    expect(forced?.kind).toBe('claimed');
    one.sidecar.write('idx', at(5), partsOf(10), NOW, claimed!.kind === 'claimed' ? claimed!.generation : null)!.finish();
    expect(firstByte(two.sidecar, 'idx', 'a')).toBe(10); // written under the claimed generation
    // Published at 5: a caller whose last snapshot reflected 3 is covered; one at 5 or later is not.
    expect(two.sidecar.claim('idx', at(8), at(3).position, NOW + 20)).toEqual({ kind: 'covered', position: { epoch: 'e', seq: 5 } });
    // The forced claim (6) is still uncommitted and recent: busy, until it is older than a write can take.
    expect(two.sidecar.claim('idx', at(8), at(5).position, NOW + 20)?.kind).toBe('busy');
    expect(two.sidecar.claim('idx', at(8), at(5).position, NOW + 10 + 6 * 60)?.kind).toBe('claimed');
    // Another feed epoch (a restored store) or encoding: nothing covers it.
    expect(two.sidecar.claim('idx', { ...at(8), format: 'test/2' }, at(3).position, NOW + 10 + 6 * 60, { force: true })?.kind).toBe('claimed');
    close();
  });

  it('keeps the file another writer is still writing when one commits another index and sweeps', () => {
    const { one, two, files, close } = twoHandles();
    const slow = one.sidecar.write('x', at(5), partsOf(10), NOW)!;
    slow.step();
    two.sidecar.write('y', at(5), partsOf(20), NOW)!.finish(); // its commit sweeps the folder
    expect(files().filter((f) => f.endsWith('.tmp'))).toHaveLength(1);
    slow.finish();
    expect(firstByte(two.sidecar, 'x', 'a')).toBe(10);
    expect(firstByte(one.sidecar, 'y', 'a')).toBe(20);
    expect(files()).toHaveLength(2);
    close();
  });

  it('drops, without a warning, a write taken for a crashed writer\'s because it was begun over an hour before another commit', () => {
    const { one, two, files, close } = twoHandles();
    const suspended = one.sidecar.write('x', at(5), partsOf(10), NOW)!;
    suspended.step();
    two.sidecar.write('y', at(5), partsOf(20), NOW + 2 * 60 * 60)!.finish(); // its commit drops x's generation and file
    expect(() => suspended.finish()).not.toThrow();
    expect(suspended.finished).toBe(true);
    expect(one.sidecar.read('x')).toBeNull();
    expect(firstByte(one.sidecar, 'y', 'a')).toBe(20);
    expect(files()).toHaveLength(1);
    expect([...one.warnings, ...two.warnings]).toEqual([]);
    close();
  });

  it('sweeps a file only once its generation is unknown to the sidecar, and never one begun while it looks', () => {
    const sidecar = join(tempDir('mnemo-snap-sweep-'), 'm.sqlite.mnemo-index');
    const parts = partsDir(sidecar);
    mkdirSync(parts, { recursive: true });
    const create = (name: string) => closeSync(openSync(join(parts, name), 'w'));
    // 1 committed, 2 being written; 3, 4 and 5 (an earlier build's temporary name) dropped or crashed.
    for (const n of ['g1.bin', 'g2.bin.123-abcd.tmp', 'g3.bin', 'g4.bin.456-ef01.tmp', 'g5.bin.tmp', 'notes.txt']) create(n);
    sweepPartsFiles(sidecar, () => {
      // A writer begins generation 6 just after the sidecar was asked: its row is not in the answer, its file is new.
      create('g6.bin.789-aa.tmp');
      return new Set([1, 2]);
    });
    expect(readdirSync(parts).sort()).toEqual(['g1.bin', 'g2.bin.123-abcd.tmp', 'g6.bin.789-aa.tmp', 'notes.txt']);
  });
});

describe('two engines on one store writing the snapshots they built', () => {
  it('leaves each snapshot to the engine that claimed it first: the other encodes none, no warning, and the next open reads them instead of building', () => {
    const path = feedStore(NOW, 300);
    const engines = [0, 1].map(() => {
      const queue: (() => void)[] = [];
      const defer = (fn: () => void) => {
        queue.push(fn);
        return () => queue.splice(queue.indexOf(fn), 1);
      };
      const opened = openIndexed(path, NOW, { defer, retryLater: defer });
      return { ...opened, queue };
    });
    for (const e of engines) indexesOf(e.engine); // each builds every index and has its snapshots due
    expect(engines.every((e) => e.builds.length > 0 && e.queue.length > 0)).toBe(true);
    const [first, second] = engines as [(typeof engines)[0], (typeof engines)[0]];
    const drain = (e: typeof first, turns = Infinity) => {
      for (let t = 0; t < turns && e.queue.length; t++) e.queue.shift()!();
    };
    const encoded: string[] = [];
    for (const e of engines) watchEncodes(e.engine, (name) => encoded.push(`${e === first ? 'first' : 'second'} ${name}`));
    drain(first, first.queue.length); // the first claims every write (its generations, a piece of each)
    drain(second); // the second finds each under way: it encodes nothing
    drain(first); // the first finishes its own
    expect(encoded.length).toBeGreaterThan(0);
    expect(encoded.filter((x) => x.startsWith('second'))).toEqual([]);
    for (const e of engines) {
      e.engine.close();
      expect(e.warnings).toEqual([]);
    }
    const next = openIndexed(path, NOW);
    expect(indexesOf(next.engine)).toEqual(freshIndexes(path, NOW));
    next.engine.close();
    expect(next.builds).toEqual([]);
    expect(next.warnings).toEqual([]);
  });
});
