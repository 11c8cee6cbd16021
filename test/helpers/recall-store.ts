/** Small hand-built stores for recall tests: memories are added synchronously with their embeddings. */
import { join } from 'node:path';
import { fixedClock, type Clock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { createMemory, embeddingText, type Memory, type NewMemoryInput } from '../../core/model/memory.js';
import type { ProfileName } from '../../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/fixture.js';

export const NOW = 1_780_000_000;

/** A mutable clock so a test can move time forward. */
export function movableClock(start = NOW): Clock & { set(t: number): void; advance(s: number): void } {
  let t = start;
  return { now: () => t, set: (v) => (t = v), advance: (s) => (t += s) };
}

export function newEngine(opts: { profile?: ProfileName; clock?: Clock } = {}): Engine {
  const path = join(tempDir('mnemo-recall-'), 'store.sqlite');
  return Engine.open(path, { create: true, clock: opts.clock ?? fixedClock(NOW), ...(opts.profile ? { initialProfile: opts.profile } : {}) });
}

export function put(engine: Engine, input: NewMemoryInput): Memory {
  const m = createMemory({ created_at: engine.now() - 3600, ...input }, engine.now());
  engine.store.add(m, engine.embedder.embedSync!(embeddingText(m)));
  return m;
}
