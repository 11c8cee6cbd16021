/**
 * Retrieval over beliefs, as Nous does it without an LLM: seed entities named in the question,
 * a breadth-first walk over relationship edges between entities (up to `bfsHops`), BM25 (SQLite
 * FTS5) over delta evidence, and fact lines that carry their belief.
 */
import { decay, type Dist } from './equations.js';
import type { BeliefReader } from './model.js';
import { readBelief } from './read.js';
import type { DimensionRow } from '../store/port/port.js';

/** Attributes whose values name another entity (Nous's RELATIONSHIP_ATTRS). */
export const RELATIONSHIP_ATTRIBUTES = new Set([
  'friend', 'partner', 'spouse', 'family', 'sibling', 'parent', 'child', 'colleague', 'mentor', 'pet', 'owner', 'roommate', 'neighbor', 'boss', 'employee', 'classmate',
]);

export interface RetrievalOptions {
  at: number;
  hops?: number;
  topK?: number;
  maxEntities?: number;
}

export interface FactLine {
  entity: string;
  attribute: string;
  value: string | null;
  p: number;
  entropy: number;
  values: string[];
  line: string;
}

export interface RelationLine {
  from: string;
  attribute: string;
  to: string;
  p: number;
  line: string;
}

export interface EvidenceLine {
  delta_id: number;
  entity: string;
  attribute: string;
  value: string;
  t: number;
  surprise: number;
  score: number;
  line: string;
}

export interface RetrievalResult {
  query: string;
  at: number;
  seeds: string[];
  entities: { entity: string; hop: number }[];
  facts: FactLine[];
  relations: RelationLine[];
  evidence: EvidenceLine[];
  lines: string[];
}

const pct = (p: number) => `${Math.round(p * 100)}%`;
const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);

function tokens(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => t.length >= 2);
}

/** FTS5 query: any of the question's words, each quoted so punctuation cannot break the syntax. */
export function ftsQuery(text: string): string {
  return [...new Set(tokens(text))].map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
}

/** Entities whose full name, or whose given name (3+ letters), appears as words in the question. */
export function seedEntities(question: string, names: readonly string[]): string[] {
  const words = new Set(tokens(question));
  const q = ` ${tokens(question).join(' ')} `;
  const full: string[] = [];
  const given: string[] = [];
  for (const name of names) {
    const parts = tokens(name);
    if (parts.length === 0) continue;
    if (q.includes(` ${parts.join(' ')} `)) full.push(name);
    else if (parts[0]!.length >= 3 && words.has(parts[0]!)) given.push(name);
  }
  return full.length ? full : given;
}

function relationEdges(model: BeliefReader, at: number, minP: number): Map<string, { to: string; attribute: string; p: number; forward: boolean }[]> {
  const adj = new Map<string, { to: string; attribute: string; p: number; forward: boolean }[]>();
  const push = (a: string, e: { to: string; attribute: string; p: number; forward: boolean }) => {
    let l = adj.get(a);
    if (!l) adj.set(a, (l = []));
    l.push(e);
  };
  const lambda = model.lambda();
  const dims: DimensionRow[] = model.tables.allDimensions().filter((d) => RELATIONSHIP_ATTRIBUTES.has(d.attribute.toLowerCase()));
  for (const d of dims) {
    const belief: Dist = decay(d.distribution, lambda, at - d.t_last);
    for (const [value, p] of Object.entries(belief)) {
      if (p < minP || value === '<other>') continue;
      const to = model.resolve(value);
      push(d.entity, { to, attribute: d.attribute, p, forward: true });
      push(to, { to: d.entity, attribute: d.attribute, p, forward: false });
    }
  }
  return adj;
}

export function retrieve(model: BeliefReader, question: string, opts: RetrievalOptions): RetrievalResult {
  const c = model.config();
  const hops = opts.hops ?? c.bfsHops;
  const topK = opts.topK ?? c.evidenceTopK;
  const maxEntities = opts.maxEntities ?? c.bfsMaxEntities;
  const at = opts.at;
  const aliases = model.aliasMap();
  const names = [...new Set([...model.tables.entities(undefined, 1_000_000, 0).map((e) => e.entity), ...aliases.keys()])];
  let seeds = [...new Set(seedEntities(question, names).map((n) => model.resolve(n, aliases)))];
  // BM25 over evidence, over-fetched ×2 so the entity filter still leaves top-k.
  const hits = model.tables.searchEvidence(ftsQuery(question), topK * 2).map((h) => ({ ...h, delta: model.tables.delta(h.id)! })).filter((h) => h.delta && h.delta.t <= at);
  if (seeds.length === 0) seeds = [...new Set(hits.map((h) => h.delta.entity))].slice(0, 3);
  // BFS over relationship edges.
  const adj = hops > 0 ? relationEdges(model, at, c.bfsMinConfidence) : new Map();
  const hop = new Map<string, number>(seeds.map((s) => [s, 0]));
  const relations: RelationLine[] = [];
  let frontier = [...seeds];
  for (let h = 1; h <= hops && frontier.length && hop.size < maxEntities; h++) {
    const next: string[] = [];
    for (const e of frontier) {
      for (const edge of adj.get(e) ?? []) {
        const [from, to] = edge.forward ? [e, edge.to] : [edge.to, e];
        if (!relations.some((r) => r.from === from && r.to === to && r.attribute === edge.attribute)) {
          relations.push({ from, attribute: edge.attribute, to, p: edge.p, line: `${from} --${edge.attribute}--> ${to} (${pct(edge.p)} belief)` });
        }
        if (!hop.has(edge.to) && hop.size < maxEntities) {
          hop.set(edge.to, h);
          next.push(edge.to);
        }
      }
    }
    frontier = next;
  }
  const facts: FactLine[] = [];
  for (const entity of hop.keys()) {
    for (const d of model.tables.dimensionsOf(entity)) {
      const v = readBelief(model, entity, d.attribute, at, 'as-of', { calibrated: false });
      if (v.deltas === 0 || v.value === null) continue;
      const line =
        v.values.length > 1
          ? `FACT Observed ${entity} ${d.attribute} values include: ${v.values.join(', ')} (current: ${v.value}, ${pct(v.p)} belief)`
          : `FACT ${entity} ${d.attribute}: ${v.value} (${pct(v.p)} belief, ${v.entropy.toFixed(2)} bits of entropy)`;
      facts.push({ entity, attribute: d.attribute, value: v.value, p: v.p, entropy: v.entropy, values: v.values, line });
    }
  }
  const inScope = (e: string) => hop.has(e);
  const evidence: EvidenceLine[] = hits
    .filter((h) => inScope(h.delta.entity) || hop.size === 0)
    .slice(0, topK)
    .map((h) => ({
      delta_id: h.id,
      entity: h.delta.entity,
      attribute: h.delta.attribute,
      value: h.delta.value,
      t: h.delta.t,
      surprise: h.delta.surprise,
      score: -h.score,
      line: `[${day(h.delta.t)}] ${h.delta.evidence} (${h.delta.entity}.${h.delta.attribute} = ${h.delta.value}, ${h.delta.surprise.toFixed(2)} bits)`,
    }));
  const paths = relations.filter((r) => hop.get(r.to) === 2 || hop.get(r.from) === 2).map((r) => `[Multi-hop path] ${r.from} → ${r.to}`);
  return {
    query: question,
    at,
    seeds,
    entities: [...hop].map(([entity, h]) => ({ entity, hop: h })),
    facts,
    relations,
    evidence,
    lines: [...facts.map((f) => f.line), ...relations.map((r) => r.line), ...paths, ...evidence.map((e) => e.line)],
  };
}
