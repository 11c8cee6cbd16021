/**
 * A small synthetic belief stream in the belief-stream format (observations.jsonl, queries.jsonl,
 * truth.jsonl), with a known truth: each person's attribute holds a value that changes at random
 * times, and each observation reports the true value with probability equal to its reliability,
 * else another value of the attribute. It is not the dev stream's generator (that one is not ours),
 * so it also serves as a stream the dev-fitted calibration never saw. Deterministic for a seed;
 * the committed copy under test/fixtures/belief-stream-synthetic is written by
 * scripts/make-synthetic-belief-stream.ts.
 */
import { rng } from '../core/demo/generate.js';

const DAY = 86_400;
const START = 1_700_000_000;
const SPAN_DAYS = 300;
const GIVEN = ['Amara', 'Bruno', 'Chiara', 'Desmond', 'Elif', 'Felix', 'Greta', 'Hamid', 'Ines', 'Jonah', 'Kalani', 'Lior', 'Maren', 'Nikolai', 'Odette', 'Pavel', 'Quilla', 'Rosalind', 'Soren', 'Talia', 'Ulrich', 'Vesna', 'Wendell', 'Ximena', 'Yusuf', 'Zora', 'Anouk', 'Benedikt', 'Calla', 'Dorian'];
const FAMILY = ['Abara', 'Bergqvist', 'Castellano', 'Dumont', 'Eriksen', 'Fontaine', 'Gallagher', 'Horvath', 'Ibarra', 'Jovanovic', 'Kowalczyk', 'Lindahl', 'Marchetti', 'Novak', 'Oyelaran', 'Petrov', 'Quintero', 'Rasmussen', 'Sandoval', 'Takahashi', 'Uchenna', 'Varga', 'Whitfield', 'Xenakis', 'Yamada', 'Zielinski', 'Achterberg', 'Bianchi', 'Cardenas', 'Delacroix'];
const ATTRIBUTES: Record<string, string[]> = {
  city: ['Lisbon', 'Nairobi', 'Osaka', 'Quito', 'Tallinn', 'Hobart', 'Accra', 'Bergen'],
  employer: ['Larkspur Foods', 'Tidewater Rail', 'Copperline Media', 'Northgate Clinic', 'Brightfield Labs', 'Harbor Freight Co', 'Sable Insurance', 'Orchid Software'],
  role: ['nurse', 'welder', 'analyst', 'chef', 'teacher', 'pilot', 'editor', 'surveyor'],
  pet: ['a beagle', 'two cats', 'a parrot', 'a tortoise', 'no pet', 'a ferret', 'goldfish', 'a rabbit'],
};

export interface SyntheticBeliefStream {
  observations: string;
  queries: string;
  truth: string;
}

const jsonl = (rows: readonly object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

export function syntheticBeliefStream(seed = 19, people = 30): SyntheticBeliefStream {
  const rand = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const other = (xs: readonly string[], not: string) => pick(xs.filter((x) => x !== not));
  const observations: { entity: string; attribute: string; value: string; t: number; reliability: number; evidence: string }[] = [];
  const queries: object[] = [];
  const truth: object[] = [];
  const end = START + SPAN_DAYS * DAY;
  for (let i = 0; i < people; i++) {
    const entity = `${GIVEN[i % GIVEN.length]} ${FAMILY[i % FAMILY.length]}`;
    for (const [attribute, pool] of Object.entries(ATTRIBUTES)) {
      // The true history: a value, then changes at exponential intervals (mean 300 days).
      const history: { from: number; value: string }[] = [{ from: START, value: pick(pool) }];
      for (let t = START - Math.log(1 - rand()) * 300 * DAY; t < end; t -= Math.log(1 - rand()) * 300 * DAY) {
        history.push({ from: Math.round(t), value: other(pool, history[history.length - 1]!.value) });
      }
      const valueAt = (t: number) => history.filter((h) => h.from <= t).pop()!.value;
      const count = 3 + Math.floor(rand() * 6);
      for (let k = 0; k < count; k++) {
        const t = START + Math.floor(rand() * SPAN_DAYS * DAY);
        const reliability = Math.round((0.75 + rand() * 0.23) * 1000) / 1000;
        const value = rand() < reliability ? valueAt(t) : other(pool, valueAt(t));
        observations.push({ entity, attribute, value, t, reliability, evidence: `${entity.split(' ')[0]}'s ${attribute} is ${value}.` });
      }
      for (const at of [START + Math.floor(rand() * SPAN_DAYS * DAY), end]) {
        const id = `q${String(queries.length).padStart(5, '0')}`;
        queries.push({ kind: 'current', entity, attribute, at, id });
        truth.push({ value: valueAt(at), id });
      }
    }
  }
  observations.sort((a, b) => a.t - b.t);
  const id = `q${String(queries.length).padStart(5, '0')}`;
  queries.push({ kind: 'aliases', at: end, id });
  truth.push({ aliases: [], id });
  return {
    observations: jsonl(observations.map((o, i) => ({ ...o, id: `o${String(i).padStart(6, '0')}` }))),
    queries: jsonl(queries),
    truth: jsonl(truth),
  };
}
