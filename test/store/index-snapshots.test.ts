/**
 * Persisted derived indexes (core/store/derived/index-sidecar.ts, derived-snapshot.ts): an engine opening a
 * store whose sidecar holds current snapshots reads them instead of rebuilding, patches what the
 * change feed names since, and ends with exactly the indexes a fresh build gives; a damaged,
 * foreign or half-written sidecar costs a rebuild, never an error (kills mid-write: index-crash.test.ts).
 */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../core/engine/engine.js';
import { fixedClock } from '../../core/clock.js';
import { recallCorpus } from '../../core/recall/pipeline.js';
import { sidecarPath } from '../../core/store/derived/index-sidecar.js';
import { clearMarker, newMarker, writeMarker } from '../../core/store/shared/run-marker.js';
import { IndexSidecar } from '../../core/store/derived/index-sidecar.js';
import { partsDir, partsFile } from '../../core/store/derived/snapshot-file.js';
import { fixtureCopy } from '../../support/fixture.js';
import { feedStore as feedStoreAt, foreignChanges as foreignChangesAt, freshIndexes as freshIndexesAt, indexesOf, openIndexed, warmIndexes } from '../../support/derived-indexes.js';
import { sqliteAdapterOf } from '../../support/sqlite-adapter.js';

const NOW = 1_780_000_000;
const feedStore = (size?: number) => feedStoreAt(NOW, size);
const open = (path: string, opts: { snapshots?: boolean; readonly?: boolean } = {}) => openIndexed(path, NOW, opts);
const freshIndexes = (path: string) => freshIndexesAt(path, NOW);

const warm = (path: string) => warmIndexes(path, NOW);
const foreignChanges = (path: string) => foreignChangesAt(path, NOW);

/** The current snapshots' files, one per index (snapshot-file.ts). */
function snapshotFiles(path: string): string[] {
  const db = new Database(sidecarPath(path), { readonly: true });
  try {
    const generations = db.prepare('SELECT generation FROM snapshot WHERE generation > 0 ORDER BY name').pluck().all() as number[];
    return generations.map((g) => partsFile(sidecarPath(path), g));
  } finally {
    db.close();
  }
}

/** Overwrites one part with zeros in every snapshot that has it (its CRC no longer matches). */
function zeroPart(path: string, part: string): void {
  const db = new Database(sidecarPath(path), { readonly: true });
  const rows = db.prepare('SELECT s.generation, p.offset, p.bytes FROM snapshot s JOIN snapshot_part p ON p.generation = s.generation WHERE p.part = ?').all(part) as { generation: number; offset: number; bytes: number }[];
  db.close();
  expect(rows.length).toBeGreaterThan(0);
  for (const r of rows) {
    const fd = openSync(partsFile(sidecarPath(path), r.generation), 'r+');
    writeSync(fd, new Uint8Array(r.bytes), 0, r.bytes, r.offset);
    closeSync(fd);
  }
}

