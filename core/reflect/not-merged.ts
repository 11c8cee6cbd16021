/**
 * Why a link joins two memories whose texts are the same (or nearly) instead of merging them.
 * Merge needs the same type and cos ≥ merge_threshold; a link exists only below that threshold,
 * so the cosine guard has always failed. The embedding is computed from title, content, tags and
 * entities, so two copies of one text drift apart when their tags (or titles) differ; the
 * explanation names the guards that failed with their values, and what differs besides the text.
 */
import type { MergeGuard, NotMerged } from './types.js';
import type { ViewMemory } from './view.js';

export type { MergeGuard, NotMerged };

/** Word-set overlap from which two texts count as near-identical. */
export const NEAR_IDENTICAL = 0.9;

const normalize = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();
const words = (s: string) => new Set(s.split(/[^\p{L}\p{N}]+/u).filter(Boolean));

/** Jaccard overlap of two normalized texts' word sets; skipped (0) when their lengths alone rule it out. */
function overlap(a: string, b: string): number {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length < NEAR_IDENTICAL * long.length * 0.5) return 0;
  const wa = words(a);
  const wb = words(b);
  let both = 0;
  for (const w of wa) if (wb.has(w)) both++;
  const union = wa.size + wb.size - both;
  return union === 0 ? 0 : both / union;
}

/** The explanation for a proposed link from src to dst at `cos`, or null when their texts differ. */
export function notMerged(src: ViewMemory, dst: ViewMemory, cos: number, mergeThreshold: number): NotMerged | null {
  const a = normalize(src.content);
  const b = normalize(dst.content);
  const similarity = a === b ? 1 : overlap(a, b);
  if (similarity < NEAR_IDENTICAL) return null;
  const failed: MergeGuard[] = [];
  if (cos < mergeThreshold) failed.push({ guard: 'cosine', cos, threshold: mergeThreshold });
  if (src.type !== dst.type) failed.push({ guard: 'type', src_type: src.type, dst_type: dst.type });
  const dstTags = new Set(dst.tags);
  const srcTags = new Set(src.tags);
  const differs = {
    tags_src_only: src.tags.filter((t) => !dstTags.has(t)),
    tags_dst_only: dst.tags.filter((t) => !srcTags.has(t)),
    title: (src.title ?? '') !== (dst.title ?? ''),
  };
  const text = a === b ? 'identical' : 'near-identical';
  return { text, similarity: Math.round(similarity * 1000) / 1000, failed, differs, summary: summarize(text, failed, differs) };
}

function summarize(text: NotMerged['text'], failed: MergeGuard[], d: NotMerged['differs']): string {
  const guards = failed.map((g) => (g.guard === 'cosine' ? `cos ${g.cos.toFixed(4)} < merge threshold ${g.threshold}` : `types differ (${g.src_type} vs ${g.dst_type})`));
  const why: string[] = [];
  if (d.tags_src_only.length || d.tags_dst_only.length) why.push(`tags differ (${[...d.tags_src_only.map((t) => `+${t}`), ...d.tags_dst_only.map((t) => `−${t}`)].join(' ')})`);
  if (d.title) why.push('titles differ');
  const drift = failed.some((g) => g.guard === 'cosine')
    ? `; the embedding covers title, content, tags and entities, so ${why.length ? why.join(' and ') : 'their entities or small wording differences'} moved the vectors apart`
    : '';
  return `${text} texts, not merged: ${guards.join(' and ')}${drift}`;
}
