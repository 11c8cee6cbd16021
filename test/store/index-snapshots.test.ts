/**
 * Persisted derived indexes (core/store/index-sidecar.ts, derived-snapshot.ts): an engine opening a
 * store whose sidecar holds current snapshots reads them instead of rebuilding, patches what the
 * change feed names since, and ends with exactly the indexes a fresh build gives; a damaged,
 * foreign or half-written sidecar costs a rebuild, never an error.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { generateDemo } from '../../core/demo/generate.js';
import { Engine } from '../../core/engine/engine.js';
import { textFilter } from '../../core/api/handlers/memory.js';
import { createMemory, embeddingText } from '../../core/model/memory.js';
import { recallAdjacency, recallCorpus } from '../../core/recall/pipeline.js';
import { entityIndex, keywordIndex } from '../../core/recall/mnemo/stages.js';
import { sidecarPath } from '../../core/store/index-sidecar.js';
import type { IndexBuildEvent } from '../../core/store/index-snapshots.js';
import { MemoryStore } from '../../core/store/store.js';
import { clearMarker, newMarker, writeMarker } from '../../core/store/change-run.js';
import { IndexSidecar } from '../../core/store/index-sidecar.js';
import { fixtureCopy, tempDir } from '../../support/fixture.js';

const NOW = 1_780_000_000;
const QUERIES = ['deploy', 'database migration', 'coffee meeting', 'release notes bug', 'alice'];
const CHILD = join(__dirname, '..', 'helpers', 'snapshot-write-child.ts');

/** A demo store (with its change feed), in a temp dir of its own. */
function feedStore(size = 400): string {
  const path = join(tempDir('mnemo-snap-'), 'store.sqlite');
  const store = MemoryStore.open(path, { create: true, clock: fixedClock(NOW) });
  generateDemo(store, { size, seed: 11, now: NOW });
  expect(store.feedPosition()).not.toBeNull(); // a store mnemo creates has the change feed
  store.close();
  return path;
}

interface Opened {
  engine: Engine;
  builds: string[];
  warnings: string[];
}

function open(path: string, opts: { snapshots?: boolean; readonly?: boolean } = {}): Opened {
  const builds: string[] = [];
  const warnings: string[] = [];
  const engine = Engine.open(path, {
    clock: fixedClock(NOW),
    readonly: opts.readonly ?? false,
    onWarning: (m) => warnings.push(m),
    indexSnapshots: { enabled: opts.snapshots ?? true, onBuild: (e: IndexBuildEvent) => e.phase === 'start' && builds.push(e.index) },
  });
  return { engine, builds, warnings };
}

/** Everything recall and the list read from the persisted indexes, in a comparable form. */
function indexesOf(engine: Engine) {
  const keyword = keywordIndex(engine, true);
  const corpus = recallCorpus(engine);
  const vectors = engine.vectors.get();
  const live: Record<string, unknown>[] = [];
  for (let s = 0; s < corpus.size; s++) {
    if (!corpus.isAlive(s)) continue;
    const d = corpus.dataOf(s);
    live.push({ id: corpus.ids[s], rowid: corpus.rowids[s], owner: corpus.owners[s], content: corpus.contents[s], ...d, cues: [...d.cues].sort(), actr: [...d.actr] });
  }
  const exported = vectors.exportLive();
  const vecs = exported.ids.map((id, k) => ({ id, owner: exported.owners[k], rowid: exported.rowids[k], v: [...exported.vectors.subarray(k * vectors.dim, (k + 1) * vectors.dim)] }));
  vecs.sort((a, b) => a.id.localeCompare(b.id));
  const ids = live.map((s) => String(s.id)).sort();
  const entities = entityIndex(engine);
  const named = [...new Set(ids.flatMap((id) => engine.store.get(id)?.entities ?? []))].sort();
  return {
    adjacency: [...recallAdjacency(engine).edgesFrom(ids)].sort(([a], [b]) => a.localeCompare(b)),
    entities: named.map((e) => [e, entities.entitiesIn(e), [...entities.holdersOf(entities.entitiesIn(e)[0] ?? '')].sort()]),
    keyword: QUERIES.map((q) => keyword.search({ terms: q.split(' '), limit: 25, contextWeight: 0.4 })),
    keywordSize: keyword.size,
    corpus: live,
    vectors: vecs,
    knn: QUERIES.map((q) => vectors.knn(engine.embedder.embedSync!(q), 10)),
    text: QUERIES.map((q) => textFilter<{ text?: string; ids?: string[] }>(engine, { text: q }).ids ?? []),
  };
}

