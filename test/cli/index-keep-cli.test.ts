/**
 * Issue 41 item 9: a one-shot command keeps what it builds. `mnemo explain` opens the store
 * read-only, and used to build every index, print "kept beside the store for the next open", and
 * exit without writing anything, so every run paid the whole build again. Now the indexes it built
 * are in the sidecar when it exits (the next process reads them), and what it says at exit is what
 * happened: kept, or not kept and why.
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { indexKeepReporter } from '../../cli/index-progress.js';
import type { IndexKeepEvent } from '../../core/store/derived/index-snapshots.js';
import { sidecarPath } from '../../core/store/derived/index-sidecar.js';
import { feedStore, indexesOf, openIndexed } from '../../support/derived-indexes.js';
import { runCli } from '../helpers/cli.js';

const NOW = 1_780_000_000;

function snapshotNames(path: string): string[] {
  const db = new Database(sidecarPath(path), { readonly: true });
  try {
    return (db.prepare('SELECT name FROM snapshot WHERE generation > 0 ORDER BY name').pluck().all() as string[]).sort();
  } finally {
    db.close();
  }
}

describe('one-shot commands keep the indexes they build', () => {
  it('mnemo explain (a read-only open) leaves its snapshots, and the next process reads them instead of building', async () => {
    const path = feedStore(NOW, 1500);
    expect(existsSync(sidecarPath(path))).toBe(false);
    const first = await runCli(['explain', path, 'deploy the database', '--profile', 'mnemo', '--now', String(NOW)]);
    expect(first.code, first.stderr).toBe(0);
    expect(existsSync(sidecarPath(path))).toBe(true);
    expect(snapshotNames(path)).toEqual(expect.arrayContaining(['embed.vectors', 'recall.corpus', 'recall.mnemo.bm25.porter', 'recall.mnemo.entities']));

    // A fresh engine (another process, as the second `mnemo explain` is) builds nothing.
    const second = openIndexed(path, NOW, { readonly: true });
    try {
      indexesOf(second.engine);
      expect(second.builds).toEqual([]);
    } finally {
      second.engine.close();
    }
    const again = await runCli(['explain', path, 'deploy the database', '--profile', 'mnemo', '--now', String(NOW)]);
    expect(again.stdout).toBe(first.stdout);
  });

  it('says at close whether each index it built was kept, and why not when it was not', () => {
    const path = feedStore(NOW, 300);
    const told: IndexKeepEvent[][] = [];
    // Read-only without leave to write beside the store: built, not kept, and it says so.
    const ro = openIndexed(path, NOW, { readonly: true, onKeep: (e) => told.push(e) });
    indexesOf(ro.engine);
    ro.engine.close();
    expect(told).toHaveLength(1);
    expect(told[0]!.length).toBeGreaterThan(3);
    expect(told[0]!.every((e) => !e.kept && /may not write the index file/.test(e.reason ?? ''))).toBe(true);
    expect(existsSync(sidecarPath(path))).toBe(false);

    const kept = openIndexed(path, NOW, { readonly: true, keepBesideReadOnly: true, onKeep: (e) => told.push(e) });
    indexesOf(kept.engine);
    kept.engine.close();
    expect(told[1]!.map((e) => e.kept)).toEqual(told[1]!.map(() => true));
    expect(told[1]!.map((e) => e.index).sort()).toEqual(told[0]!.map((e) => e.index).sort());

    // Nothing built the next time: nothing to report.
    const reread = openIndexed(path, NOW, { readonly: true, keepBesideReadOnly: true, onKeep: (e) => told.push(e) });
    indexesOf(reread.engine);
    reread.engine.close();
    expect(told).toHaveLength(2);
  });

  it('a store without a change feed: built, not kept, and the reason names the feed', () => {
    const path = feedStore(NOW, 200);
    const db = new Database(path);
    db.exec("DELETE FROM mnemo_meta WHERE key = 'feed_epoch'"); // the feed's epoch is what a snapshot is keyed to
    db.close();
    const told: IndexKeepEvent[][] = [];
    const o = openIndexed(path, NOW, { readonly: true, keepBesideReadOnly: true, onKeep: (e) => told.push(e) });
    indexesOf(o.engine);
    o.engine.close();
    expect(told.flat().length).toBeGreaterThan(0);
    expect(told.flat().every((e) => !e.kept && /no change feed/.test(e.reason ?? ''))).toBe(true);
  });

  it('the CLI prints one line for what it kept and one per index it did not, only for big stores', () => {
    const lines: string[] = [];
    const report = indexKeepReporter((l) => lines.push(l));
    report([
      { index: 'embed.vectors', memories: 100_000, kept: true },
      { index: 'recall.mnemo.bm25.porter', memories: 100_000, kept: true },
      { index: 'recall.mnemo.entities', memories: 100_000, kept: false, reason: 'this process may not write the index file beside the store' },
      { index: 'recall.corpus', memories: 500, kept: false, reason: 'x' },
    ]);
    expect(lines).toEqual([
      'Kept the vector index and keyword index beside the store: the next command reads them instead of building again',
      'Did not keep the entity index: this process may not write the index file beside the store; the next command builds it again',
    ]);
  });
});
