/**
 * `mnemo demo`: a realistic synthetic store. Every memory type, several owners (and unowned rows),
 * edges of every type, access histories spread over months (ring and event table), and
 * near-duplicates for reflection to find, and belief observations about a few services. Seeded, so the same size and seed give the same store.
 * Writes go through the store's bulk loader in large transactions: 100k memories with about
 * 1.2M access events take well under the 30 s budget.
 */
import { accessRecord, createMemory, embeddingText, logAccess, type AccessRecord, type Memory } from '../model/memory.js';
import { EDGE_TYPES, MEMORY_TYPES, type EdgeType, type MemoryType } from '../model/enums.js';
import { HashingEmbedder } from '../embed/hashing.js';
import { encodeRow, vectorToBlob } from '../store/port/codec.js';
import type { StoreWriter } from '../store/port/port.js';
import * as R from './recipe.js';
import { BeliefModel } from '../beliefs/model.js';
import { mulberry32 } from '../model/seeded-random.js';
import { demoObservations } from './beliefs.js';

export interface DemoOptions {
  size: number;
  seed: number;
  now: number;
  /** Days of history before `now`. */
  spanDays?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface DemoReport {
  memories: number;
  edges: number;
  access_events: number;
  near_duplicates: number;
  /** Belief observations ingested, so the Beliefs view has something to show on first start. */
  belief_observations: number;
  seconds: number;
}

/** Uniform in [0, 1), seeded (mulberry32): small, fast and good enough for synthetic data. */
export function rng(seed: number): () => number {
  const next = mulberry32(seed);
  return () => next() / 4294967296;
}

const TYPE_WEIGHTS: [MemoryType, number][] = [
  ['info', 30],
  ['episode', 25],
  ['skill', 12],
  ['reflection', 10],
  ['todo', 8],
  ['scratch', 8],
  ['intent', 7],
];

function hexId(rand: () => number): string {
  let s = '';
  for (let i = 0; i < 4; i++) s += Math.floor(rand() * 0x100000000).toString(16).padStart(8, '0');
  return s;
}

export function generateDemo(store: StoreWriter, opts: DemoOptions): DemoReport {
  const started = Date.now();
  const rand = rng(opts.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const weighted = <T>(pairs: [T, number][]): T => {
    const total = pairs.reduce((s, p) => s + p[1], 0);
    let x = rand() * total;
    for (const [v, w] of pairs) if ((x -= w) < 0) return v;
    return pairs[pairs.length - 1]![0];
  };
  const embedder = new HashingEmbedder(store.dim);
  const span = (opts.spanDays ?? 180) * 86400;
  const start = opts.now - span;

  const content = (type: MemoryType): { title: string | null; content: string; tags: string[]; entities: string[] } => {
    const svc = pick(R.SERVICES);
    const env = pick(R.ENVS);
    const tags = [pick(R.TAGS)];
    if (rand() < 0.5) tags.push(pick(R.TAGS));
    const entities = rand() < 0.6 ? [svc] : [];
    switch (type) {
      case 'skill':
        return {
          title: rand() < 0.5 ? `Deploy ${svc}` : null,
          content: `To deploy ${svc} to ${env}, run ${pick(R.TOOLS)}, wait for the health check, then announce it in #${pick(['release', 'ops', 'eng'])}.`,
          tags: [...new Set([...tags, 'deploy'])],
          entities,
        };
      case 'episode':
        return {
          title: null,
          content: `Episode: ${svc} ${pick(R.SYMPTOMS)} in ${env} after ${pick(R.CAUSES)}; ${pick(R.PEOPLE)} rolled back and filed a follow-up.`,
          tags: [...new Set([...tags, 'incident'])],
          entities: [...entities, pick(R.ENDPOINTS)],
        };
      case 'todo':
        return {
          title: null,
          content: `Fix ${pick(R.CAUSES)} in ${svc} before the next ${env} release.`,
          tags,
          entities,
        };
      case 'reflection':
        return {
          title: rand() < 0.6 ? `Lesson: ${svc}` : null,
          content: `When ${svc} ${pick(R.SYMPTOMS)}, check for ${pick(R.CAUSES)} first; it explained most past incidents.`,
          tags,
          entities,
        };
      case 'intent':
        return {
          title: null,
          content: `Remind ${pick(R.PEOPLE)} to rotate the ${svc} credentials when the ${env} release ships.`,
          tags,
          entities,
        };
      case 'scratch':
        return {
          title: null,
          content: `Scratch: trying ${pick(R.TOOLS)} on ${pick(R.FILES)} for ${svc}; ${rand() < 0.5 ? 'looks promising' : 'no luck yet'}.`,
          tags: [],
          entities: [],
        };
      default:
        return {
          title: rand() < 0.3 ? `${svc} ${pick(['config', 'owner', 'preference'])}` : null,
          content:
            rand() < 0.5
              ? `${pick(R.PEOPLE)} ${pick(R.PREFS)} when working on ${svc}.`
              : `The ${svc} service reads ${pick(R.FILES)} at startup and exposes ${pick(R.ENDPOINTS)} in ${env}.`,
          tags,
          entities,
        };
    }
  };

  // Bulk load (core/store/sqlite/bulk-load.ts): indexes rebuilt once at the end, no fsync per batch.
  const load = store.runs.beginBulkLoad();
  const ids: string[] = [];
  const createdOf: number[] = [];
  const memos: { id: string; content: string; type: MemoryType }[] = [];
  let edges = 0;
  let events = 0;
  let dups = 0;
  const batch = 2000;

  // Creation times ascend with the index so rowid order is creation order, as in a real store.
  for (let b = 0; b < opts.size; b += batch) {
    store.transaction(() => {
      for (let i = b; i < Math.min(opts.size, b + batch); i++) {
        const created = start + (span * (i + rand())) / opts.size;
        let type: MemoryType;
        let body: ReturnType<typeof content>;
        let isDup = false;
        if (i > 20 && rand() < 0.02) {
          // A near-duplicate: an earlier memory's text plus one word, same type.
          const src = memos[Math.floor(rand() * memos.length)]!;
          type = src.type;
          body = { title: null, content: `${src.content} ${pick(R.EXTRA_WORDS)}`, tags: [], entities: [] };
          isDup = true;
          dups++;
        } else {
          // The first memories cover every type, so even a tiny demo has all seven.
          type = i < MEMORY_TYPES.length ? MEMORY_TYPES[i]! : weighted(TYPE_WEIGHTS);
          body = content(type);
        }
        const owner = pick(R.OWNERS);
        const m: Memory = createMemory(
          {
            id: hexId(rand),
            type,
            title: body.title,
            content: body.content,
            owner,
            tags: body.tags,
            entities: body.entities,
            importance: pick([1, 3, 5, 5, 5, 8, 10]),
            salience: Math.round(rand() * 100) / 100,
            confidence: Math.round((0.3 + rand() * 0.7) * 100) / 100,
            created_at: created,
            place_or_task: rand() < 0.1 ? pick(R.SERVICES) : null,
            status: type === 'todo' ? pick(['open', 'open', 'done', 'dropped'] as const) : null,
            trigger: type === 'intent' ? { kind: pick(['time', 'cue', 'event']), cue: pick(R.SERVICES), fire_at: created + rand() * span } : null,
            references: rand() < 0.03 ? [{ kind: 'file', key: `docs/${pick(R.SERVICES)}.md`, preview: '(snapshot)', captured_at: created }] : [],
          },
          created,
        );
        // Access history: heavy-tailed counts, spread between creation and now.
        const n = Math.floor(-Math.log(1 - rand()) * 12);
        const times: number[] = [];
        for (let k = 0; k < n; k++) times.push(created + rand() * (opts.now - created));
        times.sort((x, y) => x - y);
        const evs: { rec: AccessRecord; strength: number }[] = [];
        for (const ts of times) {
          const channel = weighted<AccessRecord['channel']>([
            ['recalled', 50],
            ['searched', 15],
            ['injected', 20],
            ['reinforced', 8],
            ['deref', 7],
          ]);
          const withQuery = (channel === 'recalled' || channel === 'searched') && rand() < 0.7;
          const rec = accessRecord(ts, channel, {
            reader_owner: pick(R.READERS),
            session_ref: `sess-${String(Math.floor(rand() * 400)).padStart(3, '0')}`,
            ...(withQuery
              ? {
                  query: `${pick(['how do I', 'why did', 'what broke', 'remind me'])} ${body.content.split(' ').slice(1, 4).join(' ')}`.slice(0, 200),
                  score: Math.round(rand() * 20000) / 10000,
                  rank: Math.floor(rand() * 10),
                  components: {
                    source: pick(['dense', 'sparse', 'both', 'spread']),
                    cos: Math.round(rand() * 10000) / 10000,
                    rel: Math.round(rand() * 10000) / 10000,
                    rec: Math.round(rand() * 10000) / 10000,
                    imp: Math.round(rand() * 10000) / 10000,
                    spread: Math.round(rand() * 3000) / 10000,
                  },
                }
              : {}),
          });
          logAccess(m, rec, channel === 'reinforced' && rand() < 0.3 ? { reinforce: false } : {});
          evs.push({ rec, strength: m.strength });
        }
        // Edges to earlier memories: every type appears, causal ones a little more often.
        if (i > 0) {
          const k = i < 12 ? 1 : Math.floor(rand() * 4);
          for (let e = 0; e < k; e++) {
            const j = Math.max(0, i - 1 - Math.floor(-Math.log(1 - rand()) * 200));
            if (j >= ids.length) continue;
            const t: EdgeType = edges < EDGE_TYPES.length ? EDGE_TYPES[edges]! : pick(EDGE_TYPES);
            if (!m.edges.some((x) => x.target_id === ids[j] && x.type === t)) {
              m.edges.push({ target_id: ids[j]!, type: t, weight: Math.round((0.3 + rand() * 0.7) * 1000) / 1000, created_at: created });
            }
          }
        }
        const row = encodeRow(m);
        load.insertMemory({ ...row, embedding: vectorToBlob(embedder.embedSync(embeddingText(m))) });
        for (const e of m.edges) {
          load.insertEdge(m.id, e.target_id, e.type, e.weight, e.created_at);
          edges++;
        }
        for (const ev of evs) {
          load.insertEvent(m.id, ev.rec, ev.strength);
          events++;
        }
        ids.push(m.id);
        createdOf.push(created);
        if (!isDup && memos.length < 5000) memos.push({ id: m.id, content: m.content, type });
        else if (!isDup && rand() < 0.05) memos[Math.floor(rand() * memos.length)] = { id: m.id, content: m.content, type };
      }
    });
    opts.onProgress?.(Math.min(opts.size, b + batch), opts.size);
  }
  // A few archived memories, as a store that has seen pruning has.
  store.transaction(() => {
    for (let i = 0; i < ids.length; i++) if (rand() < 0.04 && createdOf[i]! < opts.now - 60 * 86400) load.archive(ids[i]!);
  });
  load.finish();
  const observations = demoObservations(rand, start, opts.now);
  new BeliefModel(store).ingest(observations, opts.now);
  return { memories: ids.length, edges, access_events: events, near_duplicates: dups, belief_observations: observations.length, seconds: (Date.now() - started) / 1000 };
}
