/** The `mnemo` profile's fixes over nooa v0.0.9, and which profile a store gets. */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import type { Engine } from '../../core/engine/engine.js';
import { explain } from '../../core/recall/explain.js';
import { MNEMO_PROFILE, NOOA_PROFILE, profileDifferences } from '../../core/recall/profile.js';
import { FIXTURE_STORE, tempDir } from '../../support/fixture.js';
import { NOW, newEngine, put } from '../helpers/recall-store.js';

let engine: Engine;
afterEach(() => engine?.close());

describe('profiles', () => {
  it('a new store scores with mnemo, a nooa store with nooa-0.0.9; a call may name either', async () => {
    engine = newEngine();
    expect(engine.profile()).toBe('mnemo');
    put(engine, { content: 'deploy billing' });
    expect(explain(engine, { query: 'deploy' }).profile).toBe('mnemo');
    expect(explain(engine, { query: 'deploy', profile: 'nooa-0.0.9' }).profile).toBe('nooa-0.0.9');
    const path = join(tempDir(), 's.sqlite');
    copyFileSync(FIXTURE_STORE, path);
    const session = new ApiSession();
    session.open(path, { readonly: true });
    const info = await call(session, 'recall.profile', {});
    expect(info).toMatchObject({ name: 'nooa-0.0.9', store_profile: 'nooa-0.0.9', differences: [] });
    const mnemo = await call(session, 'recall.profile', { profile: 'mnemo' });
    expect(mnemo.differences).toEqual(profileDifferences(MNEMO_PROFILE));
    // The two fixes of the reference's faults, then the retrieval features tuned on LoCoMo (docs/benchmarks/locomo.md).
    expect(mnemo.differences.slice(0, 2)).toEqual([
      'the keyword leg reads content, title, tags (nooa: content only)',
      'archived memories never receive or relay spread activation (nooa v0.0.9 lets spread pull them back in)',
    ]);
    expect(mnemo.differences.slice(2).join('\n')).toMatch(/BM25 candidate leg/);
    session.close();
  });

  it('mnemo: archived memories never receive or relay activation; nooa lets spread pull them back', () => {
    engine = newEngine();
    const far = put(engine, { content: 'qqq zzz far away' });
    const gone = put(engine, { content: 'www yyy archived middle', edges: [{ target_id: far.id, type: 'causes', weight: 1, created_at: NOW }] });
    put(engine, { content: 'deploy billing checklist', importance: 10, edges: [{ target_id: gone.id, type: 'causes', weight: 1, created_at: NOW }] });
    engine.store.setArchived(gone.id, true);
    const nooa = explain(engine, { query: 'deploy billing checklist', k: 100, hops: 2, profile: 'nooa-0.0.9' });
    expect(nooa.rows.find((r) => r.id === gone.id)?.source).toBe('spread');
    expect(nooa.paths[far.id]?.map((p) => p.from)).toEqual([gone.id]);
    const mnemo = explain(engine, { query: 'deploy billing checklist', k: 100, hops: 2, profile: 'mnemo' });
    expect(mnemo.rows.map((r) => r.id)).not.toContain(gone.id);
    expect(mnemo.paths[far.id]).toBeUndefined();
  });

  it('mnemo: the keyword leg also reads title and tags (nooa: content only)', () => {
    engine = newEngine();
    const titled = put(engine, { content: 'steps to follow', title: 'Kestrel runbook' });
    const tagged = put(engine, { content: 'some words', tags: ['kestrel-ops'] });
    for (let i = 0; i < 60; i++) put(engine, { content: `filler memory number ${i} with kestrel in it` });
    const sparse = (profile: 'mnemo' | 'nooa-0.0.9') =>
      new Set(explain(engine, { query: 'kestrel', k: 1000, hops: 0, profile }).rows.filter((r) => r.source !== 'dense').map((r) => r.id));
    // 60 content matches fill nooa's 50-slot keyword cut in rowid order; the titled and tagged rows come first by rowid.
    expect(sparse('mnemo').has(titled.id)).toBe(true);
    expect(sparse('mnemo').has(tagged.id)).toBe(true);
    expect(sparse('nooa-0.0.9').has(titled.id)).toBe(false);
    expect(sparse('nooa-0.0.9').has(tagged.id)).toBe(false);
  });

  it('both profiles share every scoring knob', () => {
    expect(MNEMO_PROFILE.knobs).toBe(NOOA_PROFILE.knobs);
  });
});
