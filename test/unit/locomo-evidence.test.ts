import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalDiaId, normalizeEvidence, sessionOf } from '../../bench/locomo/evidence.js';
import { locomoData } from '../helpers/optional-data.js';

const turns = (...ids: string[]) => new Set(ids);

describe('LoCoMo evidence normalisation', () => {
  const conv = turns('D8:6', 'D9:17', 'D30:5', 'D9:1', 'D4:4', 'D4:6', 'D22:1', 'D22:2', 'D9:10', 'D9:11', 'D1:18', 'D1:20', 'D11:26');

  it('splits two ids joined by "; "', () => {
    expect(normalizeEvidence(['D8:6; D9:17'], conv)).toEqual({ ids: ['D8:6', 'D9:17'], dropped: [], repaired: true });
  });

  it('strips zero padding ("D30:05" → "D30:5")', () => {
    expect(canonicalDiaId('D30:05')).toBe('D30:5');
    expect(canonicalDiaId('D01:010')).toBe('D1:10');
    expect(normalizeEvidence(['D30:05'], conv)).toEqual({ ids: ['D30:5'], dropped: [], repaired: true });
  });

  it('splits space-separated lists', () => {
    expect(normalizeEvidence(['D9:1 D4:4 D4:6'], conv).ids).toEqual(['D9:1', 'D4:4', 'D4:6']);
    expect(normalizeEvidence(['D22:1 D22:2 D9:10 D9:11'], conv).ids).toEqual(['D22:1', 'D22:2', 'D9:10', 'D9:11']);
  });

  it('drops a bare "D" and counts it, keeping the well-formed neighbours', () => {
    expect(normalizeEvidence(['D1:18', 'D', 'D1:20'], conv)).toEqual({ ids: ['D1:18', 'D1:20'], dropped: ['D'], repaired: false });
  });

  it('drops "D:11:26" instead of guessing what it meant', () => {
    const r = normalizeEvidence(['D:11:26'], conv);
    expect(r.ids).toEqual([]);
    expect(r.dropped).toEqual(['D:11:26']);
  });

  it('drops ids that name a turn the conversation does not have', () => {
    expect(normalizeEvidence(['D10:19', 'D8:6'], conv)).toEqual({ ids: ['D8:6'], dropped: ['D10:19'], repaired: false });
  });

  it('keeps an empty evidence list empty, de-duplicates, and keeps first-given order', () => {
    expect(normalizeEvidence([], conv)).toEqual({ ids: [], dropped: [], repaired: false });
    expect(normalizeEvidence(['D9:17', 'D8:6;D9:17', ' D8:6 '], conv).ids).toEqual(['D9:17', 'D8:6']);
  });

  it('maps a turn id to its session', () => {
    expect(sessionOf('D7:3')).toBe(7);
    expect(sessionOf('D')).toBeNaN();
  });

  // The real file is read only when it is given (it is never part of the project).
  const locomo = locomoData();
  it('handles every malformed evidence string of the real file as the data README lists them', { tags: ['external-data'] }, (ctx) => {
    if (!locomo.path) return ctx.skip(locomo.missing);
    const data = JSON.parse(readFileSync(locomo.path, 'utf8')) as { sample_id: string; conversation: Record<string, unknown>; qa: { evidence: string[] }[] }[];
    const malformed: string[] = [];
    const dropped: string[] = [];
    let empty = 0;
    for (const s of data) {
      const ids = new Set<string>();
      for (const [k, v] of Object.entries(s.conversation)) if (/^session_\d+$/.test(k) && Array.isArray(v)) for (const t of v as { dia_id: string }[]) ids.add(t.dia_id);
      for (const q of s.qa) {
        if (q.evidence.length === 0) empty++;
        for (const e of q.evidence) if (!/^D[1-9]\d*:[1-9]\d*$/.test(e) || !ids.has(e)) malformed.push(e);
        const r = normalizeEvidence(q.evidence, ids);
        for (const d of r.dropped) dropped.push(`${s.sample_id} ${d}`);
        for (const id of r.ids) expect(ids.has(id)).toBe(true);
      }
    }
    expect(malformed.sort()).toEqual(['D', 'D10:19', 'D21:18 D21:22 D11:15 D11:19', 'D22:1 D22:2 D9:10 D9:11', 'D30:05', 'D4:36', 'D8:6; D9:17', 'D9:1 D4:4 D4:6', 'D:11:26']);
    expect(dropped.sort()).toEqual(['conv-42 D', 'conv-42 D10:19', 'conv-43 D:11:26', 'conv-47 D4:36']);
    expect(empty).toBe(4);
  });
});
