/**
 * Issue 16, crash safety: a process killed with SIGKILL while it catches up with many foreign
 * changes, while it builds an index in steps, or between two pieces of a sidecar snapshot write
 * leaves a store and a sidecar that the next process opens without error: both pass
 * integrity_check, recall answers as it does over fresh indexes, and every index equals a fresh
 * build. The child (test/helpers/index-crash-child.ts) says when it is at the point and blocks
 * there until it is killed, so the kill lands at that point every run.
 */
import { spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explain } from '../../core/recall/explain.js';
import { IndexSidecar, sidecarPath } from '../../core/store/derived/index-sidecar.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { fixedClock } from '../../core/clock.js';
import { integrityOk } from '../../support/reflect.js';
import { feedStore, foreignChanges, freshIndexes, indexesOf, openIndexed, uncommittedSnapshotBytes, warmIndexes } from '../../support/derived-indexes.js';

const NOW = 1_780_000_000;
const CHILD = join(__dirname, '..', 'helpers', 'index-crash-child.ts');
const QUERY = 'deploy database migration';

/**
 * Runs the child in `mode` and kills it with SIGKILL once it prints "inside <mode>"; `onReady` runs
 * when it prints "ready" (the parent's turn to write) and the child goes on when told "go".
 */
function killInside(mode: string, path: string, extra: string[] = [], onReady?: () => void): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, mode, path, String(NOW), ...extra], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes(`inside ${mode}\n`)) {
        child.kill('SIGKILL');
      } else if (out === 'ready\n') {
        out += '(told to go)\n';
        onReady?.();
        child.stdin.write('go\n');
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL' && out.includes(`inside ${mode}\n`)) resolve();
      else reject(new Error(`the ${mode} child ended (${code ?? signal}) before it was killed at its point: ${out} ${err}`));
    });
  });
}

/** The next process opens the store and its sidecar, recalls, and finds every index equal to a fresh build. */
function expectRecovered(path: string): { builds: string[] } {
  const reopened = openIndexed(path, NOW);
  const recalled = explain(reopened.engine, { query: QUERY, k: 10 });
  const indexes = indexesOf(reopened.engine);
  reopened.engine.close();

  const fresh = openIndexed(path, NOW, { snapshots: false });
  const expected = explain(fresh.engine, { query: QUERY, k: 10 });
  fresh.engine.close();

  expect(recalled.rows.length).toBeGreaterThan(0);
  expect(recalled.rows).toEqual(expected.rows);
  expect(indexes).toEqual(freshIndexes(path, NOW));
  expect(integrityOk(path)).toBe(true);
  expect(integrityOk(sidecarPath(path))).toBe(true);
  return { builds: reopened.builds };
}

describe('kill -9 inside index work', () => {
  it('during a catch-up from the feed of many foreign changes: the next open patches from the recorded positions', { timeout: 120_000 }, async () => {
    const path = feedStore(NOW, 2000);
    warmIndexes(path, NOW);
    // 1,205 changed memories; the child stops once 600 of them reached every index.
    await killInside('catch-up', path, ['600'], () => foreignChanges(path, NOW, 1200));
    const { builds } = expectRecovered(path);
    expect(builds).toEqual([]); // the snapshots from before the changes were read and patched
    const list = openIndexed(path, NOW);
    expect(indexesOf(list.engine).text[2]!.length).toBeGreaterThan(1000); // "coffee meeting": the revised rows are found
    list.engine.close();
  });

  it('during a stepped index build, with snapshots being written beside it: the next open builds what is missing', { timeout: 120_000 }, async () => {
    const path = feedStore(NOW, 5000);
    rmSync(sidecarPath(path), { force: true });
    await killInside('build', path);
    expect(existsSync(sidecarPath(path))).toBe(true);
    const { builds } = expectRecovered(path);
    expect(builds).toContain('recall.mnemo.bm25.porter'); // killed before its snapshot existed: built once, now
  });

  it('between two pieces of a snapshot write: the previous snapshot is read, whole, and patched', { timeout: 120_000 }, async () => {
    const path = feedStore(NOW, 2000);
    warmIndexes(path, NOW);
    foreignChanges(path, NOW, 1200); // enough patches since the snapshot for a new one to be due
    await killInside('snapshot', path);
    expect(uncommittedSnapshotBytes(path)).toBeGreaterThan(0); // the kill landed inside the write
    const { builds } = expectRecovered(path);
    expect(builds).toEqual([]);
  });

  it('between two pieces of a snapshot write: the killed writer holds nobody back, even on a clock that never moves', { timeout: 120_000 }, async () => {
    const path = feedStore(NOW, 2000);
    warmIndexes(path, NOW);
    foreignChanges(path, NOW, 1200);
    await killInside('snapshot', path);
    const side = new Database(sidecarPath(path), { readonly: true });
    const [name] = side
      .prepare('SELECT name FROM snapshot_generation g WHERE NOT EXISTS (SELECT 1 FROM snapshot s WHERE s.generation = g.id)')
      .pluck()
      .all() as string[];
    side.close();
    expect(name).toBeDefined(); // the child's generation, begun at NOW and never committed

    // Another process at the same instant (a store opened with --now): the child's claim is not
    // "under way" by the clock, and its process is gone, so the write is this one's.
    const store = MemoryStore.open(path, { clock: fixedClock(NOW) });
    const sidecar = IndexSidecar.open(store)!;
    const header = sidecar.header(name!) ?? { format: 'test/1', conditions: '', position: { epoch: 'e', seq: 0 } };
    const claim = sidecar.claim(name!, header, { epoch: '', seq: -1 }, NOW);
    expect(claim?.kind).toBe('claimed');
    // Committing it sweeps the dead writer's half-written file with it.
    sidecar.write(name!, { ...header, position: { ...header.position, seq: header.position.seq + 1 } }, new Map([['a', new Uint8Array(8)]]), NOW, claim!.kind === 'claimed' ? claim!.generation : null)!.finish();
    expect(uncommittedSnapshotBytes(path)).toBe(0);
    sidecar.close();
    store.close();
  });
});
