/**
 * The store port's contract: every store behaviour the engine relies on, written against the port
 * (core/store/port/port.ts) only, and run once per adapter (support/store-adapters.ts). A new backend
 * passes this suite before the engine runs on it; both SQLite and PostgreSQL run every test. An
 * adapter that cannot run on this machine (no PostgreSQL server) skips them, saying why.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { MnemoError } from '../../core/errors.js';
import { accessRecord, createMemory, type Memory, type NewMemoryInput } from '../../core/model/memory.js';
import type { StoreWriter } from '../../core/store/port/port.js';
import { encodeRow } from '../../core/store/port/codec.js';
import { contentHash } from '../../core/model/content-hash.js';
import { STORE_ADAPTERS, type StoreUnderTest } from '../../support/store-adapters.js';
import { wholeTableQueriesContract, type ContractHarness } from './store-port-contract-queries.js';
import type { ChangeEvent } from '../../core/store/port/store-rows.js';
import { credentialByHash, credentialById, credentialRefs, credentialUse, insertCredential, listCredentialRows, markRevoked } from '../../core/store/queries/credentials.js';
import { beliefTables } from '../../core/store/queries/belief-tables.js';
import { allMemories, countMemories, memoryEmbedding, memoryOwner, requireMemory, requireMemoryId } from '../../core/store/queries/memory-lookups.js';
import { accessEventCount } from '../../core/store/queries/access-log.js';
import { putTombstone, tombstoneFor } from '../../core/store/queries/tombstones.js';
import { feedRetention, setFeedRetention } from '../../core/store/queries/feed-retention.js';

const NOW = 1_700_000_000;

function codeOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (err) {
    return err instanceof MnemoError ? err.code : `not a MnemoError: ${String(err)}`;
  }
}

describe.each(STORE_ADAPTERS)('store port contract: $name', (adapter) => {
  let fx: StoreUnderTest | null = null;
  let store: StoreWriter;
  /** `it`, skipped (with the reason) on an adapter that cannot run here. */
  const contractIt = (title: string, fn: () => unknown) => {
    it(title, (ctx) => {
      const reason = adapter.unavailable();
      if (reason) return ctx.skip(reason);
      return fn();
    });
  };
  beforeAll(() => adapter.setUp());
  afterAll(() => adapter.tearDown());
  beforeEach(() => {
    if (adapter.unavailable()) return;
    fx = adapter.fresh(fixedClock(NOW));
    store = fx.store;
  });
  afterEach(() => {
    fx?.dispose();
    fx = null;
  });

  const memory = (input: NewMemoryInput): Memory => createMemory(input, NOW);
  const added = (input: NewMemoryInput, embedding: Float32Array | null = null): Memory => {
    const m = memory(input);
    store.add(m, embedding);
    return m;
  };
  const vector = (seed: number): Float32Array => Float32Array.from({ length: store.dim }, (_, i) => Math.sin(seed + i));
  /** For the suite's parts in files of their own (the store and fixture of the running test, read when it runs). */
  const harness: ContractHarness = {
    contractIt,
    added,
    vector,
    NOW,
    get store() {
      return store;
    },
    get fx() {
      return fx!;
    },
  };

  describe('memories', () => {
    contractIt('add then get returns the same record; getMany leaves missing ids out', () => {
      const a = added({ content: 'alpha content', title: 'Alpha', tags: ['x'] });
      const b = added({ content: 'beta content' });
      expect(store.get(a.id)).toEqual(a);
      expect(store.get('no-such-id')).toBeNull();
      expect(store.exists(a.id)).toBe(true);
      const many = store.getMany([a.id, 'missing', b.id, a.id]);
      expect([...many.keys()].sort()).toEqual([a.id, b.id].sort());
      expect(many.get(b.id)!.content).toBe('beta content');
      expect(allMemories(store).map((m) => m.id)).toEqual([a.id, b.id]);
    });

    contractIt('save rewrites a record and keeps its embedding; saving a missing record is not_found', () => {
      const a = added({ content: 'before' }, vector(1));
      store.save({ ...a, content: 'after', importance: 0.9 });
      expect(store.get(a.id)).toMatchObject({ content: 'after', importance: 0.9 });
      expect(memoryEmbedding(store, a.id)).toEqual(vector(1));
      expect(codeOf(() => store.save(memory({ content: 'never added' })))).toBe('not_found');
    });

    contractIt('archive hides a record from the default scope, restore brings it back; each reports whether it changed anything', () => {
      const a = added({ content: 'to archive' });
      added({ content: 'stays' });
      expect(store.setArchived(a.id, true)).toBe(true);
      expect(store.setArchived(a.id, true)).toBe(false);
      expect(store.get(a.id)!.archived).toBe(true);
      expect(countMemories(store)).toBe(1);
      expect(countMemories(store, { includeArchived: true })).toBe(2);
      expect(store.setArchived(a.id, false)).toBe(true);
      expect(store.setArchived(a.id, false)).toBe(false);
      expect(countMemories(store)).toBe(2);
    });

    contractIt('delete removes the record and every edge into or out of it', () => {
      const a = added({ content: 'a' });
      const b = added({ content: 'b' });
      store.addEdge(a.id, b.id, 'supports');
      store.addEdge(b.id, a.id, 'related');
      expect(store.delete(b.id)).toBe(true);
      expect(store.delete(b.id)).toBe(false);
      expect(store.get(b.id)).toBeNull();
      expect(store.neighbors(a.id)).toEqual([]);
      expect(store.incoming(a.id)).toEqual([]);
    });
  });

  describe('edges', () => {
    contractIt('add, list both ways, keep the larger weight, and remove', () => {
      const a = added({ content: 'a' });
      const b = added({ content: 'b' });
      const c = added({ content: 'c' });
      expect(store.addEdge(a.id, b.id, 'supports', 0.5)).toBe(true);
      expect(store.addEdge(a.id, c.id, 'related')).toBe(true);
      expect(store.addEdge(a.id, b.id, 'supports', 0.2)).toBe(false);
      expect(store.neighbors(a.id).map((e) => [e.target_id, e.type, e.weight])).toEqual([
        [b.id, 'supports', 0.5],
        [c.id, 'related', 1],
      ]);
      expect(store.incoming(b.id)).toEqual([{ src: a.id, type: 'supports', weight: 0.5, created_at: NOW }]);
      expect(store.get(a.id)!.edges).toEqual(store.neighbors(a.id));
      const from = store.edgesFrom([a.id, b.id]);
      expect(from.get(a.id)).toHaveLength(2);
      expect(from.has(b.id)).toBe(false);
      expect(store.removeEdge(a.id, b.id, 'supports')).toBe(true);
      expect(store.removeEdge(a.id, b.id, 'supports')).toBe(false);
      expect(store.incoming(b.id)).toEqual([]);
    });

    contractIt('refuses an unknown edge type and a missing end', () => {
      const a = added({ content: 'a' });
      expect(codeOf(() => store.addEdge(a.id, a.id, 'likes'))).toBe('bad_input');
      expect(codeOf(() => store.addEdge(a.id, 'missing-target', 'related'))).toBe('not_found');
      expect(codeOf(() => store.addEdge('missing-source', a.id, 'related'))).toBe('not_found');
    });
  });

  describe('owners and ids', () => {
    contractIt('scopes list and count by owner: a role sees its instances and unowned rows, an instance itself and unowned rows', () => {
      added({ content: 'shared', owner: '' });
      added({ content: 'alice one', owner: 'alice@1' });
      added({ content: 'alice two', owner: 'alice@2' });
      added({ content: 'bob', owner: 'bob@1' });
      const contents = (owner: string | null) => allMemories(store, { owner }).map((m) => m.content).sort();
      expect(countMemories(store, { owner: null })).toBe(4);
      expect(contents('alice')).toEqual(['alice one', 'alice two', 'shared']);
      expect(contents('alice@2')).toEqual(['alice two', 'shared']);
      expect(countMemories(store, { owner: 'bob' })).toBe(2);
      expect(countMemories(store, { owner: 'carol' })).toBe(1);
      expect(memoryOwner(store, allMemories(store, { owner: 'bob@1' }).find((m) => m.content === 'bob')!.id)).toBe('bob@1');
    });

    contractIt('resolves an exact id or a unique prefix of at least 6 characters, literally', () => {
      const a = added({ id: 'abcdef0123456789abcdef0123456789', content: 'a' });
      added({ id: 'abcdef0f23456789abcdef0123456789', content: 'b' });
      expect(store.resolveId(a.id)).toBe(a.id);
      expect(store.resolveId('abcdef01')).toBe(a.id);
      expect(store.resolveId('abcde')).toBeNull();
      expect(store.resolveId('abcd%f')).toBeNull();
      expect(store.resolveId('zzzzzzzz')).toBeNull();
      expect(codeOf(() => store.resolveId('abcdef'))).toBe('bad_input');
      expect(requireMemory(store, 'abcdef01').content).toBe('a');
      expect(codeOf(() => requireMemoryId(store, 'zzzzzzzz'))).toBe('not_found');
    });
  });

  contractIt('round-trips embeddings, and clears one', () => {
    const a = added({ content: 'with a vector' }, vector(2));
    const b = added({ content: 'without' });
    expect(memoryEmbedding(store, a.id)).toEqual(vector(2));
    expect(memoryEmbedding(store, b.id)).toBeNull();
    store.setEmbedding(b.id, vector(3));
    expect(memoryEmbedding(store, b.id)).toEqual(vector(3));
    store.setEmbedding(a.id, null);
    expect(memoryEmbedding(store, a.id)).toBeNull();
  });

  describe('access events', () => {
    contractIt('logAccesses updates the record and writes one event per access; the events can be filtered', () => {
      const a = added({ content: 'a' });
      const b = added({ content: 'b' });
      const before = accessEventCount(store);
      store.logAccesses([
        { id: a.id, record: accessRecord(NOW + 1, 'recalled', { query: 'first', reader_owner: 'alice@1' }), terms: { rel: 0.5, rec: 0.1, imp: 0.2, spread: 0 } },
        { id: b.id, record: accessRecord(NOW + 2, 'searched', { query: 'second' }) },
        { id: 'missing', record: accessRecord(NOW + 3, 'recalled') },
      ]);
      expect(accessEventCount(store)).toBe(before + 2);
      const after = store.get(a.id)!;
      expect(after.access_count).toBe(a.access_count + 1);
      expect(after.access_log.at(-1)).toMatchObject({ ts: NOW + 1, channel: 'recalled', query: 'first' });
      const recalled = store.accessEvents({ memoryId: a.id, channels: ['recalled'] });
      expect(recalled.total).toBe(1);
      expect(recalled.events[0]).toMatchObject({ memory_id: a.id, query: 'first', reader_owner: 'alice@1', ts: NOW + 1 });
      expect(recalled.events[0]!.terms).toMatchObject({ rel: 0.5 });
      expect(store.accessEvents({ query: 'second' }).events.map((e) => e.memory_id)).toEqual([b.id]);
      // The query text matches as SQLite's LIKE does: a part of it, ASCII case folded, % and _ literal.
      expect(store.accessEvents({ query: 'ECON' }).events.map((e) => e.memory_id)).toEqual([b.id]);
      expect(store.accessEvents({ query: 's%d' }).total).toBe(0);
      expect(store.accessEvents({ since: NOW + 2, channels: ['recalled', 'searched'] }).total).toBe(1);
    });

    contractIt('recordAccessEvents writes the given ring entries as events without touching the record', () => {
      const a = added({ content: 'a' });
      const before = store.get(a.id)!;
      store.recordAccessEvents(a.id, [accessRecord(NOW - 10, 'deref'), accessRecord(NOW - 5, 'recalled')], null, { backfilled: true });
      expect(store.accessEvents({ memoryId: a.id, order: 'asc' }).events.map((e) => [e.channel, e.backfilled])).toEqual([
        ['deref', true],
        ['recalled', true],
      ]);
      expect(store.get(a.id)).toEqual(before);
    });
  });

  describe('journal', () => {
    contractIt('a change is one undoable step: undo restores the store as it was, redo reapplies it', () => {
      const a = added({ content: 'kept' });
      const { result, changeId } = store.change('edit and add', 'test', () => {
        store.save({ ...a, content: 'edited' });
        const b = memory({ content: 'new in the change' });
        store.add(b, null);
        return b;
      });
      expect(changeId).not.toBeNull();
      const summary = store.journal.history(1)[0]!;
      expect(summary).toMatchObject({ id: changeId, label: 'edit and add', kind: 'test', state: 'applied' });
      expect(store.journal.get(changeId!).id).toBe(changeId);
      expect(store.journal.rows(changeId!).map((r) => r.key).sort()).toEqual([`m:${a.id}`, `m:${result.id}`].sort());

      store.journal.undo(changeId!);
      expect(store.get(a.id)!.content).toBe('kept');
      expect(store.get(result.id)).toBeNull();
      expect(store.journal.get(changeId!).state).toBe('undone');

      store.journal.redo();
      expect(store.get(a.id)!.content).toBe('edited');
      expect(store.get(result.id)!.content).toBe('new in the change');
      expect(store.journal.get(changeId!).state).toBe('applied');
    });

    contractIt('a later change that builds on an earlier one is its dependent', () => {
      const a = added({ content: 'a' });
      const first = store.change('first', 'test', () => store.save({ ...a, content: 'a1' })).changeId!;
      const second = store.change('second', 'test', () => store.save({ ...store.get(a.id)!, content: 'a2' })).changeId!;
      expect(store.journal.dependents(first).map((c) => c.id)).toEqual([second]);
      expect(store.journal.dependents(second)).toEqual([]);
    });
  });

  contractIt('tombstones: one written in a change is found by content, and undoing the change removes it', () => {
    const content = 'forget me';
    const { changeId } = store.change('forget', 'test', () =>
      putTombstone(store, { hash: contentHash(content), memory_id: 'gone-id', owner: 'alice@1', ts: NOW, head: content }),
    );
    expect(tombstoneFor(store, content)).toMatchObject({ memory_id: 'gone-id', owner: 'alice@1', head: content });
    expect(tombstoneFor(store, 'something else')).toBeNull();
    store.journal.undo(changeId!);
    expect(tombstoneFor(store, content)).toBeNull();
  });

  contractIt('beliefs: dimensions, deltas and aliases round trip, and a reader sees them', () => {
    const delta = {
      entity: 'Ada',
      attribute: 'city',
      observed_entity: 'Ada L.',
      value: 'Lyon',
      t: NOW,
      reliability: 0.8,
      epsilon: 0.05,
      prior: {},
      posterior: { Lyon: 0.8 },
      surprise: 1.5,
      evidence: 'moved to Lyon',
      source: 'contract',
      memory_id: null,
      observation_id: null,
      recorded_at: NOW,
    };
    let deltaId = 0;
    store.transaction(() => {
      const beliefs = beliefTables(store);
      beliefs.prepareWrite();
      beliefs.putDimension({ entity: 'Ada', attribute: 'city', distribution: { Lyon: 0.8, Paris: 0.2 }, t_last: NOW, deltas: 1, mode: 'Lyon' });
      deltaId = beliefs.insertDelta(delta);
      beliefs.insertDelta({ ...delta, value: 'Paris', evidence: 'visited Paris once' });
      beliefs.indexEvidence(deltaId, deltaId + 1);
      beliefs.putAlias({ alias: 'Ada L.', canonical: 'Ada', divergence: null, shared: null, merged_at: NOW });
    });
    const reads = beliefTables(fx!.openReader());
    expect(reads.exists()).toBe(true);
    expect(reads.dimension('Ada', 'city')).toEqual({ entity: 'Ada', attribute: 'city', distribution: { Lyon: 0.8, Paris: 0.2 }, t_last: NOW, deltas: 1, mode: 'Lyon' });
    expect(reads.dimension('Ada', 'job')).toBeNull();
    expect(reads.delta(deltaId)).toEqual({ id: deltaId, ...delta });
    expect(reads.deltasOf('Ada', 'city').map((d) => d.value)).toEqual(['Lyon', 'Paris']);
    expect(reads.alias('Ada L.')).toMatchObject({ canonical: 'Ada' });
    expect(reads.searchEvidence('"lyon"', 5).map((h) => h.id)).toEqual([deltaId]);
    expect(reads.searchEvidence('"lyon" OR "paris"', 5)).toHaveLength(2);
    expect(reads.entities('ada', 10, 0)).toEqual([{ entity: 'Ada', dimensions: 1, deltas: 1, t_last: NOW }]);
    beliefTables(store).deleteAlias('Ada L.');
    expect(reads.alias('Ada L.')).toBeNull();
  });

  contractIt('meta: a value set is read back, here and by another connection', () => {
    expect(store.getMeta('contract.key')).toBeNull();
    store.setMeta('contract.key', 'one');
    store.setMeta('contract.key', 'two');
    expect(store.getMeta('contract.key')).toBe('two');
    expect(fx!.openAnother().getMeta('contract.key')).toBe('two');
  });

  contractIt('notices what another connection commits, and tells its listeners which memories changed', () => {
    const a = added({ content: 'ours' });
    const events: ChangeEvent[] = [];
    store.onChange((e) => events.push(e));
    store.save({ ...a, content: 'ours, edited' });
    expect(events).toEqual([{ kind: 'upsert', id: a.id }]);
    expect(store.refreshIfChanged()).toBe(false); // our own commits are not news

    const other = fx!.openAnother();
    const theirs = memory({ content: 'theirs' });
    other.add(theirs, null);
    events.length = 0;
    expect(store.refreshIfChanged()).toBe(true);
    expect(events).toEqual([]); // noted only: read when an index is next used
    expect(store.get(theirs.id)!.content).toBe('theirs');

    store.catchUp(); // from the change feed: the one memory they changed, not a rebuild
    expect(events).toEqual([{ kind: 'upsert', id: theirs.id }]);
    events.length = 0;
    other.save({ ...theirs, content: 'theirs, edited' });
    other.delete(a.id);
    store.catchUp();
    expect(events).toEqual(expect.arrayContaining([{ kind: 'upsert', id: theirs.id }, { kind: 'delete', id: a.id }]));
    expect(events).toHaveLength(2);
  });

  describe('transactions', () => {
    contractIt('are all-or-nothing: a throw inside leaves nothing written', () => {
      const a = added({ content: 'before' });
      const b = memory({ content: 'never stored' });
      expect(() =>
        store.transaction(() => {
          store.save({ ...a, content: 'half-done' });
          store.add(b, null);
          store.addEdge(a.id, b.id, 'related');
          throw new Error('boom');
        }),
      ).toThrow('boom');
      expect(store.get(a.id)!.content).toBe('before');
      expect(store.get(b.id)).toBeNull();
      expect(store.neighbors(a.id)).toEqual([]);
    });

    contractIt('a change that throws leaves no history row and no rows behind', () => {
      const historyBefore = store.journal.history().length;
      const b = memory({ content: 'never stored' });
      expect(() =>
        store.change('fails', 'test', () => {
          store.add(b, null);
          throw new Error('boom');
        }),
      ).toThrow('boom');
      expect(store.get(b.id)).toBeNull();
      expect(store.journal.history()).toHaveLength(historyBefore);
    });
  });

  describe('whole-table queries (store.queries), on the writer and on a read-only connection', () => {
    wholeTableQueriesContract(harness);
  });

  describe('long changes and bulk writes (store.runs)', () => {
    const fast = { batchMs: 1000, maxBatchItems: 1, pauseMs: 0 };

    contractIt('a change written in batches is one journalled change; undo and redo in batches replay it', async () => {
      const a = added({ content: 'before' });
      const run = store.runs.changeRun('batched edit', 'test');
      const pacer = store.runs.pacer({ ...fast });
      run.batch(() => store.save({ ...store.get(a.id)!, content: 'first batch' }));
      await pacer.between();
      run.batch(() => store.add(memory({ content: 'second batch' }), null));
      const changeId = run.finish(() => ({}));
      pacer.end();
      expect(changeId).not.toBeNull();
      expect(store.journal.history(1)[0]!.id).toBe(changeId);
      expect(countMemories(store)).toBe(2);
      await store.runs.replayInBatches({ undo: changeId! }, fast);
      expect(store.get(a.id)!.content).toBe('before');
      expect(countMemories(store)).toBe(1);
      await store.runs.replayInBatches({ redo: changeId! }, fast);
      expect(store.get(a.id)!.content).toBe('first batch');
      expect(countMemories(store)).toBe(2);
    });

    contractIt('undoWithDependents undoes a change and the later change built on it', async () => {
      const { changeId: first } = store.change('add', 'test', () => added({ content: 'base' }));
      const base = allMemories(store)[0]!;
      const { changeId: second } = store.change('edit', 'test', () => store.save({ ...base, content: 'built on' }));
      const r = await store.runs.undoWithDependents(first!);
      expect(r.undone.map((c) => c.id)).toEqual([second, first]);
      expect(countMemories(store)).toBe(0);
    });

    contractIt('an ingest run is refused while another is marked, and leaves no marker once cleared', () => {
      const run = store.transaction(() => store.runs.beginIngestRun());
      expect(codeOf(() => store.transaction(() => store.runs.beginIngestRun()))).toBe('busy');
      store.transaction(() => run.noteBatch(1, 3));
      expect(run.foreignDeltaDimensions()).toEqual([]);
      store.transaction(() => run.clear());
      expect(codeOf(() => store.transaction(() => run.clear()))).toBeNull();
      expect(codeOf(() => store.transaction(() => store.runs.beginIngestRun()))).toBeNull();
    });

    contractIt('feed retention: a policy set is read back, here and by a reader; prune reports what it removed', async () => {
      added({ content: 'fed' });
      expect(setFeedRetention(store, { days: 30 })).toMatchObject({ days: 30 });
      expect(feedRetention(fx!.openReader())).toMatchObject({ days: 30 });
      expect(store.queries.feedStatus().retention).toMatchObject({ days: 30 });
      expect(await store.runs.pruneFeed(NOW, fast)).toMatchObject({ removed: 0, done: true });
    });

    contractIt('credentials: stored by hash, listed, named, and revoked once', () => {
      const credential = { id: 'cred00000001', owner: 'coder@laptop', scopes: ['read-only'] as const, label: 'ci', created_at: NOW, revoked_at: null, token_hash: 'h'.repeat(64) };
      insertCredential(store, { ...credential, scopes: [...credential.scopes] });
      const reader = fx!.openReader();
      for (const s of [store, reader]) {
        expect(credentialByHash(s, 'h'.repeat(64))).toMatchObject({ id: 'cred00000001', owner: 'coder@laptop' });
        expect(credentialById(s, 'missing')).toBeNull();
        expect(listCredentialRows(s).map((c) => c.id)).toEqual(['cred00000001']);
        expect(credentialRefs(s).get('cred00000001')).toMatchObject({ owner: 'coder@laptop', label: 'ci' });
        expect(credentialUse(s)).toEqual([]);
      }
      expect(markRevoked(store, ['cred00000001'], NOW + 5)).toEqual(['cred00000001']);
      expect(markRevoked(store, ['cred00000001'], NOW + 6)).toEqual([]);
      expect(credentialById(reader, 'cred00000001')!.revoked_at).toBe(NOW + 5);
    });

    contractIt('a bulk load writes rows straight in and a fresh count sees them after finish', () => {
      const load = store.runs.beginBulkLoad();
      const m = memory({ content: 'bulk row' });
      load.insertMemory({ ...encodeRow(m), embedding: null });
      load.archive(m.id);
      load.finish();
      expect(store.get(m.id)).toMatchObject({ content: 'bulk row', archived: true });
      expect(countMemories(store, { includeArchived: true })).toBe(1);
    });
  });

  contractIt('a read-only connection reads the same store and refuses writes', () => {
    const a = added({ content: 'shared' });
    const reader = fx!.openReader();
    expect(reader.get(a.id)!.content).toBe('shared');
    expect(countMemories(reader)).toBe(1);
    // @ts-expect-error -- the read side of the port has no writes: this line must not compile.
    const write: unknown = reader.add;
    expect(write).toBeTypeOf('function'); // the adapter object has it; the reader's type does not
    expect(codeOf(() => (reader as unknown as StoreWriter).add(memory({ content: 'x' }), null))).toBe('bad_input');
    expect(countMemories(reader)).toBe(1);
  });
});
