/**
 * Answers belief-stream queries in the format the belief-stream scorer (score-beliefs.mjs) reads:
 * `current` → {id, value, p}; `values` → {id, values}; `aliases` → {id, aliases: [[a, b], …]}.
 */
import { z } from 'zod';
import { badInput } from '../errors.js';
import { describeIssues } from '../model/schemas.js';
import { jsonlValues } from './jsonl-values.js';
import type { BeliefReader } from './model.js';
import { readBelief, type ReadMode, type ReadOptions } from './read.js';

const finiteT = z.number().refine(Number.isFinite, 'at must be a finite number (epoch seconds)');

export const beliefQuerySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('current'), id: z.string().min(1), entity: z.string().min(1), attribute: z.string().min(1), at: finiteT }),
  z.object({ kind: z.literal('values'), id: z.string().min(1), entity: z.string().min(1), attribute: z.string().min(1), at: finiteT }),
  z.object({ kind: z.literal('aliases'), id: z.string().min(1), at: finiteT.optional() }),
]);

export type BeliefQuery = z.infer<typeof beliefQuerySchema>;

export type BeliefAnswer =
  | { id: string; value: string | null; p: number }
  | { id: string; values: string[] }
  | { id: string; aliases: [string, string][] };

export function parseQueriesJsonl(text: string): BeliefQuery[] {
  const out: BeliefQuery[] = [];
  for (const { json, line } of jsonlValues(text)) {
    const r = beliefQuerySchema.safeParse(json);
    if (!r.success) throw badInput(`line ${line}: ${describeIssues(r.error)} (a query is {kind: current|values|aliases, id, entity, attribute, at})`, { line });
    out.push(r.data);
  }
  return out;
}

export function answerQuery(model: BeliefReader, q: BeliefQuery, mode: ReadMode, opts: ReadOptions = {}): BeliefAnswer {
  if (q.kind === 'aliases') {
    return { id: q.id, aliases: model.tables.aliases().map((a) => [a.alias, a.canonical] as [string, string]) };
  }
  if (q.kind === 'values') {
    const view = readBelief(model, q.entity, q.attribute, q.at, 'as-of');
    return { id: q.id, values: view.values };
  }
  const view = readBelief(model, q.entity, q.attribute, q.at, mode, opts);
  return { id: q.id, value: view.value, p: Math.round(view.p * 1e6) / 1e6 };
}

export function answerQueries(model: BeliefReader, queries: readonly BeliefQuery[], mode: ReadMode, opts: ReadOptions = {}): BeliefAnswer[] {
  return queries.map((q) => answerQuery(model, q, mode, opts));
}
