/**
 * In-memory indexes beside another writer: a commit by another connection is told to the indexes
 * row by row (the memories it touched), not as a rebuild, and the patched index equals a fresh one.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Derived } from '../../core/store/derived/derived.js';
import { accessRecord, createMemory } from '../../core/model/memory.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { FIXTURE_STORE, tempDir } from '../../support/fixture.js';
import { SpyIndex } from '../../support/spy-index.js';
import { allMemories } from '../../core/store/queries/memory-lookups.js';

function pair() {
  const path = join(tempDir(), 'store.sqlite');
  copyFileSync(FIXTURE_STORE, path);
  const reader = MemoryStore.open(path);
  const writer = MemoryStore.open(path);
  return { path, reader, writer };
}

const NOW = 1_780_000_000;

describe('indexes beside another writer', () => {
  it('rebuilds on the first commit by another connection, then patches exactly the memories later commits changed', () => {
    const { reader, writer } = pair();
    const spy = new SpyIndex();
    const derived = new Derived(reader, spy);
    derived.get();
    expect(spy.loads).toBe(1);
    // A store nobody else writes never pays for digests: the first outside commit rebuilds.
    writer.transaction(() => writer.add(createMemory({ content: 'first outside write' }, NOW), null));
    derived.get();
    expect(spy.loads).toBe(2);
    expect(spy.updated).toEqual([]);
    const live = allMemories(writer);
    const [edited, archived, deleted, linker, target] = [live[0]!, live[1]!, live[2]!, live[3]!, live[4]!];

    // Deleting a memory also drops the edges into it: their sources changed too.
    const pointingAtDeleted = writer.incoming(deleted.id).map((e) => e.src);
    writer.transaction(() => {
      const added = createMemory({ content: 'written by the agent next door' }, NOW);
      writer.add(added, null);
      edited.content = `${edited.content} (edited next door)`;
      writer.save(edited);
      writer.setArchived(archived.id, true);
      writer.delete(deleted.id);
      writer.addEdge(linker.id, target.id, 'supports', 0.5);
    });
    // A poll only notes the commit; nothing is read or told until an index is used.
    expect(reader.refreshIfChanged()).toBe(true);
    expect(spy.updated).toEqual([]);

    derived.get();
    expect(spy.loads).toBe(2);
    const added = allMemories(writer).find((m) => m.content === 'written by the agent next door')!;
    // The change feed names both ends of a changed edge (an index of incoming edges needs the target
    // too): the targets of the edges the edit and the new link rewrote (nooa's save rewrites a memory's
    // edges whole) and of the deleted memory's edges are told as well.
    const targets = [linker, edited, deleted].flatMap((m) => m.edges.map((e) => e.target_id)).concat(target.id);
    expect(new Set(spy.updated)).toEqual(new Set([added.id, edited.id, archived.id, linker.id, ...pointingAtDeleted, ...targets].filter((id) => id !== deleted.id)));
    expect(spy.removed).toEqual([deleted.id]);
    const fresh = new SpyIndex();
    fresh.load(reader);
    expect(spy.rows).toEqual(fresh.rows);
    reader.close();
    writer.close();
  });

  it('patches a large outside import row by row from the change feed (its cost is what changed, not the store)', () => {
    const { reader, writer } = pair();
    const spy = new SpyIndex();
    const derived = new Derived(reader, spy);
    derived.get();
    writer.transaction(() => writer.add(createMemory({ content: 'first outside write' }, NOW), null));
    derived.get();
    expect(spy.loads).toBe(2);
    writer.transaction(() => {
      for (let i = 0; i < 1100; i++) writer.add(createMemory({ content: `bulk import ${i}` }, NOW), null);
    });
    derived.get();
    expect(spy.loads).toBe(2);
    expect(spy.updated).toHaveLength(1100);
    const fresh = new SpyIndex();
    fresh.load(reader);
    expect(spy.rows).toEqual(fresh.rows);
    reader.close();
    writer.close();
  });

  it('rebuilds when the feed no longer reaches back to what the index saw (retention pruned it)', () => {
    const { reader, writer } = pair();
    const spy = new SpyIndex();
    const derived = new Derived(reader, spy);
    writer.transaction(() => writer.add(createMemory({ content: 'installs the feed' }, NOW), null));
    derived.get();
    const loads = spy.loads;
    writer.transaction(() => writer.add(createMemory({ content: 'after the index was built' }, NOW), null));
    writer.setMeta('feed_pruned_through', String(writer.feedPosition()!.seq));
    derived.get();
    expect(spy.loads).toBe(loads + 1);
    expect(spy.updated).toEqual([]);
    reader.close();
    writer.close();
  });

  it("skips, for an index that reads no edges, a memory whose only change was an edge at it; an index that reads edges hears it", () => {
    const { reader, writer } = pair();
    const full = new SpyIndex();
    const blind = Object.assign(new SpyIndex(), { readsNoEdges: true });
    const derived = [new Derived(reader, full), new Derived(reader, blind)];
    const catchUp = () => derived.forEach((d) => d.get());
    catchUp();
    writer.transaction(() => writer.add(createMemory({ content: 'first outside write' }, NOW), null));
    catchUp(); // the first outside commit rebuilds
    const live = allMemories(writer);
    const deleted = live.find((m) => writer.incoming(m.id).length > 0 && m.edges.length > 0)!;
    const pointing = writer.incoming(deleted.id).map((e) => e.src);
    const ends = new Set([deleted.id, ...pointing, ...deleted.edges.map((e) => e.target_id)]);
    const [linker, target, edited] = live.filter((m) => !ends.has(m.id) && !m.edges.some((e) => ends.has(e.target_id)));
    full.updated.length = 0;
    blind.updated.length = 0;
    // Another process deletes a memory (its neighbours lose an edge, their rows unchanged), links two others (an edge row only) and edits a third.
    writer.transaction(() => {
      writer.delete(deleted.id);
      writer.addEdge(linker!.id, target!.id, 'supports', 0.5);
      writer.save({ ...edited!, content: `${edited!.content} (edited next door)` });
    });
    catchUp();
    const edgeOnly = [...ends, linker!.id, target!.id].filter((id) => id !== deleted.id);
    expect(new Set(full.updated)).toEqual(new Set([edited!.id, ...edgeOnly]));
    expect(blind.updated).toEqual([edited!.id]);
    expect(blind.removed).toEqual([deleted.id]);
    // What the blind index holds of each row (here, its content) is still what a fresh load reads.
    const fresh = new SpyIndex();
    fresh.load(reader);
    const contents = (rows: Map<string, string>) => new Map([...rows].map(([id, r]) => [id, r.split(' | ')[0]]));
    expect(contents(blind.rows)).toEqual(contents(fresh.rows));
    expect(full.rows).toEqual(fresh.rows);
    reader.close();
    writer.close();
  });
  it('skips, for an index that reads no usage, a memory whose only change was an access (its own or another connection\'s); an index that reads usage hears it', () => {
    const { reader, writer } = pair();
    const full = new SpyIndex();
    const blind = Object.assign(new SpyIndex(), { readsNoUsage: true });
    const derived = [new Derived(reader, full), new Derived(reader, blind)];
    const catchUp = () => derived.forEach((d) => d.get());
    catchUp();
    writer.transaction(() => writer.add(createMemory({ content: 'first outside write' }, NOW), null));
    catchUp(); // the first outside commit rebuilds
    const [recalledThere, recalledAndEdited, recalledHere] = allMemories(writer).filter((m) => !m.archived);
    full.updated.length = 0;
    blind.updated.length = 0;
    // Another process's recall logs accesses (only usage changes); it also recalls and then edits a second memory.
    writer.logAccesses([recalledThere!, recalledAndEdited!].map((m) => ({ id: m.id, record: accessRecord(NOW + 1, 'recalled') })));
    writer.save({ ...writer.get(recalledAndEdited!.id)!, content: `${recalledAndEdited!.content} (edited next door)` });
    catchUp();
    expect(new Set(full.updated)).toEqual(new Set([recalledThere!.id, recalledAndEdited!.id]));
    expect(blind.updated).toEqual([recalledAndEdited!.id]);
    // This connection's own recall: told as it is written, to the index that reads usage only.
    full.updated.length = 0;
    blind.updated.length = 0;
    reader.logAccesses([{ id: recalledHere!.id, record: accessRecord(NOW + 2, 'recalled') }]);
    catchUp();
    expect(full.updated).toEqual([recalledHere!.id]);
    expect(blind.updated).toEqual([]);
    // What the blind index holds is still what a fresh load reads (an access changes no content or edge).
    const fresh = new SpyIndex();
    fresh.load(reader);
    expect(blind.rows).toEqual(fresh.rows);
    expect(reader.get(recalledThere!.id)!.access_count).toBe(recalledThere!.access_count + 1);
    reader.close();
    writer.close();
  });

  it("skips, for an index that reads no scores, a memory another connection only rescored; any other change to it is re-read, even one undone since", () => {
    const { reader, writer } = pair();
    const full = new SpyIndex();
    const blind = Object.assign(new SpyIndex(), { readsNoUsage: true, readsNoScores: true });
    const derived = [new Derived(reader, full), new Derived(reader, blind)];
    const catchUp = () => derived.forEach((d) => d.get());
    catchUp();
    writer.transaction(() => writer.add(createMemory({ content: 'first outside write' }, NOW), null));
    catchUp(); // the first outside commit rebuilds
    const [rescored, salienceToo, rescoredThenEdited, editedAndBack, reembedded, archived, rescoredAndRecalled] = allMemories(writer).filter((m) => !m.archived);
    full.updated.length = 0;
    blind.updated.length = 0;
    // A reflection's rescore next door, in two commits as a paced apply writes it.
    writer.transaction(() => {
      writer.save({ ...writer.get(rescored!.id)!, importance: 0.123 });
      writer.save({ ...writer.get(salienceToo!.id)!, importance: 0.2, salience: 0.9 });
      writer.save({ ...writer.get(rescoredThenEdited!.id)!, importance: 0.3 });
      writer.save({ ...writer.get(editedAndBack!.id)!, content: 'for a moment, something else' });
      writer.save({ ...writer.get(reembedded!.id)!, importance: 0.4 });
      writer.setEmbedding(reembedded!.id, new Float32Array([1, 0, 0]));
      writer.save({ ...writer.get(rescoredAndRecalled!.id)!, importance: 0.6 });
    });
    // An agent's recall of one of them after (nooa's data JSON repeats importance and the access counters: both moved).
    writer.logAccesses([{ id: rescoredAndRecalled!.id, record: accessRecord(NOW + 3, 'recalled') }]);
    writer.transaction(() => {
      writer.save({ ...writer.get(rescoredThenEdited!.id)!, content: `${rescoredThenEdited!.content} (edited next door)` });
      writer.save({ ...writer.get(editedAndBack!.id)!, content: editedAndBack!.content, importance: 0.5 });
      writer.setArchived(archived!.id, true);
    });
    catchUp();
    const all = [rescored, salienceToo, rescoredThenEdited, editedAndBack, reembedded, archived, rescoredAndRecalled].map((m) => m!.id);
    expect(new Set(full.updated)).toEqual(new Set(all));
    // A content edit back to the text it had is seen by its before-image: re-read, as nothing says the edit did not matter.
    expect(new Set(blind.updated)).toEqual(new Set([rescoredThenEdited!.id, editedAndBack!.id, reembedded!.id, archived!.id]));
    // What the blind index holds is still what a fresh load reads.
    const fresh = new SpyIndex();
    fresh.load(reader);
    expect(blind.rows).toEqual(fresh.rows);
    expect(full.rows).toEqual(fresh.rows);
    expect(reader.get(rescored!.id)!.importance).toBe(0.123);
    expect(reader.get(rescoredAndRecalled!.id)!.access_count).toBe(rescoredAndRecalled!.access_count + 1);
    reader.close();
    writer.close();
  });

  it('reads every index inside readFresh as the store stood at its start: one check, and a commit made meanwhile is caught up after', () => {
    const { reader, writer } = pair();
    const spy = new SpyIndex();
    const derived = new Derived(reader, spy);
    // Past the first outside commit (a rebuild), so later ones are patched row by row.
    writer.transaction(() => writer.add(createMemory({ content: 'first outside write' }, NOW), null));
    derived.get();
    const loads = spy.loads;
    let added = '';
    const seenInside = reader.readFresh(() => {
      derived.get();
      const m = createMemory({ content: 'committed next door mid-read' }, NOW);
      writer.transaction(() => writer.add(m, null));
      added = m.id;
      // A second index read of the same answer does not check again, so it still shows the start.
      return derived.get().rows.has(added);
    });
    expect(seenInside).toBe(false);
    expect(spy.updated).not.toContain(added);
    // The next read (inside a scope of its own or not) catches up, row by row.
    expect(reader.readFresh(() => derived.get().rows.has(added))).toBe(true);
    expect(spy.loads).toBe(loads);
    expect(spy.updated).toContain(added);
  });
});
