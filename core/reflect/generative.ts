/**
 * The opt-in generative ops (reconcile, abstract, episode writer) as planners. Each LLM reply
 * becomes proposals in the plan like any other op, so nothing a model says reaches the store
 * unreviewed. The reference's guards are kept: only ids from the cluster can be archived, a
 * malformed reply is contained (the cluster or slice is skipped), one retry per call, and cost caps
 * (clusters per pass, episodes per slice, insights per slice, plus call and token budgets).
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { EngineReader } from '../engine/engine.js';
import { embeddingText } from '../model/memory.js';
import { chatOnce, extractJson, type LlmConfig } from './llm.js';
import type { OpContext, OpOutcome } from './ops.js';
import type { AbstractOp, EpisodeOp, GenerativeUsage, LlmExchange, NewMemorySpec, ReconcileOp } from './types.js';
import type { ViewMemory } from './view.js';

export type GenerativeOpName = 'reconcile' | 'abstract' | 'episode';

export interface GenerativeOptions {
  ops: GenerativeOpName[];
  /** A server-configured endpoint (llm-endpoints.ts); never one a request supplied. */
  endpoint: LlmConfig;
  /** Recent events for the episode writer (oldest first); empty = no call. */
  transcript?: string | undefined;
  max_calls?: number | undefined;
  max_tokens?: number | undefined;
}

const reconcileReply = z.object({
  redundant: z.boolean(),
  consolidated: z.string().nullable().optional(),
  supersede: z.array(z.string()).optional().default([]),
});
const insightsReply = z.object({
  insights: z.array(z.object({ title: z.string().nullable().optional(), content: z.string().min(1), tags: z.array(z.string()).optional().default([]) })),
});
const episodeReply = z.object({ noteworthy: z.boolean(), episode: z.string().nullable().optional() });

export class GenerativeSession {
  readonly cfg: LlmConfig;
  private readonly opsWanted: Set<GenerativeOpName>;
  private readonly maxCalls: number;
  private readonly maxTokens: number;
  readonly transcript: string;
  private calls = 0;
  private retries = 0;
  private failures = 0;
  private promptTokens = 0;
  private completionTokens = 0;
  private capped: string | null = null;
  /** The prompt and raw reply of the last successful call (copied onto the proposals it produced). */
  lastExchange: LlmExchange | null = null;

  constructor(opts: GenerativeOptions) {
    this.cfg = opts.endpoint;
    this.opsWanted = new Set(opts.ops);
    this.maxCalls = opts.max_calls ?? 25;
    this.maxTokens = opts.max_tokens ?? 200_000;
    this.transcript = opts.transcript ?? '';
  }

  wants(op: GenerativeOpName): boolean {
    return this.opsWanted.has(op);
  }

  get exhausted(): boolean {
    return this.capped !== null;
  }

  /** One call with one retry; returns null when both attempts fail or a cost cap is reached. */
  async ask<T>(prompt: string, schema: z.ZodType<T>): Promise<T | null> {
    for (let attempt = 0; attempt < 2; attempt++) {
      if (this.calls >= this.maxCalls) this.capped = `call budget of ${this.maxCalls} reached`;
      else if (this.promptTokens + this.completionTokens >= this.maxTokens) this.capped = `token budget of ${this.maxTokens} reached`;
      if (this.capped) return null;
      this.calls++;
      if (attempt > 0) this.retries++;
      try {
        const r = await chatOnce(this.cfg, prompt);
        this.promptTokens += r.prompt_tokens;
        this.completionTokens += r.completion_tokens;
        const parsed = schema.safeParse(extractJson(r.content));
        if (parsed.success) {
          this.lastExchange = { prompt, reply: r.content };
          return parsed.data;
        }
      } catch {
        // Contained: a transport error or a malformed reply only costs this attempt.
      }
    }
    this.failures++;
    return null;
  }

  usage(): GenerativeUsage {
    return {
      calls: this.calls,
      retries: this.retries,
      failures: this.failures,
      prompt_tokens: this.promptTokens,
      completion_tokens: this.completionTokens,
      capped: this.capped,
      model: this.cfg.model,
    };
  }
}

function renderItems(items: ViewMemory[], now: number): string {
  return items.map((m) => `- id=${m.id} age=${((now - m.created_at) / 3600).toFixed(1)}h type=${m.type}: ${[...m.content].slice(0, 700).join('')}`).join('\n');
}

function scopeOwner(ctx: OpContext): string {
  return ctx.view.scope ?? '';
}

