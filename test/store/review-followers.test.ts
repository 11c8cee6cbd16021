/**
 * Reviewing a reflection plan on a generated store (test/unit/review-decisions.test.ts has the rules
 * on hand-made plans): the items the review predicts will follow a rejected merge are exactly what
 * apply skips when it is sent every item but that merge. It plans and applies a 3,000-memory store
 * twice, a store-sized transaction, so it runs with the store tests rather than the fast unit loop.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateDemo } from '../../core/demo/generate.js';
import type { Engine } from '../../core/engine/engine.js';
import { applyPlan } from '../../core/reflect/apply.js';
import { planReflection } from '../../core/reflect/plan.js';
import { ReviewedPlan } from '../../core/review/review.js';
import { tempDir } from '../../support/fixture.js';
import { openAt } from '../../support/reflect.js';

const NOW = 1_780_000_000;
const engines: Engine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});

describe('ReviewedPlan on a generated store', () => {
  it("predicts exactly what apply skips when a merge is rejected (a generated store where windows shift)", async () => {
    const seedPath = join(tempDir('mnemo-review-'), 'demo.sqlite');
    const seed = openAt(seedPath, NOW, true);
    generateDemo(seed.store, { size: 3000, seed: 7, now: NOW });
    seed.close();
    const planner = openAt(seedPath, NOW);
    engines.push(planner);
    const plan = await planReflection(planner, {});
    const r = new ReviewedPlan(plan);
    const withFollowers = r.ops.filter((o) => o.op === 'merge').filter((o) => r.counts([{ do: 'reject', ids: [o.id] }]).follows > 0);
    expect(withFollowers.length).toBeGreaterThan(0);
    for (const m of withFollowers.slice(0, 2)) {
      const d = r.decisions([{ do: 'reject', ids: [m.id] }]);
      const predicted = [...d].filter(([, x]) => x.state === 'follows').map(([id]) => id);
      const copy = join(tempDir('mnemo-review-'), 'copy.sqlite');
      copyFileSync(seedPath, copy);
      const engine = openAt(copy, NOW);
      engines.push(engine);
      // Send every item but the rejected merge: apply must skip exactly the predicted followers.
      const res = await applyPlan(engine, plan, { accepted: r.ops.map((o) => o.id).filter((id) => id !== m.id) });
      expect(res.skipped.map((s) => s.id).sort()).toEqual(predicted.sort());
      for (const s of res.skipped) expect(s.reason).toContain(m.id);
    }
  }, 120_000);
});
