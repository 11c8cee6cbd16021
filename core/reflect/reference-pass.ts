/**
 * The reference's way of doing the deterministic pass, kept as a baseline: one brute-force
 * knn(emb, 6) over every live vector per memory, state changed in place as it goes. The benchmark
 * times it beside the planner, and the tests use it as an independent oracle on stores the fixture
 * does not cover. Writes nothing to the store.
 */
import { pruneDecision, DEFAULT_FORGET_POLICY, type ForgetPolicy } from '../model/forget-policy.js';
import { VectorIndex } from '../embed/vector-index.js';
import type { Memory } from '../model/memory.js';
import { baseLevelActivation, sigmoid } from '../model/activation.js';
import type { StoreReader } from '../store/port/port.js';
import { isClose, rescoreValue, round4 } from './ops.js';
import { DEFAULT_REFLECTION_POLICY, type ReflectionPolicy } from './policy.js';
import { allMemories, memoryEmbedding, memoryRowid } from '../store/queries/memory-lookups.js';

export interface ReferenceResult {
  merged: { dup: string; into: string }[];
  links: { src: string; dst: string; weight: number }[];
  rescored: { id: string; after: number }[];
  pruned: string[];
  knn_calls: number;
  ms: { merge: number; link: number; rescore: number; prune: number };
}

export function referencePass(store: StoreReader, now: number, policy: ReflectionPolicy = DEFAULT_REFLECTION_POLICY, forget: ForgetPolicy = DEFAULT_FORGET_POLICY, limit?: number): ReferenceResult {
  const mems = allMemories(store);
  const byId = new Map(mems.map((m) => [m.id, m]));
  const index = new VectorIndex(store.dim);
  const vec = new Map<string, Float32Array>();
  for (const m of mems) {
    const v = memoryEmbedding(store, m.id);
    if (!v) continue;
    vec.set(m.id, v);
    index.upsert(m.id, v, m.owner, memoryRowid(store, m.id)!);
  }
  const rowid = new Map(mems.map((m) => [m.id, memoryRowid(store, m.id)!]));
  // Cosines are float32 (as numpy returns them); ties at float32 precision go to the older row.
  const knn = (v: Float32Array, k: number) =>
    index
      .knn(v, k + 8)
      .map((h) => ({ id: h.id, cos: Math.fround(h.cos) }))
      .sort((a, b) => b.cos - a.cos || rowid.get(a.id)! - rowid.get(b.id)!)
      .slice(0, k);
  const out: ReferenceResult = { merged: [], links: [], rescored: [], pruned: [], knn_calls: 0, ms: { merge: 0, link: 0, rescore: 0, prune: 0 } };
  let t = performance.now();
  const merged = new Set<string>();
  const anchors = [...mems].sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const a of anchors.slice(0, limit ?? anchors.length)) {
    const v = vec.get(a.id);
    if (merged.has(a.id) || !v) continue;
    out.knn_calls++;
    for (const h of knn(v, 6)) {
      const d = byId.get(h.id)!;
      if (h.id === a.id || merged.has(h.id) || h.cos < policy.merge_threshold || d.type !== a.type) continue;
      a.reinforcement_count += 1 + d.reinforcement_count;
      a.strength += d.strength;
      a.importance = Math.max(a.importance, d.importance);
      a.salience = Math.max(a.salience, d.salience);
      a.confidence = Math.max(a.confidence, d.confidence);
      for (const e of d.edges) if (e.target_id !== a.id) addMax(a, e.target_id, e.type, e.weight);
      addMax(a, d.id, 'refines', 1.0);
      merged.add(d.id);
      index.remove(d.id);
      out.merged.push({ dup: d.id, into: a.id });
    }
  }
  out.ms.merge = performance.now() - t;
  t = performance.now();
  const live = mems.filter((m) => !merged.has(m.id));
  for (const m of live.slice(0, limit ?? live.length)) {
    const v = vec.get(m.id);
    if (!v) continue;
    out.knn_calls++;
    const have = new Set(m.edges.map((e) => e.target_id));
    let added = 0;
    for (const h of knn(v, policy.max_edges_per_node + 1)) {
      if (added >= policy.max_edges_per_node) break;
      if (h.id === m.id || have.has(h.id) || !(h.cos >= policy.edge_threshold && h.cos < policy.merge_threshold)) continue;
      const w = round4(h.cos);
      m.edges.push({ target_id: h.id, type: 'related', weight: w, created_at: now });
      have.add(h.id);
      added++;
      out.links.push({ src: m.id, dst: h.id, weight: w });
    }
  }
  out.ms.link = performance.now() - t;
  t = performance.now();
  for (const m of live) {
    const base = sigmoid(baseLevelActivation(m.access_log, now, 0.5));
    const v = rescoreValue(m.importance, m.salience, base).value;
    if (isClose(v, m.importance)) continue;
    m.importance = v;
    out.rescored.push({ id: m.id, after: v });
  }
  out.ms.rescore = performance.now() - t;
  t = performance.now();
  for (const m of live) if (pruneDecision(m, now, forget).prune) out.pruned.push(m.id);
  out.ms.prune = performance.now() - t;
  return out;
}

function addMax(m: Memory, target: string, type: Memory['edges'][number]['type'], weight: number): void {
  const e = m.edges.find((x) => x.target_id === target && x.type === type);
  if (e) e.weight = Math.max(e.weight, weight);
  else m.edges.push({ target_id: target, type, weight, created_at: 0 });
}
