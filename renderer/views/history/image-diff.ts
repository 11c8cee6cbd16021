/**
 * Turns the journal's before/after images into comparable fields. A memory image (`m:<id>`) is a
 * table row whose `data` column holds the full record as JSON, plus its outgoing edges; other row
 * kinds (tombstones, belief rows) are plain objects. Pure functions, tested.
 */
import { plural } from '../../api/errors.js';

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** Promoted columns under the record's own field names; the column is what the store reads, so it wins. */
const COLUMN_FIELD: Record<string, string> = { last_accessed: 'last_accessed_at' };

export function nsOf(key: string): string {
  const i = key.indexOf(':');
  return i < 0 ? key : key.slice(0, i);
}

export function idOf(key: string): string {
  const i = key.indexOf(':');
  return i < 0 ? key : key.slice(i + 1);
}

/** A flat field map of one image (null image = the row did not exist). */
export function flattenImage(key: string, image: unknown): Record<string, unknown> | null {
  if (image === null || image === undefined) return null;
  if (nsOf(key) !== 'm' || typeof image !== 'object') return typeof image === 'object' ? { ...(image as Record<string, unknown>) } : { value: image };
  const img = image as { row?: Record<string, unknown>; embedding?: string | null; edges?: { dst: string; type: string; weight: number }[] };
  const row = img.row ?? {};
  let record: Record<string, unknown> = {};
  if (typeof row['data'] === 'string') {
    try {
      record = JSON.parse(row['data']) as Record<string, unknown>;
    } catch {
      record = { data: row['data'] };
    }
  }
  const out: Record<string, unknown> = { ...record };
  for (const [k, v] of Object.entries(row)) {
    if (k === 'data') continue;
    const f = COLUMN_FIELD[k] ?? k;
    out[f] = f === 'archived' ? v === 1 || v === true : v;
  }
  // The record's own edge list is the same as the edge rows; show the rows (what undo writes back).
  delete out['edges'];
  out['edges'] = (img.edges ?? []).map((e) => `${e.type} → ${e.dst} (${e.weight})`);
  out['embedding'] = img.embedding ? `${Math.floor((img.embedding.length * 3) / 4 / 4)} floats, checksum ${fnv1a(img.embedding)}` : null;
  return out;
}

/** A short checksum, so a changed vector shows as changed without printing it. */
function fnv1a(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields that differ between two images (every field when one side is missing). */
export function changedFields(key: string, before: unknown, after: unknown): FieldChange[] {
  const b = flattenImage(key, before);
  const a = flattenImage(key, after);
  const fields = [...new Set([...Object.keys(b ?? {}), ...Object.keys(a ?? {})])];
  const out: FieldChange[] = [];
  for (const f of fields) {
    const bv = b ? b[f] : undefined;
    const av = a ? a[f] : undefined;
    if (b && a && same(bv, av)) continue;
    out.push({ field: f, before: b ? (bv ?? null) : undefined, after: a ? (av ?? null) : undefined });
  }
  // The most telling fields first.
  const rank = (f: string) => ['archived', 'title', 'content', 'importance', 'type', 'status', 'tags', 'edges'].indexOf(f);
  return out.sort((x, y) => {
    const rx = rank(x.field);
    const ry = rank(y.field);
    return (rx < 0 ? 99 : rx) - (ry < 0 ? 99 : ry) || (x.field < y.field ? -1 : 1);
  });
}

/** "memories modified 3 · t created 1" from the journal's counts. */
/** The journal's count keys (`<ns>_<what>`, core/store/shared/journal.ts tallyRow) by the noun people use. */
const COUNT_NOUNS: Record<string, [string, string]> = {
  memories: ['memory', 'memories'],
  t: ['tombstone', 'tombstones'],
  'belief-alias': ['entity alias', 'entity aliases'],
  'belief-reject': ['alias rejection', 'alias rejections'],
};

/** "1 memory modified · 2 tombstones created" (an unknown key is shown as it is). */
export function countsLabel(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([k, n]) => {
      const cut = k.lastIndexOf('_');
      const noun = cut > 0 ? COUNT_NOUNS[k.slice(0, cut)] : undefined;
      return noun ? `${plural(n, noun[0], noun[1])} ${k.slice(cut + 1)}` : `${n} ${k.replace(/_/g, ' ')}`;
    })
    .join(' · ');
}

/** For two lists: what was removed and what was added (by value). */
export function listDiff(before: unknown, after: unknown): { removed: unknown[]; added: unknown[]; kept: number } | null {
  if (!Array.isArray(before) || !Array.isArray(after)) return null;
  const key = (x: unknown) => JSON.stringify(x);
  const b = new Set(before.map(key));
  const a = new Set(after.map(key));
  return { removed: before.filter((x) => !a.has(key(x))), added: after.filter((x) => !b.has(key(x))), kept: before.filter((x) => a.has(key(x))).length };
}

export function showValue(v: unknown): string {
  if (v === undefined) return '—';
  if (v === null) return 'null';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}
