/**
 * When a process writes a snapshot of an index it keeps patching (core/store/derived/derived-snapshot.ts):
 * after the usual number of changes, times its savePatience. Browser mode and the desktop app set
 * more than one, so the agents writing beside them take the turn and the views never pause for an
 * encoding (index-snapshots.ts VIEWER_SAVE_PATIENCE); once another process has published a newer
 * snapshot, a due one is not encoded at all.
 */
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { DerivedSnapshot } from '../../core/store/derived/derived-snapshot.js';
import type { PersistableIndex } from '../../core/store/derived/derived-index.js';
import { IndexSnapshots, VIEWER_SAVE_PATIENCE } from '../../core/store/derived/index-snapshots.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { feedStore } from '../../support/derived-indexes.js';

const NOW = 1_780_000_000;

/** An index of nothing that counts its encodings. */
function countingIndex(): PersistableIndex & { encodings: number } {
  return {
    encodings: 0,
    snapshotFormat: 'test/1',
    size: 0,
    snapshotConditions: () => '',
    saveSnapshot() {
      this.encodings += 1;
      return new Map([['a', new Uint8Array(8)]]);
    },
    restoreSnapshot: () => {},
    load: () => {},
    update: () => {},
    remove: () => {},
  };
}

/** A store with a feed, and a DerivedSnapshot on it whose deferred work runs when `run` is called. */
function setUp(savePatience?: number) {
  const real = MemoryStore.open(feedStore(NOW, 20), { clock: fixedClock(NOW) });
  // The feed's end as another process's writes would move it (`feedAhead` rows past the store's own).
  let feedAhead = 0;
  const store = new Proxy(real, {
    get(target, key) {
      if (key === 'feedPosition')
        return () => {
          const end = target.feedPosition()!;
          return { ...end, seq: end.seq + feedAhead };
        };
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  const queue: (() => void)[] = [];
  const defer = (fn: () => void) => {
    queue.push(fn);
    return () => queue.splice(queue.indexOf(fn), 1);
  };
  const snapshots = new IndexSnapshots(store, { enabled: true, defer, retryLater: defer, ...(savePatience ? { savePatience } : {}) });
  const index = countingIndex();
  const snap = new DerivedSnapshot(store, index, 'test.index', snapshots);
  const position = store.feedPosition()!;
  snap.saveIfDue(position); // loaded at this position, nothing due
  const run = () => {
    while (queue.length) queue.shift()!();
  };
  /** Runs the work queued now once (a retry queued meanwhile waits for the next call). */
  const runOnce = () => {
    for (const fn of queue.splice(0)) fn();
  };
  const moveFeed = (rows: number) => (feedAhead += rows);
  return { store, index, snap, snapshots, queue, position, run, runOnce, moveFeed };
}

describe('how many changes pass before a process writes a snapshot', () => {
  it('writes after 1,000 patches by default, and a viewer after four times as many', () => {
    for (const patience of [undefined, VIEWER_SAVE_PATIENCE]) {
      const { store, index, snap, queue, run } = setUp(patience);
      const due = 1_000 * (patience ?? 1);
      for (let n = 0; n < due - 1; n++) snap.notePatch();
      expect(queue).toHaveLength(0);
      snap.notePatch();
      expect(queue).toHaveLength(1);
      run();
      expect(index.encodings).toBe(1);
      store.close();
    }
    expect(VIEWER_SAVE_PATIENCE).toBeGreaterThan(1);
  });

  it('is never due while running through accesses alone (every recall logs some), and writes them at close', () => {
    const { store, index, snap, queue, position, run } = setUp();
    for (let n = 0; n < 5_000; n++) snap.notePatch('usage');
    expect(queue).toHaveLength(0);
    run();
    expect(index.encodings).toBe(0);
    // A row change still counts from where it stood (the accesses did not bring it closer).
    for (let n = 0; n < 999; n++) snap.notePatch();
    expect(queue).toHaveLength(0);
    snap.saveOnClose(position);
    expect(index.encodings).toBe(1); // at close the accesses count: the next process starts from them
    store.close();
  });

  it('encodes nothing when another process published a newer snapshot since its own, and counts again from there', () => {
    const { store, index, snap, snapshots, queue, position, run } = setUp();
    // Another process's snapshot, at a later position of the same feed.
    snapshots.sidecar()!.write('test.index', { format: 'test/1', conditions: '', position: { ...position, seq: position.seq + 5 } }, new Map([['a', new Uint8Array(8)]]), NOW)!.finish();
    for (let n = 0; n < 1_000; n++) snap.notePatch();
    run();
    expect(index.encodings).toBe(0);
    for (let n = 0; n < 999; n++) snap.notePatch();
    expect(queue).toHaveLength(0); // counting from the other's snapshot: not due again yet
    snap.notePatch();
    run();
    expect(index.encodings).toBe(1); // nobody wrote since: this time its own
    store.close();
  });

  it('still writes its own at close, covered only by a snapshot newer than what it holds', () => {
    const { store, index, snap, snapshots, position } = setUp(VIEWER_SAVE_PATIENCE);
    snapshots.sidecar()!.write('test.index', { format: 'test/1', conditions: '', position: { ...position, seq: position.seq + 5 } }, new Map([['a', new Uint8Array(8)]]), NOW)!.finish();
    for (let n = 0; n < 4_000; n++) snap.notePatch();
    snap.saveNow({ ...position, seq: position.seq + 9 }); // a hand-over: the others load one at least this new
    expect(index.encodings).toBe(1);
    expect(snapshots.sidecar()!.header('test.index')!.position.seq).toBe(position.seq + 9);
    store.close();
  });

  it('waits while the feed keeps moving (another process erasing a batch at a time), then encodes once it settles', () => {
    const { store, index, snap, queue, position, runOnce, moveFeed } = setUp();
    for (let n = 0; n < 1_000; n++) snap.notePatch();
    moveFeed(500); // the next batch is already in the feed: a snapshot now would be stale at once
    for (let i = 0; i < 5; i++) {
      runOnce();
      moveFeed(500);
    }
    expect(index.encodings).toBe(0);
    expect(queue).toHaveLength(1); // still waiting, not given up
    snap.saveIfDue({ ...position, seq: position.seq + 3_000 }); // caught up with the feed's end, which stopped
    runOnce();
    expect(index.encodings).toBe(1);
    store.close();
  });

  it('encodes anyway after about a minute of a feed that never stops', () => {
    const { store, index, snap, queue, runOnce, moveFeed } = setUp();
    for (let n = 0; n < 1_000; n++) snap.notePatch();
    let tries = 0;
    while (index.encodings === 0 && queue.length && tries < 1_000) {
      moveFeed(1);
      runOnce();
      tries++;
    }
    expect(index.encodings).toBe(1);
    expect(tries).toBeGreaterThan(30);
    expect(tries).toBeLessThanOrEqual(61);
    store.close();
  });
});