describe('persisted derived indexes', () => {
  it('reads its snapshots back (no rebuild) into indexes equal to a fresh build', () => {
    const path = feedStore();
    const firstBuilds = warm(path);
    expect(firstBuilds).toEqual(expect.arrayContaining(['embed.vectors', 'recall.corpus', 'recall.mnemo.bm25.porter']));
    expect(existsSync(sidecarPath(path))).toBe(true);

    const second = open(path);
    const restored = indexesOf(second.engine);
    second.engine.close();
    expect(second.builds).toEqual([]);
    expect(second.warnings).toEqual([]);
    expect(restored).toEqual(freshIndexes(path));
    expect(restored.keyword.some((hits) => hits.length > 0)).toBe(true);
    expect(restored.entities.length).toBeGreaterThan(0);
    expect(restored.adjacency.length).toBeGreaterThan(0);
  });

  it('patches what another process changed since the snapshot, and equals a fresh rebuild', () => {
    const path = feedStore();
    warm(path);
    foreignChanges(path);
    const next = open(path);
    const patched = indexesOf(next.engine);
    next.engine.close();
    expect(next.builds).toEqual([]);
    expect(patched).toEqual(freshIndexes(path));
    // The added memory is findable through every persisted index.
    expect(patched.text[1]!.length).toBeGreaterThan(0);
    expect(patched.corpus.some((s) => String(s.content).startsWith('deploy the database migration'))).toBe(true);
  });

  it('rebuilds from a sidecar that is not SQLite, or whose snapshot bytes were damaged, with a warning and no error', () => {
    const path = feedStore();
    warm(path);
    writeFileSync(sidecarPath(path), Buffer.alloc(8192, 0x5a));
    const garbled = open(path);
    expect(indexesOf(garbled.engine)).toEqual(freshIndexes(path));
    garbled.engine.close();
    expect(garbled.builds.length).toBeGreaterThan(0);

    // Now a valid file whose stored bytes changed under it (one part zeroed in each snapshot's file).
    zeroPart(path, 'ids.utf8');
    const damaged = open(path);
    expect(indexesOf(damaged.engine)).toEqual(freshIndexes(path));
    damaged.engine.close();
    expect(damaged.builds).toEqual(expect.arrayContaining(['embed.vectors', 'recall.corpus', 'recall.mnemo.bm25.porter']));
    expect(damaged.warnings.some((w) => /damaged snapshot/.test(w))).toBe(true);
  });

  it('answers right when a part read only when first needed turns out damaged then: that index is rebuilt from the store and its snapshot forgotten', () => {
    const path = feedStore();
    warm(path);
    zeroPart(path, 'inverted.values'); // the vectors: a dimension's list is read when a query first uses it
    zeroPart(path, 'bodies.utf8'); // the keyword index: a document's text is read when a change needs it
    zeroPart(path, 'actr'); // the corpus: a memory's access times are read when scoring first reads it
    zeroPart(path, 'targets.utf8'); // the links: a memory's edges are read when spread first asks for them
    foreignChanges(path);
    const o = open(path);
    expect(indexesOf(o.engine)).toEqual(freshIndexes(path));
    o.engine.close();
    // Restored (the damaged bytes were not read on open), then recovered where they were read.
    expect(o.builds).toEqual([]);
    expect(o.warnings.filter((w) => /damaged snapshot of (embed\.vectors|recall\.corpus|recall\.adjacency|recall\.mnemo\.bm25\.porter)/.test(w))).toHaveLength(1); // the sidecar warns once a process
    const next = open(path);
    expect(indexesOf(next.engine)).toEqual(freshIndexes(path));
    next.engine.close();
    // Forgotten, and written again by the process that recovered them: its indexes, patched since, had no snapshot left to replace.
    expect(next.builds).toEqual([]);
  });

  it('answers the keyword leg and shows texts, titles and tags right when the word lists or those turn out damaged: the corpus reads them from the store', () => {
    for (const part of ['words.slots', 'contents.utf8', 'title_words.slots', 'tag_words.utf8', 'tags.utf8', 'titles.starts']) {
      const path = feedStore();
      warm(path);
      zeroPart(path, part); // read only when a keyword token or a shown text first needs it
      const o = open(path);
      expect(indexesOf(o.engine)).toEqual(freshIndexes(path));
      o.engine.close();
      expect(o.builds).toEqual([]);
      expect(o.warnings.filter((w) => /damaged snapshot of recall\.corpus/.test(w))).toHaveLength(1);
    }
  });

  it('answers a search right when the postings it reads turn out damaged: the keyword index is rebuilt from the store', () => {
    const path = feedStore();
    warm(path);
    zeroPart(path, 'postings.body'); // a term's postings are read when a query first asks for the term
    const o = open(path);
    expect(indexesOf(o.engine)).toEqual(freshIndexes(path));
    o.engine.close();
    expect(o.builds).toEqual([]);
    expect(o.warnings.filter((w) => /damaged snapshot of recall\.mnemo\.bm25\.porter/.test(w))).toHaveLength(1);
  });

  it('rebuilds, with a warning, when a snapshot file is cut short or gone', () => {
    const path = feedStore();
    warm(path);
    const files = snapshotFiles(path);
    expect(files.length).toBeGreaterThanOrEqual(5); // one file per index's current generation
    truncateSync(files[0]!, statSync(files[0]!).size - 1);
    rmSync(files[1]!);
    const o = open(path);
    expect(indexesOf(o.engine)).toEqual(freshIndexes(path));
    o.engine.close();
    expect(o.builds).toHaveLength(2);
    expect(o.warnings.filter((w) => /damaged snapshot|snapshot of .* is missing/.test(w))).toHaveLength(1); // the sidecar warns once a process
    const next = open(path);
    indexesOf(next.engine);
    next.engine.close();
    expect(next.builds).toEqual([]); // the rebuilt ones were written again
  });

  it('keeps one file per current snapshot: a newer generation removes the file of the one it replaces', () => {
    const path = feedStore();
    warm(path);
    const before = snapshotFiles(path);
    foreignChanges(path);
    const next = open(path);
    indexesOf(next.engine);
    next.engine.indexSnapshots.persistAllNow();
    next.engine.close();
    const after = snapshotFiles(path);
    expect(after).toHaveLength(before.length);
    expect(after.filter((f) => before.includes(f)).length).toBeLessThan(before.length); // some were replaced
    expect(readdirSync(partsDir(sidecarPath(path))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('starts over a sidecar written by the earlier format (parts in SQLite blobs), once', () => {
    const path = feedStore();
    const db = new Database(sidecarPath(path));
    db.exec("CREATE TABLE sidecar_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO sidecar_meta VALUES ('format', 'mnemo-index/1/le');");
    db.exec('CREATE TABLE snapshot_chunk (generation INTEGER, part TEXT, chunk INTEGER, data BLOB)');
    db.close();
    const first = open(path);
    expect(indexesOf(first.engine)).toEqual(freshIndexes(path));
    first.engine.close();
    expect(first.builds.length).toBeGreaterThan(0);
    expect(first.warnings).toEqual([]);
    const second = open(path);
    indexesOf(second.engine);
    second.engine.close();
    expect(second.builds).toEqual([]);
  });

  it('ignores a sidecar written for another store (a store file copied over this one)', () => {
    const mine = feedStore();
    const other = feedStore(300);
    warm(other);
    writeFileSync(sidecarPath(mine), readFileSync(sidecarPath(other)));
    const o = open(mine);
    expect(indexesOf(o.engine)).toEqual(freshIndexes(mine));
    o.engine.close();
    expect(o.builds.length).toBeGreaterThan(0);
  });

  it('works on a store opened read-only, and in a directory it cannot write', () => {
    const path = feedStore();
    const ro = open(path, { readonly: true });
    expect(indexesOf(ro.engine)).toEqual(freshIndexes(path));
    ro.engine.close();
    expect(existsSync(sidecarPath(path))).toBe(false); // a read-only open writes nothing beside the store

    warm(path);
    const reader = open(path, { readonly: true });
    indexesOf(reader.engine);
    reader.engine.close();
    expect(reader.builds).toEqual([]); // but it reads the snapshots a writer left

    // Where the sidecar should go, something that cannot be opened as a file (as in a read-only directory).
    const blocked = feedStore();
    mkdirSync(sidecarPath(blocked));
    const o = open(blocked);
    expect(indexesOf(o.engine)).toEqual(freshIndexes(blocked));
    o.engine.close();
    expect(o.warnings.filter((w) => /index file/.test(w))).toHaveLength(1);
  });

  it('writes a due snapshot off the path of the answer, and not while a long change is being written', () => {
    const path = feedStore();
    const soon: (() => void)[] = [];
    const later: (() => void)[] = [];
    const take = (queue: (() => void)[]) => (fn: () => void) => {
      queue.push(fn);
      return () => queue.splice(queue.indexOf(fn), 1);
    };
    const engine = Engine.open(path, { clock: fixedClock(NOW), onWarning: () => {}, indexSnapshots: { defer: take(soon), retryLater: take(later) } });
    const written = () => IndexSidecar.open(engine.store)?.header('recall.corpus') ?? null;
    recallCorpus(engine);
    expect(soon).toHaveLength(1); // built here: a snapshot is due, but not written during the call
    expect(written()).toBeNull();
    writeMarker(sqliteAdapterOf(engine), newMarker(sqliteAdapterOf(engine), 1, 'record', 'a long apply', null));
    soon.shift()!();
    expect(written()).toBeNull(); // put off while the change is being written
    expect(later).toHaveLength(1);
    clearMarker(sqliteAdapterOf(engine));
    later.shift()!();
    while (soon.length) soon.shift()!(); // one piece per turn
    expect(written()).not.toBeNull();
    engine.close();
  });

  it('builds in memory, as before, for a store without a change feed and for :memory:', () => {
    const path = fixtureCopy(); // a nooa file: no mnemo tables, so no feed (reading never adds them)
    warm(path);
    const o = open(path);
    indexesOf(o.engine);
    o.engine.close();
    expect(o.builds.length).toBeGreaterThan(0); // no feed: nothing to key a snapshot by
    expect(existsSync(sidecarPath(path))).toBe(false);

    const mem = Engine.open(':memory:', { create: true, clock: fixedClock(NOW) });
    expect(() => indexesOf(mem)).not.toThrow();
    mem.close();
  });
});
