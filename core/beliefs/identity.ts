/**
 * Identity resolution (Eq. 6). Two names are proposed as one entity when their names are related,
 * they share at least `aliasMinOverlap` attributes, and the mean symmetrised KL over those shared
 * attributes is at most `aliasMaxBitsPerAttribute` bits. The distributions compared are, by default,
 * each name's reliability-weighted profile over its whole delta log (Dirichlet-smoothed with a
 * Jeffreys prior over the attribute's vocabulary): an alias is usually observed at other times than
 * its twin, so their current beliefs differ where their histories agree.
 * The result is a plan; nothing changes until it is applied (or a pair is rejected).
 */
import type { BeliefConfig } from './config.js';
import { decay, identityDivergence, OTHER, type Dist } from './equations.js';
import type { BeliefReader } from './model.js';

export interface AliasProposal {
  /** `alias → canonical`, stable across plans on the same basis. */
  id: string;
  alias: string;
  canonical: string;
  /** Eq. 6's sum over shared attributes, in bits. */
  divergence: number;
  /** The same divided by the number of shared attributes (what the threshold bounds). */
  divergence_per_attribute: number;
  shared: string[];
  per_attribute: Record<string, number>;
  name_relation: NameRelation;
  deltas: { alias: number; canonical: number };
}

export interface AliasPlan {
  basis: string;
  at: number;
  threshold_bits_per_attribute: number;
  min_overlap: number;
  proposals: AliasProposal[];
  /** Pairs that met the name rule and overlap but not the divergence bound (closest first), for review. */
  near_misses: AliasProposal[];
}

export type NameRelation = 'contains' | 'initial' | 'any';

function splitName(name: string): { given: string; family: string } {
  const parts = name.toLowerCase().split(/\s+/).filter(Boolean);
  if (parts.length < 2) return { given: parts[0] ?? '', family: '' };
  return { given: parts[0]!, family: parts[parts.length - 1]! };
}

/** How two names relate: same family name and one given name containing the other, or the same initial. */
export function nameRelation(a: string, b: string, rule: BeliefConfig['aliasNameRule']): NameRelation | null {
  if (rule === 'none') return 'any';
  const x = splitName(a);
  const y = splitName(b);
  if (x.family !== y.family || x.given === '' || y.given === '') return null;
  if (x.given.includes(y.given) || y.given.includes(x.given)) return 'contains';
  if (x.given[0] === y.given[0]) return 'initial';
  return null;
}

interface Profiles {
  byEntity: Map<string, Map<string, Map<string, number>>>;
  vocabulary: Map<string, Set<string>>;
  deltas: Map<string, number>;
}

function collectProfiles(model: BeliefReader): Profiles {
  const eps = model.config().epsilonDefault;
  const byEntity = new Map<string, Map<string, Map<string, number>>>();
  const vocabulary = new Map<string, Set<string>>();
  const deltas = new Map<string, number>();
  for (const d of model.tables.scan()) {
    let attrs = byEntity.get(d.entity);
    if (!attrs) byEntity.set(d.entity, (attrs = new Map()));
    let counts = attrs.get(d.attribute);
    if (!counts) attrs.set(d.attribute, (counts = new Map()));
    counts.set(d.value, (counts.get(d.value) ?? 0) + (d.reliability ?? 1 - eps));
    let vocab = vocabulary.get(d.attribute);
    if (!vocab) vocabulary.set(d.attribute, (vocab = new Set()));
    vocab.add(d.value);
    deltas.set(d.entity, (deltas.get(d.entity) ?? 0) + 1);
  }
  return { byEntity, vocabulary, deltas };
}

function smoothed(weights: Map<string, number> | Dist, vocab: Set<string>, alpha: number, mass: number): Dist {
  const out: Dist = {};
  let total = 0;
  for (const v of vocab) {
    const w = (weights instanceof Map ? weights.get(v) : weights[v]) ?? 0;
    out[v] = w * mass + alpha;
    total += out[v]!;
  }
  for (const v in out) out[v] = out[v]! / total;
  return out;
}

