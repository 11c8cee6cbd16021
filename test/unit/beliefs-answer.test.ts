import { afterEach, describe, expect, it } from 'vitest';
import { answerQueries, parseQueriesJsonl } from '../../core/beliefs/answer.js';
import { applyAliasMerges } from '../../core/beliefs/aliases.js';
import type { Engine } from '../../core/engine/engine.js';
import { DAY, freshEngine, NOW, obs } from '../helpers/beliefs.js';

const T0 = 1_700_000_000;
let open: Engine[] = [];
afterEach(() => {
  for (const e of open) e.close();
  open = [];
});

describe('queries', () => {
  it('parse one per line and name a bad line', () => {
    const text = [
      JSON.stringify({ kind: 'current', entity: 'Ada Osei', attribute: 'city', at: T0, id: 'q1' }),
      JSON.stringify({ kind: 'aliases', at: T0, id: 'q2' }),
      JSON.stringify({ kind: 'sometimes', id: 'q3' }),
    ].join('\n');
    expect(() => parseQueriesJsonl(text)).toThrow(/^line 3: /);
    expect(parseQueriesJsonl(text.split('\n').slice(0, 2).join('\n'))).toHaveLength(2);
  });
});

describe('answers in the scorer format', () => {
  it('current → value and p, values → the set, aliases → the merged pairs', () => {
    const f = freshEngine();
    open.push(f.engine);
    const m = f.model;
    m.ingest(
      [
        obs('Dmitri Osei', 'city', 'Lyon', T0),
        obs('Dmitri Osei', 'city', 'Cusco', T0 + 100 * DAY, 0.85),
        obs('Dima Osei', 'hobby', 'chess', T0),
        obs('Dmitri Osei', 'hobby', 'sailing', T0 + 5 * DAY),
        obs('Dmitri Osei', 'hobby', 'pottery', T0 + 6 * DAY, 0.2),
      ],
      NOW,
    );
    applyAliasMerges(m, [{ alias: 'Dima Osei', canonical: 'Dmitri Osei' }], undefined, NOW);
    const answers = answerQueries(
      m,
      [
        { kind: 'current', entity: 'Dmitri Osei', attribute: 'city', at: T0 + 50 * DAY, id: 'q1' },
        { kind: 'current', entity: 'Dima Osei', attribute: 'city', at: T0 + 101 * DAY, id: 'q2' },
        { kind: 'current', entity: 'Nobody', attribute: 'city', at: T0, id: 'q3' },
        { kind: 'values', entity: 'Dima Osei', attribute: 'hobby', at: NOW, id: 'q4' },
        { kind: 'aliases', at: NOW, id: 'q5' },
      ],
      'as-of',
    );
    expect(answers[0]).toMatchObject({ id: 'q1', value: 'Lyon' });
    expect((answers[0] as { p: number }).p).toBeGreaterThan(0.5);
    expect(answers[1]).toMatchObject({ id: 'q2', value: 'Cusco' });
    expect(answers[2]).toEqual({ id: 'q3', value: null, p: 0 });
    expect(answers[3]).toEqual({ id: 'q4', values: ['chess', 'sailing'] });
    expect(answers[4]).toEqual({ id: 'q5', aliases: [['Dima Osei', 'Dmitri Osei']] });
  });
});