async function proposeMemory(engine: EngineReader, ctx: OpContext, spec: Omit<NewMemorySpec, 'id' | 'created_at' | 'owner'> & { owner?: string }, createdBy: Map<string, string>, opId: string): Promise<{ spec: NewMemorySpec; view: ViewMemory }> {
  const full: NewMemorySpec = { id: randomUUID().replace(/-/g, ''), created_at: ctx.now, owner: spec.owner ?? scopeOwner(ctx), ...spec } as NewMemorySpec;
  const vector = await engine.embed(embeddingText({ title: full.title, content: full.content, tags: full.tags, entities: [] }));
  const vm: ViewMemory = {
    id: full.id,
    rowid: Number.MAX_SAFE_INTEGER,
    type: full.type,
    status: full.type === 'todo' ? 'open' : null,
    owner: full.owner,
    title: full.title,
    content: full.content,
    tags: [...full.tags],
    importance: full.importance,
    salience: 0,
    confidence: 0.5,
    strength: 1,
    reinforcement_count: 0,
    created_at: full.created_at,
    last_accessed_at: full.created_at,
    access_log: [{ ts: full.created_at, channel: 'created' }],
    edges: full.edges.map((e) => ({ ...e })),
    slot: -1,
    vector,
    proposed: true,
  };
  ctx.view.addProposed(vm);
  createdBy.set(full.id, opId);
  return { spec: full, view: vm };
}

/** reconsolidate: clusters of related memories the model may fold into one consolidated memory. */
export async function planReconcile(ctx: OpContext, gen: GenerativeSession, engine: EngineReader, nextId: () => string, createdBy: Map<string, string>): Promise<OpOutcome<ReconcileOp>> {
  const { view, policy, now } = ctx;
  const ops: ReconcileOp[] = [];
  const visited = new Set<string>();
  const index = engine.vectors.get();
  const members = view.live().sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  let clusters = 0;
  let skipped = 0;
  for (const m of members) {
    if (clusters >= policy.max_clusters_per_reflection || gen.exhausted) break;
    if (visited.has(m.id) || !m.vector || !view.isLive(m.id)) continue;
    const hits = index
      .knn(m.vector, policy.recon_max_cluster, { id: (id) => view.isLive(id) })
      .map((h) => ({ id: h.id, cos: Math.fround(h.cos) }))
      .filter((h) => h.id === m.id || (h.cos >= policy.recon_threshold && !visited.has(h.id)));
    const cluster = [m, ...hits.filter((h) => h.id !== m.id).map((h) => view.byId.get(h.id)!).filter(Boolean)];
    for (const c of cluster) visited.add(c.id);
    if (cluster.length < 2) continue;
    clusters++;
    cluster.sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1));
    if (ctx.shouldStop()) return { ops, stopped: true, notes: { clusters, skipped } };
    const prompt = [
      'You maintain an agent memory store. Below are related memories, oldest first.',
      'Decide whether they are redundant or stale versions of one fact. If so, write one consolidated',
      'memory that keeps everything still true, and list the ids it replaces.',
      'Answer with JSON only: {"redundant": true|false, "consolidated": "text" or null, "supersede": ["id", ...]}',
      '',
      renderItems(cluster, now),
    ].join('\n');
    const reply = await gen.ask(prompt, reconcileReply);
    if (!reply) {
      skipped++;
      continue;
    }
    if (!reply.redundant || !reply.consolidated) continue;
    const ids = new Set(cluster.map((c) => c.id));
    const archive = [...new Set(reply.supersede)].filter((id) => ids.has(id));
    const rejected = [...new Set(reply.supersede)].filter((id) => !ids.has(id));
    if (archive.length === 0) continue; // nothing superseded: the consolidated memory is discarded
    const counts = new Map<string, number>();
    for (const c of cluster) counts.set(c.type, (counts.get(c.type) ?? 0) + 1);
    let dominant = cluster[0]!.type;
    for (const [t, n] of counts) if (n > (counts.get(dominant) ?? 0)) dominant = t;
    if (dominant === 'episode') dominant = 'info';
    const opId = nextId();
    const { spec } = await proposeMemory(
      engine,
      ctx,
      {
        type: dominant,
        title: null,
        content: reply.consolidated,
        importance: Math.max(...cluster.map((c) => c.importance)),
        tags: [...new Set(cluster.flatMap((c) => c.tags))].sort(),
        edges: cluster.map((c) => ({ target_id: c.id, type: 'refines', weight: 1.0 })),
      },
      createdBy,
      opId,
    );
    for (const id of archive) view.archive(id, opId);
    ops.push({
      id: opId,
      op: 'reconcile',
      cluster: cluster.map((c) => c.id),
      cluster_cos: cluster.map((c) => (c.id === m.id ? 1 : (hits.find((h) => h.id === c.id)?.cos ?? 0))),
      consolidated: spec,
      archive,
      rejected_ids: rejected,
      ...(gen.lastExchange ? { exchange: gen.lastExchange } : {}),
      reason: `the model judged ${cluster.length} memories (cos ≥ ${policy.recon_threshold}) redundant; ${archive.length} superseded${rejected.length ? `, ${rejected.length} id(s) outside the cluster ignored` : ''}`,
    });
  }
  return { ops, stopped: false, notes: { clusters, skipped } };
}