function freshIndexes(path: string) {
  const { engine } = open(path, { snapshots: false });
  try {
    return indexesOf(engine);
  } finally {
    engine.close();
  }
}

/** Opens with snapshots, reads every index, closes (writing the snapshots it built). */
function warm(path: string): string[] {
  const o = open(path);
  indexesOf(o.engine);
  o.engine.close();
  return o.builds;
}

/** Another process's writes, through a second connection: adds, edits, archives, deletes, links. */
function foreignChanges(path: string): void {
  const writer = MemoryStore.open(path, { clock: fixedClock(NOW) });
  const embed = (text: string) => {
    const e = Engine.open(':memory:', { create: true, indexSnapshots: { enabled: false } });
    const v = e.embedder.embedSync!(text);
    e.close();
    return v;
  };
  const ids = writer.all().map((m) => m.id);
  writer.transaction(() => {
    const added = createMemory({ content: 'deploy the database migration before the coffee meeting', title: 'Alice deploy plan', tags: ['release'] }, NOW);
    writer.add(added, embed(embeddingText(added)));
    const edited = writer.get(ids[3]!)!;
    edited.content = 'release notes bug found by alice during deploy';
    writer.add(edited, embed(embeddingText(edited)));
    writer.archive(ids[5]!);
    writer.delete(ids[7]!);
    writer.addEdge(added.id, ids[9]!, 'precedes', 1);
  });
  writer.close();
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

    // Now a valid file whose stored bytes changed under it (a flipped byte in one chunk).
    const db = new Database(sidecarPath(path));
    db.prepare("UPDATE snapshot_chunk SET data = zeroblob(length(data)) WHERE part = 'ids.utf8'").run();
    db.close();
    const damaged = open(path);
    expect(indexesOf(damaged.engine)).toEqual(freshIndexes(path));
    damaged.engine.close();
    expect(damaged.builds).toEqual(expect.arrayContaining(['embed.vectors', 'recall.corpus', 'recall.mnemo.bm25.porter']));
    expect(damaged.warnings.some((w) => /damaged snapshot/.test(w))).toBe(true);
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

  it('keeps a usable index when a process is killed while writing a snapshot', async () => {
    const path = feedStore();
    warm(path);
    foreignChanges(path);
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, path, String(NOW)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        // Killed after a few chunks of the new generation are in, before it is committed.
        if ((out.match(/chunk/g) ?? []).length >= 3) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', () => reject(new Error(`the child ended before it was killed: ${out} ${err}`)));
    });
    await new Promise((r) => child.once('exit', r));
    const db = new Database(sidecarPath(path), { readonly: true });
    const orphans = db.prepare('SELECT count(*) FROM snapshot_generation g WHERE NOT EXISTS (SELECT 1 FROM snapshot s WHERE s.generation = g.id)').pluck().get() as number;
    db.close();
    expect(orphans).toBeGreaterThan(0); // the kill landed inside the write

    const after = open(path);
    expect(indexesOf(after.engine)).toEqual(freshIndexes(path));
    after.engine.close();
    expect(after.builds).toEqual([]); // the previous snapshot was still whole
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
    writeMarker(engine.store, newMarker(engine.store, 1, 'record', 'a long apply', null));
    soon.shift()!();
    expect(written()).toBeNull(); // put off while the change is being written
    expect(later).toHaveLength(1);
    clearMarker(engine.store);
    later.shift()!();
    while (soon.length) soon.shift()!(); // one chunk per turn
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
