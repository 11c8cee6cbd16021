/**
 * Associative spread exactly as nooa v0.0.9 runs it, plus the paths that carried activation:
 *
 *   frontier = seed (every candidate with its base score)
 *   for h in 1..hops:  decay = δ^h
 *     for each frontier node (insertion order): its outgoing edges sorted by weight, highest
 *     first (stable: rowid order breaks ties), the first `fanout` of them, and only THEN the
 *     invisible targets dropped (edges to foreign memories use up fanout slots);
 *     contrib = decay · act · weight · (1.0 causal | 0.6 other), skipped below the floor;
 *     contributions add into spread[target] and into the next frontier (only nodes reached at
 *     this hop), so the decay compounds: hop 2 adds 0.36 · (0.6 · s · w1 · t1) · w2 · t2.
 *
 * Owner gating: a target outside the scope (or missing) is never reached, so it never relays.
 * With `spread_through_archived = false` (mnemo) an archived target is treated the same way.
 */
import { CAUSAL_EDGE_TYPES, type EdgeType } from '../model/enums.js';
import type { Edge } from '../model/memory.js';

export interface SpreadKnobs {
  hops: number;
  per_hop_decay: number;
  per_hop_fanout: number;
  activation_floor: number;
}

export interface PathStep {
  from: string;
  edge_type: EdgeType;
  weight: number;
  hop: number;
  type_factor: number;
  from_activation: number;
  /** The raw contribution (before γ). */
  contrib: number;
  /** mnemo's sibling spread (through a shared `part_of` parent) or parent spread (from the parent itself), not an edge walk. */
  via?: 'sibling' | 'parent';
}

export interface SpreadResult {
  /** target → summed contribution (before γ), in first-reached order. */
  spread: Map<string, number>;
  paths: Map<string, PathStep[]>;
  /** Every edge considered and what happened to it (for why-not). */
  trace?: EdgeFate[];
}

export interface EdgeFate {
  from: string;
  to: string;
  edge_type: EdgeType;
  weight: number;
  hop: number;
  status: 'contributed' | 'below_floor' | 'fanout_cut' | 'invisible';
  contrib: number;
}

export interface SpreadGraph {
  /** Outgoing edges per source, each list in rowid order. */
  edgesFrom(ids: readonly string[]): Map<string, Edge[]>;
  /** Whether a target may receive (and so relay) activation under the scope. */
  visible(ids: readonly string[]): (id: string) => boolean;
}

export function typeFactor(type: EdgeType): number {
  return CAUSAL_EDGE_TYPES.has(type) ? 1.0 : 0.6;
}

/** `paths: false` leaves the paths empty (a caller that needs only the ranks: the tuner). */
export function spread(seed: ReadonlyMap<string, number>, knobs: SpreadKnobs, graph: SpreadGraph, opts: { trace?: boolean; paths?: boolean } = {}): SpreadResult {
  const total = new Map<string, number>();
  const paths = new Map<string, PathStep[]>();
  const trace: EdgeFate[] | undefined = opts.trace ? [] : undefined;
  const withPaths = opts.paths ?? true;
  let frontier: ReadonlyMap<string, number> = seed;
  for (let h = 1; h <= knobs.hops; h++) {
    const decay = knobs.per_hop_decay ** h;
    const ids = [...frontier.keys()];
    const edges = graph.edgesFrom(ids);
    const chosen = new Map<string, Edge[]>();
    const targets: string[] = [];
    for (const id of ids) {
      const out = edges.get(id) ?? [];
      // Array.prototype.sort is stable, so equal weights keep rowid order (nooa's tie order).
      const top = [...out].sort((a, b) => b.weight - a.weight).slice(0, knobs.per_hop_fanout);
      chosen.set(id, top);
      for (const e of top) targets.push(e.target_id);
      if (trace) for (const e of out.filter((e) => !top.includes(e))) trace.push(fate(id, e, h, 'fanout_cut', 0));
    }
    const visible = graph.visible(targets);
    const next = new Map<string, number>();
    for (const [node, act] of frontier) {
      for (const e of chosen.get(node) ?? []) {
        if (!visible(e.target_id)) {
          trace?.push(fate(node, e, h, 'invisible', 0));
          continue;
        }
        const tf = typeFactor(e.type);
        const contrib = decay * act * e.weight * tf;
        if (contrib < knobs.activation_floor) {
          trace?.push(fate(node, e, h, 'below_floor', contrib));
          continue;
        }
        trace?.push(fate(node, e, h, 'contributed', contrib));
        total.set(e.target_id, (total.get(e.target_id) ?? 0) + contrib);
        next.set(e.target_id, (next.get(e.target_id) ?? 0) + contrib);
        if (!withPaths) continue;
        let list = paths.get(e.target_id);
        if (!list) paths.set(e.target_id, (list = []));
        list.push({ from: node, edge_type: e.type, weight: e.weight, hop: h, type_factor: tf, from_activation: act, contrib });
      }
    }
    if (next.size === 0) break;
    frontier = next;
  }
  return trace ? { spread: total, paths, trace } : { spread: total, paths };
}

function fate(from: string, e: Edge, hop: number, status: EdgeFate['status'], contrib: number): EdgeFate {
  return { from, to: e.target_id, edge_type: e.type, weight: e.weight, hop, status, contrib };
}
