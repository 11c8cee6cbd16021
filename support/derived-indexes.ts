/**
 * What the persisted-index tests compare: every derived index an engine reads (keyword, corpus,
 * vectors, entities, links, the list's text search) in a comparable form, the same for a fresh
 * in-memory build, and another process's writes for them to catch up with.
 */
import { fixedClock } from '../core/clock.js';
import { Engine } from '../core/engine/engine.js';
import { textFilter } from '../core/api/handlers/memory.js';
import { createMemory, embeddingText } from '../core/model/memory.js';
import { recallAdjacency, recallCorpus } from '../core/recall/pipeline.js';
import { entityIndex, keywordIndex, partOfIndex } from '../core/recall/mnemo/stages.js';
import type { KeywordIndex } from '../core/recall/mnemo/keyword-index.js';
import { decodeKeywordState } from '../core/recall/mnemo/keyword-snapshot.js';
import { PartsReader, type SnapshotParts } from '../core/store/derived/snapshot-parts.js';
import type { IndexBuildEvent, IndexSnapshotOptions } from '../core/store/derived/index-snapshots.js';
import { MemoryStore } from '../core/store/sqlite/sqlite-store.js';
import { openStoreAt } from '../core/store/open-location.js';
import { generateDemo } from '../core/demo/generate.js';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sidecarPath } from '../core/store/derived/index-sidecar.js';
import { partsDir } from '../core/store/derived/snapshot-file.js';
import { tempDir } from './fixture.js';
import { allMemories } from '../core/store/queries/memory-lookups.js';

export const INDEX_QUERIES = ['deploy', 'database migration', 'coffee meeting', 'release notes bug', 'alice'];
/** Keyword-leg tokens: whole words, parts of words, one and two characters, digits, one no word holds. */
const SUBSTRING_TOKENS = ['deploy', 'ploy', 'migration', 'e', 'ta', '0', 'qa', 'zzzq'];

/** A demo store (with its change feed), in a temp dir of its own. */
export function feedStore(now: number, size = 400, seed = 11): string {
  const path = join(tempDir('mnemo-snap-'), 'store.sqlite');
  const store = MemoryStore.open(path, { create: true, clock: fixedClock(now) });
  generateDemo(store, { size, seed, now });
  if (!store.feedPosition()) throw new Error('a store mnemo creates should have the change feed');
  store.close();
  return path;
}

export interface OpenedIndexes {
  engine: Engine;
  /** Indexes that started a full build (none when every one was read from the sidecar). */
  builds: string[];
  warnings: string[];
}

export function openIndexed(path: string, now: number, opts: { snapshots?: boolean; readonly?: boolean } & Omit<IndexSnapshotOptions, 'enabled'> = {}): OpenedIndexes {
  const builds: string[] = [];
  const warnings: string[] = [];
  const { snapshots, readonly, onBuild, ...rest } = opts;
  const engine = Engine.open(path, {
    clock: fixedClock(now),
    readonly: readonly ?? false,
    onWarning: (m) => warnings.push(m),
    indexSnapshots: { ...rest, enabled: snapshots ?? true, onBuild: (e: IndexBuildEvent) => {
        if (e.phase === 'start') builds.push(e.index);
        onBuild?.(e);
      },
    },
  });
  return { engine, builds, warnings };
}

/** Everything recall and the list read from the persisted indexes, in a comparable form. */
export function indexesOf(engine: Engine) {
  const keyword = keywordIndex(engine, true);
  const corpus = recallCorpus(engine);
  // First, while a snapshot read back may still hold its texts unread: the keyword leg's matches come from its word lists then.
  const substring = (['content', 'title+tags+content'] as const).map((set) =>
    SUBSTRING_TOKENS.map((token) => {
      const bits = new Uint32Array(corpus.words);
      corpus.matchBits(set === 'content' ? ['content'] : ['title', 'tags', 'content'], token, bits);
      const ids: string[] = [];
      for (let s = 0; s < corpus.size; s++) if ((bits[s >>> 5]! >>> (s & 31)) & 1) ids.push(corpus.idOf(s));
      return ids.sort();
    }),
  );
  const vectors = engine.vectors.get();
  const live: Record<string, unknown>[] = [];
  for (let s = 0; s < corpus.size; s++) {
    if (!corpus.isAlive(s)) continue;
    const d = corpus.dataOf(s);
    live.push({ id: corpus.idOf(s), rowid: corpus.rowidOf(s), owner: corpus.ownerOf(s), content: corpus.contentOf(s), ...d, cues: [...d.cues].sort(), actr: [...d.actr] });
  }
  const exported = vectors.exportLive();
  const vecs = exported.ids.map((id, k) => ({ id, owner: exported.owners[k], rowid: exported.rowids[k], v: [...exported.vectors.subarray(k * vectors.dim, (k + 1) * vectors.dim)] }));
  vecs.sort((a, b) => a.id.localeCompare(b.id));
  const ids = live.map((s) => String(s.id)).sort();
  const entities = entityIndex(engine);
  const named = [...new Set(ids.flatMap((id) => engine.store.get(id)?.entities ?? []))].sort();
  const partOf = partOfIndex(engine);
  return {
    // Sorted: a patched index appends a re-linked child where a fresh build has it in edge order (the spread sums either way).
    partOf: ids.map((id) => [id, [...partOf.parentsOf(id)].sort(), partOf.childrenOf(id).sort()]).filter(([, ps, cs]) => ps!.length + cs!.length > 0),
    adjacency: [...recallAdjacency(engine).edgesFrom(ids)].sort(([a], [b]) => a.localeCompare(b)),
    entities: named.map((e) => [e, entities.entitiesIn(e), [...entities.holdersOf(entities.entitiesIn(e)[0] ?? '')].sort()]),
    substring,
    keyword: INDEX_QUERIES.map((q) => keyword.search({ terms: q.split(' '), limit: 25, contextWeight: 0.4 })),
    keywordSize: keyword.size,
    keywordDocs: keywordContent(keyword),
    entityCarriers: carriersOf(entities.saveSnapshot()),
    corpus: live,
    vectors: vecs,
    knn: INDEX_QUERIES.map((q) => vectors.knn(engine.embedder.embedSync!(q), 10)),
    text: INDEX_QUERIES.map((q) => textFilter<{ text?: string; ids?: string[] }>(engine, { text: q }).ids ?? []),
  };
}

