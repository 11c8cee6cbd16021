/**
 * By match, the text wherever else it appears (erase-run.ts scrubs a place at a time): other
 * memories' access rings, access events' queries, journal images, labels and notes, feed images,
 * tombstone heads, belief evidence, observations and aliases naming it, maintenance reports and
 * store settings.
 */
import type { EraseNeedle } from '../../model/erase-text.js';
import type { ErasePlaceCounts } from '../port/erase.js';
import type { EraseDb } from './erase-db.js';
import { isErasedImageText } from './erase-markers.js';
import { deepParse, journalRowMemory, scrubImage, scrubJsonText, scrubMemoryData } from './erase-scrub-text.js';
import { anyHolds, nestedForms } from './erase-sql.js';

/**
 * One place a match scrubs: `find` lists the keys of the rows that hold the text (checked here,
 * not only in SQL), `apply` rewrites (or removes) the rows of some of those keys inside the
 * caller's transaction.
 */
export interface ScrubPlace {
  place: keyof ErasePlaceCounts;
  /** The tables it reads and writes (PostgreSQL rewrites them to make the bytes go). */
  tables: readonly string[];
  /** `skip`: memories being erased whole (a plan counts their rows there, not here; during the erase they are gone already). */
  find(db: EraseDb, needle: EraseNeedle, skip: ReadonlySet<string>): unknown[];
  apply(db: EraseDb, needle: EraseNeedle, keys: readonly unknown[], effects: ScrubEffects): void;
}

/** What a scrub tells the run: memories to tell listeners about, entities whose beliefs to derive again. */
export interface ScrubEffects {
  upserts: Set<string>;
  entities: Set<string>;
}

/** Rows of `table` whose columns hold the text (checked by `check`), as their keys. */
function findKeys<R extends Record<string, unknown>>(db: EraseDb, needle: EraseNeedle, table: string, key: string, cols: readonly string[], check: (r: R) => boolean, forms?: readonly string[], also: readonly string[] = []): unknown[] {
  if (!db.has(table)) return [];
  const h = anyHolds(db, needle, cols, forms);
  return db
    .all<R>(`SELECT ${[...new Set([...key.split(',').map((k) => k.trim()), ...cols, ...also])].join(', ')} FROM ${db.t(table)} WHERE ${h.sql}`, h.params)
    .filter(check)
    .map((r) => (key.includes(',') ? key.split(',').map((k) => r[k.trim()]) : r[key]));
}

/** Reads one text column of the row whose `keyColumn` is `key` and writes it back rewritten; a row gone meanwhile is left alone. */
function rewriteColumn(db: EraseDb, table: string, column: string, keyColumn: string, key: unknown, rewrite: (value: string) => string | null): void {
  const [r] = db.all<Record<string, string>>(`SELECT ${column} FROM ${db.t(table)} WHERE ${keyColumn} = ?`, [key]);
  if (r) db.run(`UPDATE ${db.t(table)} SET ${column} = ? WHERE ${keyColumn} = ?`, [rewrite(r[column]!), key]);
}

