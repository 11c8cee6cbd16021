/**
 * Small stores for the tuner's tests.
 * - recencyPairs: pairs of memories with the same text and importance, one old and one fresh;
 *   the fresh one is the relevant one, so only a recency weight above 0 ranks it first.
 * - loggedStore: a store file whose access log holds sessions that recall and then dereference
 *   one of the results (the log-label rule's evidence), beside accesses the rule must not count.
 */
import { Engine } from '../../core/engine/engine.js';
import { recallAndLog, touchOne } from '../../core/recall/record.js';
import type { LabelledQuery } from '../../core/tune/labels.js';
import { movableClock, newEngine, NOW, put } from './recall-store.js';
import { join } from 'node:path';
import { tempDir } from '../../support/fixture.js';

const WORDS = ['amber', 'basalt', 'cobalt', 'dune', 'ember', 'fjord', 'garnet', 'harbor', 'indigo', 'jasper', 'kelp', 'lichen', 'marble', 'nectar', 'onyx', 'pumice'];

export function recencyPairs(): { engine: Engine; train: LabelledQuery[]; heldOut: LabelledQuery[] } {
  const engine = newEngine();
  const queries: LabelledQuery[] = WORDS.map((w, i) => {
    const content = `project ${w} status report`;
    put(engine, { content, importance: 5, created_at: NOW - 30_000_000 - i });
    const fresh = put(engine, { content, importance: 5, created_at: NOW - 60 });
    return { id: w, query: content, owner: null, asOf: NOW, relevant: [fresh.id] };
  });
  return { engine, train: queries.slice(0, 8), heldOut: queries.slice(8) };
}

export interface LoggedStore {
  path: string;
  /** Per session: the memory it dereferenced after its recall. */
  used: Map<string, string>;
}

/**
 * `sessions` sessions an hour apart, each recalls "project <word> status" (k 3) then dereferences
 * the fresh memory. `decoys` (default true) adds the accesses the rule must not count (the old
 * twin dereferenced before the recall and by another session): off, the old twin is never used.
 */
export function loggedStore(sessions: number, opts: { decoys?: boolean } = {}): LoggedStore {
  const decoys = opts.decoys ?? true;
  const path = join(tempDir('mnemo-tune-'), 'store.sqlite');
  const clock = movableClock(NOW - 100_000);
  const engine = Engine.open(path, { create: true, clock });
  const used = new Map<string, string>();
  try {
    const old: string[] = [];
    const fresh = WORDS.map((w) => {
      old.push(put(engine, { content: `project ${w} status report`, importance: 5, created_at: NOW - 30_000_000 }).id);
      return put(engine, { content: `project ${w} status report`, importance: 5, created_at: NOW - 200_000 });
    });
    for (let s = 0; s < sessions; s++) {
      clock.advance(3600);
      const reader = { owner: 'agent@a1', session_ref: `session-${s}` };
      const w = s % WORDS.length;
      // Not uses: a dereference before the recall, and one by another session after it.
      if (decoys) touchOne(engine, old[w]!, 'deref', reader);
      clock.advance(1);
      recallAndLog(engine, { query: `project ${WORDS[w]} status report`, k: 3 }, 'recalled', reader);
      // Spontaneous injection labels nothing, even when its results are used.
      recallAndLog(engine, { query: `unrelated ${WORDS[w]}`, k: 3 }, 'injected', reader);
      clock.advance(5);
      if (decoys) touchOne(engine, old[w]!, 'deref', { owner: 'agent@a1', session_ref: `other-${s}` });
      touchOne(engine, fresh[w]!.id, 'deref', reader);
      used.set(reader.session_ref, fresh[w]!.id);
    }
  } finally {
    engine.close();
  }
  return { path, used };
}