/**
 * Every document of a keyword index as its snapshot holds it, by id (rowids differ between a
 * restored index and a fresh build): owner, text, links, length and each term with its counts.
 * Taken after the searches above: saving first rebuilds the postings of a patched index.
 */
function keywordContent(keyword: KeywordIndex) {
  const parts = keyword.saveSnapshot();
  if (!parts) return null;
  const state = decodeKeywordState(parts);
  const { start, rowids, body, context } = state.postings.all();
  const termsOf = new Map<number, string[]>();
  for (let t = 0; t + 1 < start.length; t++) {
    for (let i = start[t]!; i < start[t + 1]!; i++) {
      const list = termsOf.get(rowids[i]!) ?? [];
      list.push(`${state.vocab[t]}:${body[i]}:${context[i]}`);
      termsOf.set(rowids[i]!, list);
    }
  }
  return state.docs
    .docs()
    .map((d, i) => ({ id: d.id, owner: d.owner, body: state.bodies.get(i), links: [...d.links].sort(), length: state.lengths[i], terms: (termsOf.get(d.rowid) ?? []).sort() }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

/** How many live memories carry each entity, as the entity index's snapshot holds it (sorted: its order is the index's own). */
function carriersOf(parts: SnapshotParts | null): [string, number][] | null {
  if (!parts) return null;
  const r = new PartsReader(parts);
  const names = r.strings('carriers');
  const counts = r.typed('carriers.count', Uint32Array, names.length);
  return names.map((e, k): [string, number] => [e, counts[k]!]).sort(([a], [b]) => a.localeCompare(b));
}

/** The same, from indexes built in memory now (no sidecar read or written). */
export function freshIndexes(path: string, now: number) {
  const { engine } = openIndexed(path, now, { snapshots: false });
  try {
    return indexesOf(engine);
  } finally {
    engine.close();
  }
}

/**
 * Another process's writes, through a second connection (a SQLite file or a PostgreSQL store), in one transaction: adds, edits, archives,
 * deletes, links, and `edits` more content edits (catch-ups of many changes).
 */
export function foreignChanges(path: string, now: number, edits = 0): void {
  const writer = openStoreAt(path, { clock: fixedClock(now) });
  const embedder = Engine.open(':memory:', { create: true, indexSnapshots: { enabled: false } });
  const embed = (text: string) => embedder.embedder.embedSync!(text);
  const ids = allMemories(writer).map((m) => m.id);
  writer.transaction(() => {
    const added = createMemory({ content: 'deploy the database migration before the coffee meeting', title: 'Alice deploy plan', tags: ['release'] }, now);
    writer.add(added, embed(embeddingText(added)));
    const edited = writer.get(ids[3]!)!;
    edited.content = 'release notes bug found by alice during deploy';
    writer.add(edited, embed(embeddingText(edited)));
    writer.setArchived(ids[5]!, true);
    writer.delete(ids[7]!);
    writer.addEdge(added.id, ids[9]!, 'precedes', 1);
    for (const id of ids.slice(10, 10 + edits)) {
      const m = writer.get(id)!;
      m.content = `${m.content} (revised: coffee meeting moved, deploy notes ${id.slice(0, 6)})`;
      writer.add(m, embed(embeddingText(m)));
    }
  });
  writer.close();
  embedder.close();
}

/** Opens with snapshots, reads every index, closes (writing the snapshots it built); returns the indexes it built. */
export function warmIndexes(path: string, now: number): string[] {
  const o = openIndexed(path, now);
  indexesOf(o.engine);
  o.engine.close();
  return o.builds;
}

/** Bytes written to snapshot files not yet sealed and committed (a snapshot write under way, or cut short). */
export function uncommittedSnapshotBytes(path: string): number {
  const dir = partsDir(sidecarPath(path));
  if (!existsSync(dir)) return 0;
  return readdirSync(dir)
    .filter((f) => f.endsWith('.tmp'))
    .reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
}
