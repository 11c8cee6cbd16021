/**
 * Turns one LoCoMo conversation into memories in an engine's store, the way an agent would have
 * written them while the conversation happened:
 * - one `episode` memory per session ("Conversation session 3, 1:56 pm on 8 May, 2023");
 * - one `episode` memory per turn, content "Speaker: text [shares caption]", created at the
 *   session's time plus one minute per turn, entities = the speaker (plus extracted names when
 *   asked: on LoCoMo they cost recall, see docs/benchmarks/locomo.md),
 *   a `part_of` edge to its session and a `precedes` edge to the next turn of the session.
 * Ids are derived from the sample id and the dia_id, so runs are identical and ties reproducible.
 * Everything is written in one transaction outside the journal: a benchmark store is scratch.
 */
import { createHash } from 'node:crypto';
import { createMemory, embeddingText, type Edge } from '../../core/model/memory.js';
import type { Engine } from '../../core/engine/engine.js';
import { turnText, type Conversation } from './dataset.js';
import { extractEntities } from './entities.js';

/** Seconds between consecutive turns of one session (the data gives only the session's time). */
export const TURN_SPACING_S = 60;

export interface IngestOptions {
  /** Add extracted names to each turn's entities (the speaker is always there). */
  extractEntities?: boolean;
  /** Write session memories with `part_of` edges from their turns. */
  sessionEdges?: boolean;
  /** Write `precedes` edges between consecutive turns of a session. */
  turnEdges?: boolean;
}

export interface Ingested {
  /** memory id → dia_id, for turn memories only. */
  diaOf: Map<string, string>;
  /** The time of the last turn plus one spacing: "the end of the conversation". */
  endTime: number;
  turns: number;
  sessions: number;
}

export function memoryIdFor(sampleId: string, key: string): string {
  return createHash('sha256').update(`locomo/${sampleId}/${key}`).digest('hex').slice(0, 32);
}

export function ingestConversation(engine: Engine, conv: Conversation, opts: IngestOptions = {}): Ingested {
  const { extractEntities: extract = false, sessionEdges = true, turnEdges = true } = opts;
  const diaOf = new Map<string, string>();
  let endTime = 0;
  const store = engine.store;
  const write = (input: Parameters<typeof createMemory>[0]) => {
    const m = createMemory(input, input.created_at ?? 0);
    store.add(m, engine.embedder.embedSync ? engine.embedder.embedSync(embeddingText(m)) : null);
  };
  store.transaction(() => {
    for (const session of conv.sessions) {
      const sessionId = memoryIdFor(conv.sampleId, `S${session.n}`);
      if (sessionEdges) {
        write({
          id: sessionId,
          type: 'episode',
          content: `Conversation session ${session.n} between ${conv.speakers.join(' and ')}, ${session.stamp}`,
          created_at: session.time,
          entities: [...conv.speakers],
          place_or_task: `session ${session.n}`,
        });
      }
      session.turns.forEach((turn, i) => {
        const id = memoryIdFor(conv.sampleId, turn.diaId);
        const created = session.time + i * TURN_SPACING_S;
        const edges: Edge[] = [];
        if (sessionEdges) edges.push({ target_id: sessionId, type: 'part_of', weight: 1, created_at: created });
        const next = session.turns[i + 1];
        if (turnEdges && next) edges.push({ target_id: memoryIdFor(conv.sampleId, next.diaId), type: 'precedes', weight: 1, created_at: created });
        const entities = [turn.speaker];
        if (extract) for (const e of extractEntities(`${turn.text} ${turn.caption ?? ''}`)) if (e !== turn.speaker.toLowerCase()) entities.push(e);
        write({ id, type: 'episode', content: turnText(turn), created_at: created, entities, edges });
        diaOf.set(id, turn.diaId);
        endTime = Math.max(endTime, created + TURN_SPACING_S);
      });
    }
  });
  return { diaOf, endTime, turns: diaOf.size, sessions: sessionEdges ? conv.sessions.length : 0 };
}