export const SCRUBS: readonly ScrubPlace[] = [
  {
    // Other memories' access rings: the queries they were recalled with (nooa's `access_log`).
    place: 'access_rings',
    tables: ['memories'],
    find: (db, needle, skip) => findKeys<{ id: string; data: string }>(db, needle, 'memories', 'id', ['data'], (r) => !skip.has(r.id) && needle.inValue(deepParse(r.data))),
    apply(db, needle, keys, fx) {
      for (const id of keys as string[]) {
        const [r] = db.all<{ data: string }>(`SELECT data FROM ${db.t('memories')} WHERE id = ?`, [id]);
        if (!r) continue;
        db.run(`UPDATE ${db.t('memories')} SET data = ? WHERE id = ?`, [scrubMemoryData(needle, r.data), id]);
        fx.upserts.add(id);
      }
    },
  },
  {
    place: 'access_queries',
    tables: ['mnemo_access_events'],
    find: (db, needle, skip) =>
      findKeys<{ id: unknown; memory_id: string; query: string | null; context: string | null; session_ref: string | null; trace_ref: string | null }>(
        db,
        needle,
        'mnemo_access_events',
        'id',
        ['query', 'context', 'session_ref', 'trace_ref'],
        (r) => !skip.has(r.memory_id) && (needle.in(r.query) || needle.in(r.session_ref) || needle.in(r.trace_ref) || (r.context !== null && needle.inValue(deepParse(r.context)))),
        undefined,
        ['memory_id'],
      ),
    apply(db, needle, keys) {
      for (const id of keys) {
        const [r] = db.all<{ query: string | null; context: string | null; session_ref: string | null; trace_ref: string | null }>(`SELECT query, context, session_ref, trace_ref FROM ${db.t('mnemo_access_events')} WHERE id = ?`, [id]);
        if (!r) continue;
        const s = (v: string | null) => (v === null ? null : needle.scrub(v).text);
        db.run(`UPDATE ${db.t('mnemo_access_events')} SET query = ?, context = ?, session_ref = ?, trace_ref = ? WHERE id = ?`, [s(r.query), scrubJsonText(needle, r.context), s(r.session_ref), s(r.trace_ref), id]);
      }
    },
  },
  {
    place: 'journal_scrubbed',
    tables: ['mnemo_journal_rows', 'mnemo_journal'],
    find(db, needle, skip) {
      const rows = findKeys<{ change_id: unknown; key: string; before: string | null; after: string | null }>(
        db,
        needle,
        'mnemo_journal_rows',
        'change_id, key',
        ['before', 'after'],
        (r) => !skip.has(journalRowMemory(r)) && [r.before, r.after].some((t) => t !== null && !isErasedImageText(t) && needle.inValue(deepParse(t))),
        nestedForms(needle),
      ).map((k) => ({ row: k as [unknown, string] }));
      const changes = findKeys<{ id: unknown; label: string; meta: string | null }>(db, needle, 'mnemo_journal', 'id', ['label', 'meta'], (r) => needle.in(r.label) || (r.meta !== null && needle.inValue(JSON.parse(r.meta)))).map((id) => ({ change: id }));
      return [...rows, ...changes];
    },
    apply(db, needle, keys) {
      for (const k of keys as ({ row: [unknown, string] } | { change: unknown })[]) {
        if ('row' in k) {
          const [changeId, key] = k.row;
          const [r] = db.all<{ before: string | null; after: string | null }>(`SELECT before, after FROM ${db.t('mnemo_journal_rows')} WHERE change_id = ? AND key = ?`, [changeId, key]);
          if (r) db.run(`UPDATE ${db.t('mnemo_journal_rows')} SET before = ?, after = ? WHERE change_id = ? AND key = ?`, [scrubImage(needle, key, r.before), scrubImage(needle, key, r.after), changeId, key]);
          continue;
        }
        const [r] = db.all<{ label: string; meta: string | null }>(`SELECT label, meta FROM ${db.t('mnemo_journal')} WHERE id = ?`, [k.change]);
        if (r) db.run(`UPDATE ${db.t('mnemo_journal')} SET label = ?, meta = ? WHERE id = ?`, [needle.scrub(r.label).text, scrubJsonText(needle, r.meta), k.change]);
      }
    },
  },
  {
    // The change feeds' before-images (SQLite's, and on PostgreSQL both its own and the copied one).
    place: 'feed_scrubbed',
    tables: ['mnemo_feed', 'mnemo_pg_feed'],
    find(db, needle, skip) {
      const sqliteFeed = findKeys<{ seq: unknown; memory_id: string; content: string | null; data: string | null }>(db, needle, 'mnemo_feed', 'seq', ['content', 'data'], (r) => !skip.has(r.memory_id) && (needle.in(r.content) || (r.data !== null && needle.inValue(deepParse(r.data)))), undefined, ['memory_id']).map((seq) => ({ feed: 'mnemo_feed', seq }));
      const pgFeed = findKeys<{ seq: unknown; memory_id: string; old_content: string | null; old_data: string | null }>(db, needle, 'mnemo_pg_feed', 'seq', ['old_content', 'old_data'], (r) => !skip.has(r.memory_id) && (needle.in(r.old_content) || (r.old_data !== null && needle.inValue(deepParse(r.old_data)))), undefined, ['memory_id']).map((seq) => ({ feed: 'mnemo_pg_feed', seq }));
      return [...sqliteFeed, ...pgFeed];
    },
    apply(db, needle, keys) {
      for (const k of keys as { feed: string; seq: unknown }[]) {
        const [content, data] = k.feed === 'mnemo_feed' ? ['content', 'data'] : ['old_content', 'old_data'];
        const [r] = db.all<Record<string, string | null>>(`SELECT op, ${content}, ${data} FROM ${db.t(k.feed)} WHERE seq = ?`, [k.seq]);
        if (!r) continue;
        const d = r[data!] ?? null;
        // A compact access image (SQLite's) is read back as JSON, not as nooa's data.
        const scrubbed = d === null ? null : k.feed === 'mnemo_feed' && r['op'] === 'access' ? scrubJsonText(needle, d) : scrubMemoryData(needle, d);
        const c = r[content!] ?? null;
        db.run(`UPDATE ${db.t(k.feed)} SET ${content} = ?, ${data} = ? WHERE seq = ?`, [c === null ? null : needle.scrub(c).text, scrubbed, k.seq]);
      }
    },
  },
  {
    place: 'tombstones',
    tables: ['mnemo_tombstones'],
    find: (db, needle, skip) => findKeys<{ hash: string; memory_id: string; head: string }>(db, needle, 'mnemo_tombstones', 'hash', ['head'], (r) => !skip.has(r.memory_id) && needle.in(r.head), undefined, ['memory_id']),
    apply(db, needle, keys) {
      for (const hash of keys) rewriteColumn(db, 'mnemo_tombstones', 'head', 'hash', hash, (v) => needle.scrub(v).text);
    },
  },
  {
    // An observation whose value or names hold the text is the text: it goes, and its dimension is derived again.
    place: 'belief_deltas',
    tables: ['mnemo_deltas', 'mnemo_dimensions'],
    find: (db, needle, skip) =>
      findKeys<Record<string, string>>(db, needle, 'mnemo_deltas', 'id', ['value', 'entity', 'attribute', 'observed_entity', 'source'], (r) => !skip.has(r['memory_id']!) && ['value', 'entity', 'attribute', 'observed_entity', 'source'].some((c) => needle.in(r[c])), undefined, ['memory_id']),
    apply(db, _needle, keys, fx) {
      for (const id of keys) {
        const [r] = db.all<{ entity: string; observed_entity: string }>(`SELECT entity, observed_entity FROM ${db.t('mnemo_deltas')} WHERE id = ?`, [id]);
        if (!r) continue;
        fx.entities.add(r.entity);
        fx.entities.add(r.observed_entity);
        db.run(`DELETE FROM ${db.t('mnemo_deltas')} WHERE id = ?`, [id]);
      }
    },
  },
  {
    place: 'belief_evidence',
    tables: ['mnemo_deltas'],
    find: (db, needle, skip) =>
      findKeys<{ id: unknown; memory_id: string | null; evidence: string; value: string; entity: string; attribute: string; observed_entity: string; source: string }>(
        db,
        needle,
        'mnemo_deltas',
        'id',
        ['evidence'],
        // An observation removed whole (its value or names hold the text, belief_deltas) is not also scrubbed.
        (r) => !skip.has(r.memory_id ?? '') && needle.in(r.evidence) && ![r.value, r.entity, r.attribute, r.observed_entity, r.source].some((v) => needle.in(v)),
        undefined,
        ['memory_id', 'value', 'entity', 'attribute', 'observed_entity', 'source'],
      ),
    apply(db, needle, keys) {
      for (const id of keys) rewriteColumn(db, 'mnemo_deltas', 'evidence', 'id', id, (v) => needle.scrub(v).text);
    },
  },
  {
    place: 'belief_aliases',
    tables: ['mnemo_entity_aliases', 'mnemo_alias_rejections'],
    find(db, needle) {
      const aliases = findKeys<{ alias: string; canonical: string }>(db, needle, 'mnemo_entity_aliases', 'alias', ['alias', 'canonical'], (r) => needle.in(r.alias) || needle.in(r.canonical));
      const rejections = findKeys<{ a: string; b: string }>(db, needle, 'mnemo_alias_rejections', 'a, b', ['a', 'b'], (r) => needle.in(r.a) || needle.in(r.b));
      return [...aliases.map((alias) => ({ alias })), ...rejections.map((pair) => ({ pair }))];
    },
    apply(db, _needle, keys, fx) {
      for (const k of keys as ({ alias: string } | { pair: [string, string] })[]) {
        if ('alias' in k) {
          const [r] = db.all<{ canonical: string }>(`SELECT canonical FROM ${db.t('mnemo_entity_aliases')} WHERE alias = ?`, [k.alias]);
          if (!r) continue;
          fx.entities.add(k.alias);
          fx.entities.add(r.canonical);
          db.run(`DELETE FROM ${db.t('mnemo_entity_aliases')} WHERE alias = ?`, [k.alias]);
        } else {
          db.run(`DELETE FROM ${db.t('mnemo_alias_rejections')} WHERE a = ? AND b = ?`, k.pair);
        }
      }
    },
  },
  {
    // Reflection reports, store settings and credential labels: anything else that holds text.
    place: 'maintenance',
    tables: ['maintenance_log', 'mnemo_meta', 'mnemo_agent_credentials'],
    find(db, needle) {
      const reports = findKeys<{ rowid: unknown; report: string }>(db, needle, 'maintenance_log', 'rowid', ['report'], (r) => needle.inValue(deepParse(r.report))).map((rowid) => ({ report: rowid }));
      const meta = findKeys<{ key: string; value: string }>(db, needle, 'mnemo_meta', 'key', ['value'], (r) => needle.inValue(deepParse(r.value))).map((key) => ({ meta: key }));
      const labels = findKeys<{ id: string; label: string | null }>(db, needle, 'mnemo_agent_credentials', 'id', ['label'], (r) => needle.in(r.label)).map((id) => ({ credential: id }));
      return [...reports, ...meta, ...labels];
    },
    apply(db, needle, keys) {
      for (const k of keys as ({ report: unknown } | { meta: string } | { credential: string })[]) {
        if ('report' in k) {
          rewriteColumn(db, 'maintenance_log', 'report', 'rowid', k.report, (v) => scrubJsonText(needle, v));
        } else if ('meta' in k) {
          rewriteColumn(db, 'mnemo_meta', 'value', 'key', k.meta, (v) => scrubJsonText(needle, v));
        } else {
          rewriteColumn(db, 'mnemo_agent_credentials', 'label', 'id', k.credential, (v) => needle.scrub(v).text);
        }
      }
    },
  },
];

/** Dimensions still naming the text once their entities were derived again: removed. */
export function leftoverDimensions(db: EraseDb, needle: EraseNeedle, act: boolean): number {
  if (!db.has('mnemo_dimensions')) return 0;
  const h = anyHolds(db, needle, ['entity', 'attribute', 'distribution']);
  const rows = db.all<{ entity: string; attribute: string; distribution: string }>(`SELECT entity, attribute, distribution FROM ${db.t('mnemo_dimensions')} WHERE ${h.sql}`, h.params);
  const hit = rows.filter((r) => needle.in(r.entity) || needle.in(r.attribute) || needle.inValue(deepParse(r.distribution)));
  if (act) for (const r of hit) db.run(`DELETE FROM ${db.t('mnemo_dimensions')} WHERE entity = ? AND attribute = ?`, [r.entity, r.attribute]);
  return hit.length;
}
