/**
 * The demo store's beliefs: observations about a few services (who owns each, how it is deployed,
 * its on-call rota), spread over the demo's history, with one change of mind per dimension so the
 * Beliefs view shows a posterior that moved and a surprise on the delta timeline.
 */
import type { Observation } from '../beliefs/observation.js';
import * as R from './recipe.js';

const ATTRIBUTES: { name: string; values: readonly string[] }[] = [
  { name: 'owner', values: R.PEOPLE },
  { name: 'deploy_tool', values: R.TOOLS },
  { name: 'main_env', values: R.ENVS },
];

/** Six services × three attributes, 4 to 8 observations each, sorted by time. */
export function demoObservations(rand: () => number, start: number, now: number): Observation[] {
  const out: Observation[] = [];
  const span = now - start;
  for (const service of R.SERVICES.slice(0, 6)) {
    for (const attr of ATTRIBUTES) {
      const first = attr.values[Math.floor(rand() * attr.values.length)]!;
      const later = attr.values[(attr.values.indexOf(first) + 1 + Math.floor(rand() * (attr.values.length - 1))) % attr.values.length]!;
      const n = 4 + Math.floor(rand() * 5);
      // The change of mind lands somewhere in the middle of the history.
      const switchAt = Math.floor(n / 2);
      for (let i = 0; i < n; i++) {
        const t = Math.round(start + (span * (i + rand() * 0.8)) / n);
        // Now and then a stray report disagrees with the current value (noise the model weighs down).
        const stray = rand() < 0.12;
        const value = stray ? attr.values[Math.floor(rand() * attr.values.length)]! : i < switchAt ? first : later;
        out.push({
          entity: service,
          attribute: attr.name,
          value,
          t,
          reliability: Math.round((0.6 + rand() * 0.35) * 100) / 100,
          evidence: `${service}: ${attr.name} reported as ${value}`,
          source: 'demo',
          memory_id: null,
          id: null,
          line: out.length + 1,
        });
      }
    }
  }
  return out.sort((a, b) => a.t - b.t);
}
