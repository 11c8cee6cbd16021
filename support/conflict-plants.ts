/**
 * A store with planted conflicts and a known truth, for measuring the conflict queue's detector:
 * a small world of services, people, hosts, ports, versions and dates, stated as facts (one per
 * service and attribute), with pairs planted two ways:
 *
 * - `value`: a second statement of a fact with another value and no edge (sometimes worded a
 *   little differently: "now", "currently", "these days");
 * - `edge`: two memories an agent joined with a `contradicts` edge (any two statements of one
 *   service, worded as they come).
 *
 * And what must not be listed:
 * - the same template about another service ("billing is owned by Dana" / "search is owned by Lior");
 * - a fact restated with the same value, in other filler words;
 * - other attributes of the same service;
 * - events: deploys of one service on several dates, stored as episodes;
 * - set-valued facts ("Dana speaks Portuguese" / "Dana speaks Hindi"): both hold, and the detector,
 *   which has no model of which attributes take one value, cannot know it. They are the honest cost
 *   in precision, and the generator says how many it planted.
 *
 * Deterministic for a seed. Written by `npm run bench -- conflicts` and by the tests.
 */
import type { ApiSession } from '../core/api/context.js';
import { call } from '../core/api/service.js';
import { rng } from '../core/demo/generate.js';

export interface PlantedMemory {
  key: string;
  content: string;
  type: 'info' | 'episode';
  owner: string;
}

export interface PlantedWorld {
  memories: PlantedMemory[];
  /**
   * Pairs that are conflicts, by memory key: every two statements of one fact with different values
   * (a restatement of the old value disagrees with the new one too), and the pairs an agent joined
   * with a `contradicts` edge from `a` to `b`.
   */
  conflicts: { a: string; b: string; how: 'value' | 'edge' }[];
  /** Pairs of both-holding set-valued facts (the detector lists them; they count against it). */
  setValued: { a: string; b: string }[];
}

const SERVICES = ['billing', 'search', 'payments', 'auth', 'gateway', 'ledger', 'mailer', 'reports', 'inventory', 'notifier', 'checkout', 'exporter', 'scheduler', 'profile', 'uploads', 'webhooks', 'catalog', 'pricing', 'shipping', 'analytics', 'identity', 'audit', 'media', 'sessions', 'feeds', 'alerts', 'metrics', 'archive', 'ratings', 'coupons'];
const PEOPLE = ['Dana', 'Lior', 'Kemi', 'Arjun', 'Chen', 'Farah', 'Ivo', 'Jun', 'Ana', 'Gus', 'Mira', 'Tomas', 'Noor', 'Sven', 'Yara', 'Bo', 'Keiko', 'Omar', 'Pia', 'Rui', 'Zeynep', 'Hugo', 'Leila', 'Matteo', 'Nia', 'Oskar', 'Priya', 'Quinn', 'Sara', 'Teo'];
const LANGUAGES = ['Portuguese', 'Hindi', 'Korean', 'Swahili', 'Polish', 'Turkish', 'Greek', 'Tagalog'];
const CHANNELS = ['#ops', '#payments-oncall', '#search-alerts', '#infra', '#sre', '#billing-pager'];
const BUCKETS = ['s3://backups-eu/', 's3://backups-us/', 'gs://cold-store/', 's3://archive-2024/'];

interface Template {
  attribute: string;
  /** Ways of saying it; {s} the service, {v} the value. */
  say: string[];
  value: (pick: <T>(xs: readonly T[]) => T, n: () => number) => string;
}

