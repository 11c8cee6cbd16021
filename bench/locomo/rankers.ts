/**
 * The two kinds of ranker the harness runs: the BM25 yardstick over raw turn text, and the
 * engine itself (turns ingested as memories, questions asked as recalls as of the end of the
 * conversation, in dataset time). Several engine variants (an ablation) share one ingested store
 * per conversation, so a variant costs only its recalls.
 */
import type { Clock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { baselineRetriever } from './bm25-baseline.js';
import type { Conversation } from './dataset.js';
import { ingestConversation, type IngestOptions, type Ingested } from './ingest.js';
import type { ConversationRanker, Ranker } from './runner.js';
import type { ProfileName } from '../../core/store/port/port.js';

export const bm25Ranker: Ranker = {
  name: 'bm25',
  open(conv) {
    const retrieve = baselineRetriever(conv);
    return { rank: (question, k) => retrieve(question, k) };
  },
};

/** Ranked memory ids for a query, best first (the engine's recall, as a dry run). */
export type EngineRecall = (engine: Engine, query: string, k: number) => string[] | Promise<string[]>;

class SettableClock implements Clock {
  t = 0;
  now(): number {
    return this.t;
  }
}

/** One ingested store per conversation, shared by every engine variant, closed when the next conversation opens. */
export class IngestedStores {
  private current: { sampleId: string; engine: Engine; ingested: Ingested } | null = null;
  ingestSeconds = 0;

  constructor(
    private readonly profile: ProfileName,
    private readonly ingest: IngestOptions = {},
  ) {}

  get(conv: Conversation): { engine: Engine; ingested: Ingested } {
    if (this.current?.sampleId === conv.sampleId) return this.current;
    this.close();
    const t = performance.now();
    const clock = new SettableClock();
    const engine = Engine.open(':memory:', { create: true, clock, profile: this.profile, initialProfile: this.profile });
    const ingested = ingestConversation(engine, conv, this.ingest);
    // Every question is asked as of the end of the conversation, in dataset time.
    clock.t = ingested.endTime;
    this.current = { sampleId: conv.sampleId, engine, ingested };
    this.ingestSeconds += (performance.now() - t) / 1000;
    return this.current;
  }

  close(): void {
    this.current?.engine.close();
    this.current = null;
  }
}

export function engineRanker(name: string, stores: IngestedStores, recall: EngineRecall): Ranker {
  return {
    name,
    open(conv): ConversationRanker {
      const { engine, ingested } = stores.get(conv);
      return {
        async rank(question, k) {
          // Ask for enough rows that session memories filtered out still leave k turns.
          const ids = await recall(engine, question, k + ingested.sessions);
          const out: string[] = [];
          for (const id of ids) {
            const dia = ingested.diaOf.get(id);
            if (dia !== undefined) out.push(dia);
            if (out.length === k) break;
          }
          return out;
        },
      };
    },
  };
}
