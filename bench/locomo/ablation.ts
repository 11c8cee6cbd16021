/**
 * The ablation: the profile under test with one component switched off (or changed) at a time,
 * plus the nooa-0.0.9 profile as a reference row. Every variant is ranked in the same run as the
 * full profile, over the same ingested stores.
 */
import { NOOA_PROFILE, type RecallProfile } from '../../core/recall/profile.js';
import type { Bm25LegKnobs, MnemoFeatures } from '../../core/recall/mnemo/features.js';
import type { IngestOptions } from './ingest.js';

export interface AblationVariant {
  name: string;
  /** What the variant changes, in words. */
  change: string;
  profile: RecallProfile;
  ingest?: IngestOptions;
}

function withFeatures(p: RecallProfile, f: Partial<MnemoFeatures>): RecallProfile {
  return { ...p, features: { ...p.features, ...f } };
}

function withBm25(p: RecallProfile, b: Partial<Bm25LegKnobs>): RecallProfile {
  return p.features.bm25 ? withFeatures(p, { bm25: { ...p.features.bm25, ...b } }) : p;
}

export function ablationVariants(p: RecallProfile): AblationVariant[] {
  const out: AblationVariant[] = [];
  const f = p.features;
  if (f.bm25) {
    out.push({ name: '-bm25 leg', change: 'no BM25 leg (substring leg and dense leg only)', profile: withFeatures(p, { bm25: null }) });
    if (f.bm25.stem) out.push({ name: '-stemming', change: 'BM25 without Porter stemming', profile: withBm25(p, { stem: false }) });
    if (f.bm25.stop_words) out.push({ name: '-stop words', change: 'function words kept in the BM25 query', profile: withBm25(p, { stop_words: false }) });
    if (f.bm25.question_words) out.push({ name: '-question words', change: 'question words kept in the BM25 query', profile: withBm25(p, { question_words: false }) });
    if (f.bm25.context_weight > 0) out.push({ name: '-neighbour context', change: 'BM25 over a memory’s own text only', profile: withBm25(p, { context_weight: 0 }) });
  }
  if (f.entity_boost > 0) out.push({ name: '-entity boost', change: 'no boost for memories carrying the entities the query names', profile: withFeatures(p, { entity_boost: 0 }) });
  if (f.parent_spread > 0) out.push({ name: '-parent spread', change: 'no score passed from a part_of parent to its children', profile: withFeatures(p, { parent_spread: 0 }) });
  if (f.sibling_spread > 0) out.push({ name: '-sibling spread', change: 'no context shared between part_of siblings', profile: withFeatures(p, { sibling_spread: 0 }) });
  if (p.knobs.hops > 0) out.push({ name: '-graph spread', change: 'hops = 0: neither edge spread nor sibling spread', profile: { ...p, knobs: { ...p.knobs, hops: 0 } } });
  if (f.substring_leg) out.push({ name: '-substring leg', change: "no nooa substring keyword leg", profile: withFeatures(p, { substring_leg: false }) });
  if (p.knobs.weights.relevance > 0) {
    out.push({ name: '-dense relevance', change: 'relevance weight 0 (cos + cue Jaccard no longer scored)', profile: { ...p, knobs: { ...p.knobs, weights: { ...p.knobs.weights, relevance: 0 } } } });
  }
  if (f.recency_scale === 'absolute') out.push({ name: 'recency min-max', change: 'recency min-max normalised over the candidates (nooa)', profile: withFeatures(p, { recency_scale: 'minmax' }) });
  out.push({ name: '+extracted names', change: 'turn entities = speaker plus capitalised names found in the text', profile: p, ingest: { extractEntities: true } });
  if (p.name !== NOOA_PROFILE.name) out.push({ name: 'nooa-0.0.9', change: 'the reference profile, bit-compatible with nooa v0.0.9', profile: NOOA_PROFILE });
  return out;
}