const TEMPLATES: Template[] = [
  { attribute: 'owner', say: ['The {s} service is owned by {v}.', 'The {s} service is now owned by {v}.', 'The {s} service is currently owned by {v}.'], value: (p) => p(PEOPLE) },
  { attribute: 'host', say: ['The {s} service runs on {v}.', 'The {s} service now runs on {v}.'], value: (_p, n) => `${['db', 'app', 'web', 'worker'][n() % 4]}-${1 + (n() % 40)}.internal` },
  { attribute: 'port', say: ['The {s} database listens on port {v}.', 'The {s} database actually listens on port {v}.'], value: (_p, n) => String(5000 + (n() % 4000)) },
  { attribute: 'version', say: ['The {s} client is pinned to version {v}.', 'The {s} client is pinned to version {v} these days.'], value: (_p, n) => `${1 + (n() % 5)}.${n() % 20}.${n() % 10}` },
  { attribute: 'rotation', say: ['The {s} on-call rotation starts on {v}.', 'The {s} on-call rotation now starts on {v}.'], value: (_p, n) => `2026-${String(1 + (n() % 12)).padStart(2, '0')}-${String(1 + (n() % 28)).padStart(2, '0')}` },
  { attribute: 'limit', say: ['The {s} API allows {v} requests per minute.', 'The {s} API currently allows {v} requests per minute.'], value: (_p, n) => String(100 * (1 + (n() % 50))) },
  { attribute: 'alerts', say: ['Alerts for the {s} service go to {v}.', 'Alerts for the {s} service now go to {v}.'], value: (p) => p(CHANNELS) },
  { attribute: 'backups', say: ['Backups of the {s} service are written to {v}.'], value: (p) => p(BUCKETS) },
  { attribute: 'manager', say: ["The {s} team's manager is {v}.", "The {s} team's manager is {v} now."], value: (p) => p(PEOPLE) },
];

/** The world for `seed`: `valuePairs` and `edgePairs` planted conflicts, `setPairs` both-holding pairs. */
export function plantedWorld(seed = 40, opts: { valuePairs?: number; edgePairs?: number; setPairs?: number } = {}): PlantedWorld {
  const rand = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const n = () => Math.floor(rand() * 1_000_000);
  const memories: PlantedMemory[] = [];
  const conflicts: PlantedWorld['conflicts'] = [];
  const setValued: PlantedWorld['setValued'] = [];
  const owners = ['', 'planner@a1', 'coder@c3', 'reviewer@r1'];
  const say = (t: Template, i: number, s: string, v: string) => t.say[i % t.say.length]!.replace('{s}', s).replace('{v}', v);
  const facts = new Map<string, { key: string; value: string }>();
  /** Every statement of each fact, with its value. */
  const statements = new Map<string, { key: string; value: string }[]>();
  const state = (fact: string, key: string, value: string) => {
    const list = statements.get(fact);
    if (list) list.push({ key, value });
    else statements.set(fact, [{ key, value }]);
  };
  let k = 0;
  const add = (content: string, type: PlantedMemory['type'] = 'info'): string => {
    const key = `m${k++}`;
    memories.push({ key, content, type, owner: pick(owners) });
    return key;
  };
  // Background: one fact per service and attribute, some restated with the same value.
  for (const s of SERVICES) {
    for (const t of TEMPLATES) {
      const value = t.value(pick, n);
      const fact = `${s}|${t.attribute}`;
      facts.set(fact, { key: add(say(t, 0, s, value)), value });
      state(fact, facts.get(fact)!.key, value);
      if (rand() < 0.15) state(fact, add(say(t, 1 + Math.floor(rand() * 3), s, value)), value);
    }
    // Events: deploys on several dates (episodes).
    for (let d = 0; d < 3; d++) add(`Deployed the ${s} service to production on 2026-0${1 + d}-${String(3 + d * 7).padStart(2, '0')}.`, 'episode');
  }
  // Planted value conflicts: the same fact with another value, no edge.
  const keys = [...facts.keys()];
  const used = new Set<string>();
  for (let i = 0; i < (opts.valuePairs ?? 60); i++) {
    let f = pick(keys);
    while (used.has(f)) f = pick(keys);
    used.add(f);
    const [s, attribute] = f.split('|') as [string, string];
    const t = TEMPLATES.find((x) => x.attribute === attribute)!;
    let value = t.value(pick, n);
    while (value === facts.get(f)!.value) value = t.value(pick, n);
    state(f, add(say(t, Math.floor(rand() * 3), s, value)), value);
  }
  for (const list of statements.values()) {
    for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) if (list[i]!.value !== list[j]!.value) conflicts.push({ a: list[i]!.key, b: list[j]!.key, how: 'value' });
  }
  // Planted flagged contradictions: two statements of one service an agent joined with an edge.
  for (let i = 0; i < (opts.edgePairs ?? 30); i++) {
    const s = pick(SERVICES);
    const a = facts.get(`${s}|${pick(TEMPLATES).attribute}`)!.key;
    const b = add(
      `${pick(['Heads up:', 'Note:', 'Update:', 'FYI', 'Careful:'])} ${pick(['after the migration', 'since the reorg', 'following the incident', 'as of this sprint', 'per the platform team'])} the ${s} service ${pick(['was moved', 'changed hands', 'was reconfigured', 'got a new setup', 'is handled differently'])}, so ${pick(['the old runbook no longer applies', 'ignore the wiki page', 'the previous notes are stale', 'double-check before paging anyone'])}.`,
    );
    conflicts.push({ a: b, b: a, how: 'edge' });
  }
  // Both hold: a person speaks several languages.
  for (let i = 0; i < (opts.setPairs ?? 10); i++) {
    const who = PEOPLE[i % PEOPLE.length]!;
    const [l1, l2] = [LANGUAGES[i % LANGUAGES.length]!, LANGUAGES[(i + 3) % LANGUAGES.length]!];
    setValued.push({ a: add(`${who} speaks ${l1} with customers.`), b: add(`${who} speaks ${l2} with customers.`) });
  }
  return { memories, conflicts, setValued };
}