/** abstract: durable insights from the latest slice of episodes, linked DERIVED_FROM every episode. */
export async function planAbstract(ctx: OpContext, gen: GenerativeSession, engine: EngineReader, nextId: () => string, createdBy: Map<string, string>): Promise<OpOutcome<AbstractOp>> {
  const episodes = ctx.view.live().filter((m) => m.type === 'episode' && !m.proposed).slice(0, ctx.policy.max_episodes_per_reflection);
  if (episodes.length === 0 || ctx.shouldStop()) return { ops: [], stopped: ctx.shouldStop(), notes: { episodes: 0 } };
  const prompt = [
    'You maintain an agent memory store. From the episodes below, distil at most 5 durable, reusable',
    'insights (lessons that will still help later).',
    'Answer with JSON only: {"insights": [{"title": "...", "content": "...", "tags": ["..."]}]}',
    '',
    renderItems(episodes, ctx.now),
  ].join('\n');
  const reply = await gen.ask(prompt, insightsReply);
  if (ctx.shouldStop()) return { ops: [], stopped: true, notes: { episodes: episodes.length, discarded: 'stop requested during the call' } };
  if (!reply) return { ops: [], stopped: false, notes: { episodes: episodes.length, failed: 1 } };
  const ops: AbstractOp[] = [];
  for (const ins of reply.insights.slice(0, 5)) {
    const opId = nextId();
    const { spec } = await proposeMemory(
      engine,
      ctx,
      {
        type: 'reflection',
        title: ins.title ?? null,
        content: ins.content,
        importance: 6.0,
        tags: [...new Set(ins.tags)].sort(),
        edges: episodes.map((e) => ({ target_id: e.id, type: 'derived_from', weight: 1.0 })),
      },
      createdBy,
      opId,
    );
    ops.push({ id: opId, op: 'abstract', memory: spec, episodes: episodes.map((e) => e.id), reason: `insight from ${episodes.length} episodes`, ...(gen.lastExchange ? { exchange: gen.lastExchange } : {}) });
  }
  return { ops, stopped: false, notes: { episodes: episodes.length, insights: reply.insights.length } };
}

/** The episode writer: one episode record from a transcript of recent events, if noteworthy. */
export async function planEpisode(ctx: OpContext, gen: GenerativeSession, engine: EngineReader, nextId: () => string, createdBy: Map<string, string>): Promise<OpOutcome<EpisodeOp>> {
  const transcript = gen.transcript.trim();
  if (!transcript) return { ops: [], stopped: false, notes: { transcript: 'empty' } };
  const prompt = [
    'Turn this transcript of recent agent events (oldest first) into one episode record for long-term memory,',
    'or say it is not noteworthy.',
    'Answer with JSON only: {"noteworthy": true|false, "episode": "text" or null}',
    '',
    transcript,
  ].join('\n');
  const reply = await gen.ask(prompt, episodeReply);
  if (!reply || !reply.noteworthy || !reply.episode) return { ops: [], stopped: false, notes: { noteworthy: reply ? 0 : 'failed' } };
  const opId = nextId();
  const { spec } = await proposeMemory(engine, ctx, { type: 'episode', title: 'episode:reflect', content: reply.episode, importance: 5.0, tags: [], edges: [] }, createdBy, opId);
  return {
    ops: [{ id: opId, op: 'episode', memory: spec, reason: 'the model found the recent events noteworthy', ...(gen.lastExchange ? { exchange: gen.lastExchange } : {}) }],
    stopped: false,
    notes: { noteworthy: 1 },
  };
}
