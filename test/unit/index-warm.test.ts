/**
 * A copy of an index loaded ahead of a hand-over (store/derived/index-handoff.ts) is warmed: what its
 * restore left for first use is read then, so the first call after the swap reads no part.
 */
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { addMemory } from '../../core/engine/memory-ops.js';
import { LiveVectors } from '../../core/embed/live-vectors.js';
import { KeywordIndex } from '../../core/recall/mnemo/keyword-index.js';
import { handoffHoldMs } from '../../core/store/derived/index-handoff.js';
import type { PartSource, SnapshotParts } from '../../core/store/derived/snapshot-parts.js';

/** The parts, counting every read of them. */
function counting(parts: SnapshotParts): PartSource & { reads: number } {
  const source = {
    reads: 0,
    get: (name: string) => {
      source.reads++;
      return parts.get(name);
    },
    has: (name: string) => parts.has(name),
  };
  return source;
}

async function engineWith(n: number): Promise<Engine> {
  const engine = Engine.open(':memory:', { create: true, clock: fixedClock(1000) });
  const words = ['fence', 'blue', 'deploy', 'service', 'release', 'notes', 'database', 'migration', 'tuesday', 'paint'];
  for (let i = 0; i < n; i++) await addMemory(engine, { content: `${words[i % 10]} ${words[(i * 3) % 10]} ${words[(i * 7) % 10]} item ${i}` });
  return engine;
}

describe('warming an index read back from a snapshot', () => {
  it('the keyword index reads every term it left for first use, and a search after reads nothing', async () => {
    const engine = await engineWith(60);
    const built = new KeywordIndex(true);
    built.load(engine.store);
    const parts = counting(built.saveSnapshot()!);
    const lazy = new KeywordIndex(true);
    lazy.restoreSnapshot(parts, engine.store);
    const search = (idx: KeywordIndex) => idx.search({ terms: ['deploy', 'migration'], limit: 10, contextWeight: 0 }).map((h) => h.id);
    // Unwarmed, a search reads the postings it needs.
    const unwarmed = new KeywordIndex(true);
    const parts2 = counting(built.saveSnapshot()!);
    unwarmed.restoreSnapshot(parts2, engine.store);
    const before = parts2.reads;
    expect(search(unwarmed)).toEqual(search(built));
    expect(parts2.reads).toBeGreaterThan(before);
    lazy.warm();
    const afterWarm = parts.reads;
    expect(search(lazy)).toEqual(search(built));
    expect(parts.reads).toBe(afterWarm);
    engine.close();
  });

  it('the vector index reads every dimension list, and a nearest-neighbour query after reads nothing', async () => {
    const engine = await engineWith(60);
    const built = new LiveVectors(engine.embedder.dim, engine.embedder.name);
    built.load(engine.store);
    const [q] = await engine.embedder.embed(['deploy the service']);
    const knn = (v: LiveVectors) => v.knn(q!, 5).map((h) => h.id);
    const unwarmed = new LiveVectors(engine.embedder.dim, engine.embedder.name);
    const parts2 = counting(built.saveSnapshot()!);
    unwarmed.restoreSnapshot(parts2, engine.store);
    const before = parts2.reads;
    expect(knn(unwarmed)).toEqual(knn(built));
    expect(parts2.reads).toBeGreaterThan(before);
    const lazy = new LiveVectors(engine.embedder.dim, engine.embedder.name);
    const parts = counting(built.saveSnapshot()!);
    lazy.restoreSnapshot(parts, engine.store);
    lazy.warm();
    const afterWarm = parts.reads;
    expect(knn(lazy)).toEqual(knn(built));
    expect(parts.reads).toBe(afterWarm);
    engine.close();
  });
});

describe('how long a writer holds its marker for the hand-over', () => {
  it('twice the time its snapshots took to write, within 5 and 30 s', () => {
    expect(handoffHoldMs(100)).toBe(5000);
    expect(handoffHoldMs(4000)).toBe(8000);
    expect(handoffHoldMs(60_000)).toBe(30_000);
  });
});