export interface QueueScore {
  planted: number;
  listed: number;
  /** Planted pairs the queue listed, anywhere. */
  found: number;
  recall: number;
  precision: number;
  /**
   * The queue's top items: the first ⌈planted / 0.8⌉, as many as can still be 80 % precise while
   * holding every planted pair. How many planted pairs they hold, and the share of them that are.
   */
  top: number;
  found_in_top: number;
  recall_in_top: number;
  precision_in_top: number;
  /** The same in the first `planted` items (as many as were planted). */
  found_in_first_planted: number;
  by_how: Record<'value' | 'edge', { planted: number; found: number }>;
  /** Listed pairs that are both-holding set-valued facts, and others that are not planted. */
  false_set_valued: number;
  false_other: number;
}

/** Scores a queue (its items in order, each the pair of memory keys) against the planted truth. */
export function scoreQueue(world: PlantedWorld, listed: readonly (readonly [string, string])[]): QueueScore {
  const key = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);
  const truth = new Map(world.conflicts.map((c) => [key(c.a, c.b), c.how]));
  const sets = new Set(world.setValued.map((p) => key(p.a, p.b)));
  const keys = listed.map(([a, b]) => key(a, b));
  const hits = keys.filter((k) => truth.has(k));
  const topN = Math.ceil(truth.size / 0.8);
  const topKeys = keys.slice(0, topN);
  const top = topKeys.filter((k) => truth.has(k));
  const by_how = { value: { planted: 0, found: 0 }, edge: { planted: 0, found: 0 } };
  for (const [k, how] of truth) {
    by_how[how].planted++;
    if (keys.includes(k)) by_how[how].found++;
  }
  const falseSet = keys.filter((k) => sets.has(k)).length;
  return {
    planted: truth.size,
    listed: keys.length,
    found: hits.length,
    recall: hits.length / truth.size,
    precision: keys.length ? hits.length / keys.length : 1,
    top: topN,
    found_in_top: top.length,
    recall_in_top: top.length / truth.size,
    precision_in_top: topKeys.length ? top.length / topKeys.length : 1,
    found_in_first_planted: keys.slice(0, truth.size).filter((k) => truth.has(k)).length,
    by_how,
    false_set_valued: falseSet,
    false_other: keys.length - hits.length - falseSet,
  };
}

/** Writes the world into the store an API session has open; returns each memory key's id. */
export async function plantStore(session: ApiSession, world: PlantedWorld): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const m of world.memories) {
    const added = await call(session, 'memory.add', { content: m.content, type: m.type, ...(m.owner ? { owner: m.owner } : {}) });
    ids.set(m.key, added.id);
  }
  for (const c of world.conflicts) if (c.how === 'edge') await call(session, 'edge.add', { src: ids.get(c.a)!, dst: ids.get(c.b)!, type: 'contradicts' });
  return ids;
}

/** Every item of the queue, in order, as pairs of memory keys. */
export async function queuedPairs(session: ApiSession, ids: Map<string, string>): Promise<[string, string][]> {
  const keyOf = new Map([...ids].map(([k, id]) => [id, k]));
  const out: [string, string][] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await call(session, 'review.conflicts', { kinds: ['contradicts', 'value'], offset, limit: 500 });
    for (const i of page.items) out.push([keyOf.get(i.ids![0])!, keyOf.get(i.ids![1])!]);
    if (offset + 500 >= page.total) return out;
  }
}