/** The per-attribute distributions Eq. 6 compares for one entity. */
function identityDistributions(model: BeliefReader, entity: string, p: Profiles, at: number): Record<string, Dist> {
  const c = model.config();
  const out: Record<string, Dist> = {};
  const attrs = p.byEntity.get(entity);
  if (!attrs) return out;
  for (const [attribute, counts] of attrs) {
    const vocab = p.vocabulary.get(attribute)!;
    if (c.aliasDistribution === 'profile') {
      out[attribute] = smoothed(counts, vocab, c.aliasDirichletAlpha, 1);
    } else {
      const dim = model.tables.dimension(entity, attribute);
      if (!dim) continue;
      const belief = decay(dim.distribution, model.lambda(), at - dim.t_last);
      delete belief[OTHER];
      out[attribute] = smoothed(belief as Dist, vocab, c.aliasDirichletAlpha, dim.deltas);
    }
  }
  return out;
}

function canonicalOf(a: string, b: string, deltas: Map<string, number>): [alias: string, canonical: string] {
  const da = deltas.get(a) ?? 0;
  const db = deltas.get(b) ?? 0;
  if (da !== db) return da > db ? [b, a] : [a, b];
  if (a.length !== b.length) return a.length > b.length ? [b, a] : [a, b];
  return a < b ? [b, a] : [a, b];
}

/** Builds the alias plan from the store as it is; writes nothing. */
export function planAliases(model: BeliefReader, at: number): AliasPlan {
  const c = model.config();
  const profiles = collectProfiles(model);
  const rejected = new Set(model.tables.rejections().map((r) => `${r.a}\u0001${r.b}`));
  const entities = [...profiles.byEntity.keys()].sort();
  const groups = new Map<string, string[]>();
  for (const e of entities) {
    const key = c.aliasNameRule === 'none' ? '' : splitName(e).family;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(e);
  }
  const dists = new Map<string, Record<string, Dist>>();
  const distsOf = (e: string) => {
    let d = dists.get(e);
    if (!d) dists.set(e, (d = identityDistributions(model, e, profiles, at)));
    return d;
  };
  const candidates: AliasProposal[] = [];
  for (const group of groups.values()) {
    for (let i = 0; i < group.length; i++) {
      for (let j = i + 1; j < group.length; j++) {
        const a = group[i]!;
        const b = group[j]!;
        const relation = nameRelation(a, b, c.aliasNameRule);
        if (!relation) continue;
        const [x, y] = a < b ? [a, b] : [b, a];
        if (rejected.has(`${x}\u0001${y}`)) continue;
        const div = identityDivergence(distsOf(a), distsOf(b));
        if (div.shared.length < c.aliasMinOverlap) continue;
        const [alias, canonical] = canonicalOf(a, b, profiles.deltas);
        candidates.push({
          id: `${alias} → ${canonical}`,
          alias,
          canonical,
          divergence: div.total,
          divergence_per_attribute: div.total / div.shared.length,
          shared: div.shared,
          per_attribute: div.perAttribute,
          name_relation: relation,
          deltas: { alias: profiles.deltas.get(alias) ?? 0, canonical: profiles.deltas.get(canonical) ?? 0 },
        });
      }
    }
  }
  candidates.sort((p, q) => p.divergence_per_attribute - q.divergence_per_attribute || p.id.localeCompare(q.id));
  // Greedy by divergence: each name takes part in at most one merge per plan (plan again after applying).
  const used = new Set<string>();
  const proposals: AliasProposal[] = [];
  const nearMisses: AliasProposal[] = [];
  for (const p of candidates) {
    if (p.divergence_per_attribute > c.aliasMaxBitsPerAttribute) {
      if (nearMisses.length < 20) nearMisses.push(p);
      continue;
    }
    if (used.has(p.alias) || used.has(p.canonical)) continue;
    used.add(p.alias);
    used.add(p.canonical);
    proposals.push(p);
  }
  return {
    basis: model.tables.basis(),
    at,
    threshold_bits_per_attribute: c.aliasMaxBitsPerAttribute,
    min_overlap: c.aliasMinOverlap,
    proposals,
    near_misses: nearMisses,
  };
}
