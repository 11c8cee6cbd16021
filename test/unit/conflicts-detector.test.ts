/**
 * The value-conflict detector without any model: which pairs of texts state different values of
 * one thing, and, on a store with planted pairs (support/conflict-plants.ts, both kinds: with a
 * contradicts edge and without), how many the queue finds and how many of its items are planted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { fixedClock } from '../../core/clock.js';
import { NameBook, significant, tokenize, valueConflict, valueKind } from '../../core/review/conflicts/value-spans.js';
import { plantedWorld, plantStore, queuedPairs, scoreQueue } from '../../support/conflict-plants.js';
import { freshStorePath } from '../helpers/agents.js';

function detector(texts: string[]) {
  const names = new NameBook();
  for (const t of texts) names.learn(tokenize(t));
  return (a: string, b: string) => valueConflict(significant(tokenize(a)), significant(tokenize(b)), names);
}

describe('the value detector', () => {
  const context = ['Ask Dana, Lior or Kemi.', 'Priya and Omar met in March.'];

  it('finds one differing value of each kind, across small changes of wording', () => {
    const d = detector(context);
    const cases: [string, string, string][] = [
      ['The billing service is owned by Dana.', 'The billing service is now owned by Lior.', 'name'],
      ['The billing database listens on port 5432.', 'The billing database listens on port 6432.', 'number'],
      ['The release freeze starts on 2026-03-02.', 'The release freeze currently starts on 2026-04-13.', 'date'],
      ['The auth client is pinned to version 2.17.2.', 'The auth client is pinned to version 2.7.3 these days.', 'version'],
      ['Payments write to the primary at db-3.internal.', 'Payments write to the primary at db-7.internal.', 'host'],
      ['The nightly export writes to reports/daily.csv today.', 'The nightly export writes to exports/nightly.csv.', 'path'],
      ['Alerts for the search service go to #ops.', 'Alerts for the search service go to #sre.', 'identifier'],
    ];
    for (const [a, b, kind] of cases) {
      const c = d(a, b);
      expect(c, `${a} / ${b}`).not.toBeNull();
      expect(c!.spans).toHaveLength(1);
      expect(c!.spans[0]!.kind).toBe(kind);
      expect(c!.confidence).toBeGreaterThan(0.8);
    }
  });

  it('leaves alone: another subject, the same value, other words, a person first in the sentence, and names beside another value', () => {
    const d = detector(context);
    expect(d('The billing service is owned by Dana.', 'The search service is owned by Lior.')).toBeNull();
    expect(d('The billing service is owned by Dana.', 'The billing service is now owned by Dana.')).toBeNull();
    expect(d('The billing service is owned by Dana.', 'The billing service is deployed every Tuesday by Dana.')).toBeNull();
    expect(d('Dana speaks Polish with customers.', 'Lior speaks Polish with customers.')).toBeNull();
    expect(d("Dana's phone is 555-0101.", "Lior's phone is 555-0199.")).toBeNull();
    expect(d('short', 'text')).toBeNull();
  });

  it('types values without a dictionary: a name is a capitalised word the store also uses mid-sentence', () => {
    const names = new NameBook();
    names.learn(tokenize('We asked Dana about it.'));
    const [first] = tokenize('Dana owns it.');
    expect(valueKind(first!, names)).toBe('name');
    expect(valueKind(tokenize('The owner.')[0]!, names)).toBeNull();
    expect(valueKind(tokenize('June 3')[0]!, names)).toBe('date');
    expect(valueKind(tokenize('it may fail')[1]!, names)).toBeNull();
    expect(valueKind(tokenize('ask Jun')[1]!, names)).toBe('name');
  });
});

describe('on a store with planted pairs', () => {
  let open: ApiSession[] = [];
  afterEach(() => {
    for (const s of open) s.close();
    open = [];
  });

  it('the generator is deterministic for a seed', () => {
    expect(plantedWorld(7, { valuePairs: 10, edgePairs: 5, setPairs: 3 })).toEqual(plantedWorld(7, { valuePairs: 10, edgePairs: 5, setPairs: 3 }));
    expect(plantedWorld(7).memories).not.toEqual(plantedWorld(8).memories);
  });

  it('the queue finds at least 90 % of the planted pairs in its top items, at 80 % precision or better, both kinds', async () => {
    const world = plantedWorld(41, { valuePairs: 40, edgePairs: 15, setPairs: 6 });
    const s = new ApiSession({ clock: fixedClock(1_780_000_000) });
    s.open(freshStorePath(), { create: true });
    open.push(s);
    const ids = await plantStore(s, world);
    const score = scoreQueue(world, await queuedPairs(s, ids));
    expect(score.by_how.edge.planted).toBe(15);
    expect(score.by_how.value.planted).toBeGreaterThanOrEqual(40);
    expect(score.by_how.edge.found).toBe(15);
    expect(score.recall_in_top).toBeGreaterThanOrEqual(0.9);
    expect(score.precision_in_top).toBeGreaterThanOrEqual(0.8);
    expect(score.recall).toBeGreaterThanOrEqual(0.9);
    expect(score.precision).toBeGreaterThanOrEqual(0.8);
    // What it wrongly lists is the set-valued facts it cannot tell apart, nothing else.
    expect(score.false_other).toBe(0);
  });
});
