/**
 * Owner scoping of recall: no foreign memory is read, leaked or relayed through spread. The
 * reference tested that spread does not leak a foreign node, but never the relay half: own →
 * foreign → own must not carry activation to the far own node.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { ownerMatches } from '../../core/model/owner.js';
import { explain } from '../../core/recall/explain.js';
import { rank } from '../../core/recall/pipeline.js';
import { NOOA_PROFILE, MNEMO_PROFILE } from '../../core/recall/profile.js';
import { FIXTURE_DIR, tempDir } from '../../support/fixture.js';
import { NOW, newEngine, put } from '../helpers/recall-store.js';

const engines: Engine[] = [];
afterEach(() => {
  while (engines.length) engines.pop()!.close();
});
function track(e: Engine): Engine {
  engines.push(e);
  return e;
}

/** a (Planner@a1) --causes 1.0--> b (Coder@c3) --causes 1.0--> c (Planner@a1); only a matches the query. */
function relayStore(profile: typeof NOOA_PROFILE) {
  const e = track(newEngine({ profile: profile.name as 'mnemo' | 'nooa-0.0.9' }));
  const c = put(e, { content: 'zephyr quartz obelisk', owner: 'Planner@a1', importance: 5 });
  const b = put(e, { content: 'walrus fjord lantern', owner: 'Coder@c3', importance: 5, edges: [{ target_id: c.id, type: 'causes', weight: 1, created_at: NOW }] });
  const a = put(e, { content: 'kestrel release checklist', owner: 'Planner@a1', importance: 9, edges: [{ target_id: b.id, type: 'causes', weight: 1, created_at: NOW }] });
  for (let i = 0; i < 4; i++) put(e, { content: `unrelated note number ${i} about gardening`, owner: 'Planner@a1', importance: 1 });
  return { e, a, b, c };
}

describe('the three-node relay own → foreign → own', () => {
  for (const profile of [NOOA_PROFILE, MNEMO_PROFILE]) {
    it(`${profile.name}: the far own node gets nothing through the foreign one`, () => {
      const { e, a, b, c } = relayStore(profile);
      const scoped = rank(e, { query: 'kestrel release checklist', hops: 2, owner: 'Planner@a1', profile, now: NOW, trace: true });
      expect(scoped.rows.find((r) => r.id === a.id)!.base).toBeGreaterThan(0.5);
      expect(scoped.rows.some((r) => r.id === b.id)).toBe(false);
      const far = scoped.rows.find((r) => r.id === c.id);
      expect(far?.spread ?? 0).toBe(0);
      expect(scoped.paths.has(c.id)).toBe(false);
      expect(scoped.paths.has(b.id)).toBe(false);
      // The edge into the foreign node was considered and refused, and nothing left it.
      expect(scoped.trace.filter((t) => t.to === b.id).map((t) => t.status)).toEqual(['invisible']);
      expect(scoped.trace.some((t) => t.from === b.id)).toBe(false);

      // The same store without a scope does relay: the path exists, so the scope is what stops it.
      const open = rank(e, { query: 'kestrel release checklist', hops: 2, owner: null, profile, now: NOW });
      expect(open.rows.find((r) => r.id === c.id)!.spread).toBeGreaterThan(0);
      expect(open.paths.get(c.id)!.map((p) => [p.from, p.hop])).toContainEqual([b.id, 2]);
    });
  }

  it('the reference fixture chain: chain.c gets no spread from chain.b under Planner@a1', () => {
    const exp = JSON.parse(readFileSync(join(FIXTURE_DIR, 'expected.json'), 'utf8'));
    const path = join(tempDir(), 'store.sqlite');
    copyFileSync(join(FIXTURE_DIR, 'store.sqlite'), path);
    const e = track(Engine.open(path, { readonly: true, clock: fixedClock(exp.now) }));
    const { a, b, c } = exp.summary.chain as { a: string; b: string; c: string };
    for (const hops of [1, 2]) {
      const r = rank(e, { query: 'release checklist for the kestrel migration', hops, owner: 'Planner@a1', profile: NOOA_PROFILE, now: exp.now });
      expect(r.rows.some((x) => x.id === b)).toBe(false);
      expect((r.paths.get(c) ?? []).some((p) => p.from === b)).toBe(false);
      expect(r.rows.some((x) => x.id === a)).toBe(true);
    }
  });
});

describe('scopes', () => {
  function scopedStore() {
    const e = track(newEngine());
    const owners = ['Planner@a1', 'Planner@b2', 'Planner', 'Coder@c3', 'Coder', ''];
    const ids = new Map<string, string>();
    for (const o of owners) ids.set(o, put(e, { content: `deploy billing service checklist for ${o || 'everyone'}`, owner: o }).id);
    return { e, ids, owners };
  }
  const cases: [string, string | null, string[]][] = [
    ['wildcard "*"', '*', ['Planner@a1', 'Planner@b2', 'Planner', 'Coder@c3', 'Coder', '']],
    ['absent', null, ['Planner@a1', 'Planner@b2', 'Planner', 'Coder@c3', 'Coder', '']],
    ['role "Planner"', 'Planner', ['Planner@a1', 'Planner@b2', 'Planner', '']],
    ['instance "Planner@a1"', 'Planner@a1', ['Planner@a1', '']],
    ['role "Coder"', 'Coder', ['Coder@c3', 'Coder', '']],
    ['instance "Coder@c3"', 'Coder@c3', ['Coder@c3', '']],
  ];
  it.each(cases)('%s sees exactly its owners and the unowned', (_label, scope, visible) => {
    const { e, ids } = scopedStore();
    const res = explain(e, { query: 'deploy billing checklist', k: 1000, hops: 2, owner: scope });
    expect(new Set(res.rows.map((r) => r.owner))).toEqual(new Set(visible));
    expect(new Set(res.rows.map((r) => r.id))).toEqual(new Set(visible.map((o) => ids.get(o)!)));
  });

  it('spread never reaches a memory outside the scope, even over a strong causal edge', () => {
    const e = track(newEngine());
    const foreign = put(e, { content: 'completely different words here', owner: 'Coder@c3' });
    put(e, { content: 'deploy billing checklist', owner: 'Planner@a1', edges: [{ target_id: foreign.id, type: 'causes', weight: 1, created_at: NOW }] });
    for (const scope of ['Planner', 'Planner@a1']) {
      const res = explain(e, { query: 'deploy billing checklist', k: 1000, hops: 2, owner: scope });
      expect(res.rows.map((r) => r.id)).not.toContain(foreign.id);
    }
    const all = explain(e, { query: 'deploy billing checklist', k: 1000, hops: 1, owner: '*' });
    expect(all.rows.find((r) => r.id === foreign.id)!.spread).toBeGreaterThan(0);
  });

  it('one owner rule for candidates and spread: exact, case-sensitive', () => {
    expect(ownerMatches('planner@a1', 'Planner')).toBe(false); // another role (see owner-case.test.ts)
    expect(ownerMatches('Planner', 'Planner@a1')).toBe(false); // a bare-role row is not an instance's
  });
});
