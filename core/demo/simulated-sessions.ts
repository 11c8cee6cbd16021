/**
 * A store whose access log was written by a simulated agent with a known taste, for checking that
 * `mnemo tune log` recovers it (test/cli/tune-recovery.test.ts, docs/tuning.md § Recovery).
 *
 * The store holds `groups` groups of `members` memories. A group's memories share their words
 * (and differ by one token the query does not contain), so relevance barely separates them; they
 * differ in importance and in how recently they were last read (a read by another session, from
 * seconds to two hours before the group is asked: recency is ACT-R activation over reads, so
 * only recent reads separate memories under the usual decay). Session g asks group g once: the
 * store's own profile shows the group, and the agent dereferences the one memory that the *true*
 * profile (the mnemo profile with the given weights) ranked first, among those shown, just before the recall.
 * So what was used follows the ranking under the true knobs, and each group is asked by one
 * session only, so one session's uses cannot raise the recency of what a later one labels.
 * Seeded: the same options give the same store.
 */
import { Engine } from '../engine/engine.js';
import { createMemory, embeddingText } from '../model/memory.js';
import { rank } from '../recall/pipeline.js';
import { MNEMO_PROFILE, type RecallProfile, type RecallWeights } from '../recall/profile.js';
import { recallAndLog, touchOne } from '../recall/record.js';
import { applyOverrides } from '../recall/saved-profiles.js';
import { rng } from './generate.js';

export interface SimulatedLogOptions {
  /** A new store file. */
  path: string;
  /** The agent's taste: weights set on top of the mnemo profile. */
  truth: Partial<RecallWeights>;
  groups: number;
  members: number;
  seed: number;
  /** The first session's instant (epoch seconds); sessions are an hour apart. */
  start: number;
}

export interface SimulatedLog {
  truth: RecallProfile;
  sessions: number;
}

/** The longest gap between a memory's last read and its group's recall, in seconds. */
const MAX_READ_GAP_S = 7_200;

export function writeSimulatedLog(opts: SimulatedLogOptions): SimulatedLog {
  const rand = rng(opts.seed);
  const truth: RecallProfile = { name: 'truth', ...applyOverrides(MNEMO_PROFILE, { knobs: { weights: opts.truth } }) };
  let now = opts.start - 60;
  const engine = Engine.open(opts.path, { create: true, clock: { now: () => now } });
  try {
    const groups = Array.from({ length: opts.groups }, (_, g) =>
      Array.from({ length: opts.members }, (_, m) => {
        const memory = createMemory({ content: `topic${g} area${g} note v${m}`, importance: 1 + Math.floor(rand() * 10), created_at: now - 86_400 * (1 + Math.floor(rand() * 365)) }, now);
        engine.store.add(memory, engine.embedder.embedSync!(embeddingText(memory)));
        return { id: memory.id, gap: 5 + Math.floor(rand() * MAX_READ_GAP_S) };
      }),
    );
    groups.forEach((members, g) => {
      const asked = opts.start + g * 3 * MAX_READ_GAP_S;
      // The earlier reads, oldest first, each by a session of its own (so none is a use).
      for (const m of [...members].sort((a, b) => b.gap - a.gap)) {
        now = asked - m.gap;
        touchOne(engine, m.id, 'deref', { owner: 'agent@sim', session_ref: `read-${g}-${m.id}` });
      }
      now = asked;
      const query = `topic${g} area${g}`;
      // Ranked by the truth before the recall, whose own accesses would make every result equally recent.
      const preferred = rank(engine, { query, hops: truth.knobs.hops, owner: null, profile: truth, now }).rows.map((r) => r.id);
      const reader = { owner: 'agent@sim', session_ref: `sim-${g}` };
      const shown = new Set(recallAndLog(engine, { query, k: opts.members }, 'recalled', reader).rows.map((r) => r.id));
      const choice = preferred.find((id) => shown.has(id));
      now += 30;
      if (choice) touchOne(engine, choice, 'deref', reader);
    });
  } finally {
    engine.close();
  }
  return { truth, sessions: opts.groups };
}
