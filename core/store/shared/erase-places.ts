/**
 * Every place a memory's content lives, and what an erase does there, written once for both
 * adapters over their row primitives (erase-db.ts). Each function counts (`act` false: the plan, a
 * dry run) or acts (`act` true, inside the caller's transaction) and returns how many rows it
 * counted or changed, so a dry run and the erase it announces count alike.
 *
 * Two kinds of work:
 * - the erased memories themselves (`eraseMemories`): their rows and edges, their access events,
 *   their tombstones and the belief observations derived from them go; their journal images and
 *   their change-feed images are replaced by markers (erase-markers.ts), so the rows around them
 *   keep their shape;
 * - by match, the text wherever else it appears (`SCRUBS`): other memories' access rings, access
 *   events' queries, journal images, labels and notes, feed images, tombstone heads, belief
 *   evidence, observations and aliases naming it, maintenance reports and store settings.
 */
import { asciiLower, type EraseNeedle } from '../../model/erase-text.js';
import { pyDumps } from '../../model/pyjson.js';
import type { ErasedMark, ErasePlaceCounts, EraseTarget } from '../port/erase.js';
import { chunked, num, type EraseDb } from './erase-db.js';
import { erasedFeedImage, erasedMemoryImage, erasedTombstoneImage, isErasedImageText, type ErasedShape } from './erase-markers.js';

/** Ids per statement: a JSON array parameter, well under any statement limit. */
const IDS_PER_STATEMENT = 500;

const json = (xs: readonly unknown[]) => JSON.stringify(xs);

// ---------------------------------------------------------------- which memories

/** A memory's own text (content, title, tags, data), its access ring left out: a query someone recalled it with is not its content. */
export function memoryTextHolds(needle: EraseNeedle, content: string | null, data: string | null): boolean {
  if (needle.in(content)) return true;
  if (data === null || !needle.forms.some((f) => asciiLower(data).includes(f))) return false;
  try {
    const parsed = JSON.parse(data) as Record<string, unknown>;
    if (parsed === null || typeof parsed !== 'object') return needle.in(data);
    delete parsed['access_log'];
    return needle.inValue(parsed);
  } catch {
    return needle.in(data);
  }
}

/** `(holds(a) OR holds(b) …)` over every form of the text, and its parameters. */
function anyHolds(db: EraseDb, needle: EraseNeedle, cols: readonly string[], forms: readonly string[] = needle.forms): { sql: string; params: string[] } {
  const parts: string[] = [];
  const params: string[] = [];
  for (const c of cols) {
    for (const f of forms) {
      parts.push(db.holds(c));
      params.push(f);
    }
  }
  return { sql: `(${parts.join(' OR ')})`, params };
}

/**
 * The forms a text takes one JSON level deeper (a memory's `data` inside a journal image is a JSON
 * string inside JSON): each form escaped once more.
 */
function nestedForms(needle: EraseNeedle): string[] {
  return [...new Set([...needle.forms, ...needle.forms.map((f) => JSON.stringify(f).slice(1, -1))])];
}

/** Owners of a role (`role` alone: every instance of it) or one owner, as SQL over `owner`. */
function ownerIs(owner: string): { sql: string; params: string[] } {
  if (owner.includes('@')) return { sql: 'owner = ?', params: [owner] };
  return { sql: '(owner = ? OR (owner >= ? AND owner < ?))', params: [owner, `${owner}@`, `${owner}A`] };
}

/** The memories a match names: live ones whose own text holds it, and gone ones whose traces do. */
export function targetsByMatch(db: EraseDb, needle: EraseNeedle): EraseTarget[] {
  const out = new Map<string, EraseTarget>();
  const live = anyHolds(db, needle, ['content', 'data']);
  for (const r of db.all<{ id: string; owner: string; content: string; data: string }>(`SELECT id, owner, content, data FROM ${db.t('memories')} WHERE ${live.sql}`, live.params)) {
    if (memoryTextHolds(needle, r.content, r.data)) out.set(r.id, { id: r.id, owner: r.owner, live: true });
  }
  const gone = (id: string, owner: string | null) => {
    if (!out.has(id)) out.set(id, { id, owner: owner ?? '', live: false });
  };
  const feed = anyHolds(db, needle, ['content', 'data']);
  if (db.has('mnemo_feed')) {
    for (const r of db.all<{ memory_id: string; owner: string | null; content: string | null; data: string | null }>(
      `SELECT memory_id, owner, content, data FROM ${db.t('mnemo_feed')} WHERE tbl = 'memory' AND op <> 'access' AND ${feed.sql}`,
      feed.params,
    )) {
      if (memoryTextHolds(needle, r.content, r.data)) gone(r.memory_id, r.owner);
    }
  }
  if (db.has('mnemo_pg_feed')) {
    const pg = anyHolds(db, needle, ['old_content', 'old_data']);
    for (const r of db.all<{ memory_id: string; owner: string | null; old_content: string | null; old_data: string | null }>(
      `SELECT memory_id, owner, old_content, old_data FROM ${db.t('mnemo_pg_feed')} WHERE tbl = 'memory' AND ${pg.sql}`,
      pg.params,
    )) {
      if (memoryTextHolds(needle, r.old_content, r.old_data)) gone(r.memory_id, r.owner);
    }
  }
  if (db.has('mnemo_journal_rows')) {
    const j = anyHolds(db, needle, ['before', 'after'], nestedForms(needle));
    for (const r of db.all<{ key: string; before: string | null; after: string | null }>(`SELECT key, before, after FROM ${db.t('mnemo_journal_rows')} WHERE key LIKE 'm:%' AND ${j.sql}`, j.params)) {
      for (const image of [r.before, r.after]) {
        if (image === null || isErasedImageText(image)) continue;
        const parsed = JSON.parse(image) as { row?: { content?: string; data?: string; owner?: string } };
        if (memoryTextHolds(needle, parsed.row?.content ?? null, parsed.row?.data ?? null)) gone(r.key.slice(2), parsed.row?.owner ?? null);
      }
    }
  }
  if (db.has('mnemo_tombstones')) {
    const t = anyHolds(db, needle, ['head']);
    for (const r of db.all<{ memory_id: string; owner: string; head: string }>(`SELECT memory_id, owner, head FROM ${db.t('mnemo_tombstones')} WHERE ${t.sql}`, t.params)) {
      if (needle.in(r.head)) gone(r.memory_id, r.owner);
    }
  }
  return liveOnlyWhereLive(db, out);
}

/** The memories of an owner (or every instance of a role): live ones, and gone ones the feed, the journal or a tombstone remember. */
export function targetsByOwner(db: EraseDb, owner: string): EraseTarget[] {
  const out = new Map<string, EraseTarget>();
  const o = ownerIs(owner);
  for (const r of db.all<{ id: string; owner: string }>(`SELECT id, owner FROM ${db.t('memories')} WHERE ${o.sql}`, o.params)) out.set(r.id, { id: r.id, owner: r.owner, live: true });
  const gone = (id: string, who: string) => {
    if (!out.has(id)) out.set(id, { id, owner: who, live: false });
  };
  for (const feed of ['mnemo_feed', 'mnemo_pg_feed']) {
    if (!db.has(feed)) continue;
    for (const r of db.all<{ memory_id: string; owner: string }>(`SELECT DISTINCT memory_id, owner FROM ${db.t(feed)} WHERE tbl = 'memory' AND ${o.sql}`, o.params)) gone(r.memory_id, r.owner);
  }
  if (db.has('mnemo_tombstones')) {
    for (const r of db.all<{ memory_id: string; owner: string }>(`SELECT memory_id, owner FROM ${db.t('mnemo_tombstones')} WHERE ${o.sql}`, o.params)) gone(r.memory_id, r.owner);
  }
  if (db.has('mnemo_journal_rows')) {
    const jo = `coalesce(${db.jsonText('before', ['row', 'owner'])}, ${db.jsonText('after', ['row', 'owner'])})`;
    const cond = owner.includes('@') ? `${jo} = ?` : `(${jo} = ? OR (${jo} >= ? AND ${jo} < ?))`;
    for (const r of db.all<{ key: string; owner: string }>(`SELECT DISTINCT key, ${jo} AS owner FROM ${db.t('mnemo_journal_rows')} WHERE key LIKE 'm:%' AND ${cond}`, o.params)) gone(r.key.slice(2), r.owner);
  }
  return liveOnlyWhereLive(db, out);
}

/** Whether each of these ids left a trace anywhere (a gone memory's id an erase may name), with the owner the trace names. */
export function tracesOf(db: EraseDb, ids: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  const look = (sql: string, params: unknown[]) => {
    for (const r of db.all<{ id: string; owner: string | null }>(sql, params)) if (!found.has(r.id)) found.set(r.id, r.owner ?? '');
  };
  for (const part of chunked(ids, IDS_PER_STATEMENT)) {
    const p = [json(part)];
    for (const feed of ['mnemo_feed', 'mnemo_pg_feed']) {
      if (db.has(feed)) look(`SELECT memory_id AS id, owner FROM ${db.t(feed)} WHERE tbl = 'memory' AND ${db.inJson('memory_id')}`, p);
    }
    if (db.has('mnemo_tombstones')) look(`SELECT memory_id AS id, owner FROM ${db.t('mnemo_tombstones')} WHERE ${db.inJson('memory_id')}`, p);
    if (db.has('mnemo_journal_rows')) {
      look(
        `SELECT substr(key, 3) AS id, coalesce(${db.jsonText('before', ['row', 'owner'])}, ${db.jsonText('after', ['row', 'owner'])}) AS owner FROM ${db.t('mnemo_journal_rows')} WHERE ${db.inJson('key')}`,
        [json(part.map((id) => `m:${id}`))],
      );
    }
    if (db.has('mnemo_access_events')) look(`SELECT memory_id AS id, NULL AS owner FROM ${db.t('mnemo_access_events')} WHERE ${db.inJson('memory_id')}`, p);
    if (db.has('mnemo_deltas')) look(`SELECT memory_id AS id, NULL AS owner FROM ${db.t('mnemo_deltas')} WHERE ${db.inJson('memory_id')}`, p);
  }
  return found;
}

/** Marks each target live or gone by the memories table as it is now. */
function liveOnlyWhereLive(db: EraseDb, targets: Map<string, EraseTarget>): EraseTarget[] {
  const gone = [...targets.values()].filter((t) => !t.live).map((t) => t.id);
  for (const part of chunked(gone, IDS_PER_STATEMENT)) {
    for (const r of db.all<{ id: string; owner: string }>(`SELECT id, owner FROM ${db.t('memories')} WHERE ${db.inJson('id')}`, [json(part)])) {
      // Live after all (its text only in the past): it is scrubbed, not erased.
      targets.delete(r.id);
    }
  }
  return [...targets.values()];
}

// ---------------------------------------------------------------- the erased memories

/** What the erase of one batch of memories needs besides their ids. */
export interface EraseContext {
  mark: ErasedMark;
  /** Every memory of the erase (an edge between two of them is counted once). */
  all: ReadonlySet<string>;
  owners: ReadonlyMap<string, string>;
  /** The tombstones' journal rows (`t:` keys) of erased memories, found once per run. */
  tombstoneRows: readonly TombstoneJournalRow[];
}

export interface TombstoneJournalRow {
  change_id: number;
  key: string;
  memory_id: string;
  owner: string;
  hasBefore: boolean;
  hasAfter: boolean;
}

/** The journal rows of tombstones (`t:<hash>`) of these memories: a tombstone's key is its content's digest, so it is found by the memory its image names. */
export function tombstoneJournalRows(db: EraseDb, ids: ReadonlySet<string>): TombstoneJournalRow[] {
  if (!db.has('mnemo_journal_rows') || ids.size === 0) return [];
  const out: TombstoneJournalRow[] = [];
  const sql = `SELECT change_id, key, before, after FROM ${db.t('mnemo_journal_rows')} WHERE key LIKE 't:%' AND key NOT LIKE 't:erased:%'`;
  for (const r of db.all<{ change_id: unknown; key: string; before: string | null; after: string | null }>(sql)) {
    const image = JSON.parse(r.before ?? r.after ?? 'null') as { memory_id?: string; owner?: string } | null;
    if (!image?.memory_id || !ids.has(image.memory_id)) continue;
    out.push({ change_id: num(r.change_id), key: r.key, memory_id: image.memory_id, owner: image.owner ?? '', hasBefore: r.before !== null, hasAfter: r.after !== null });
  }
  return out;
}

/** The shape each memory keeps in time travel (erase-markers.ts): from its row now, or its newest full feed image. */
function shapesOf(db: EraseDb, ids: readonly string[], owners: ReadonlyMap<string, string>): Map<string, ErasedShape> {
  const shapes = new Map<string, ErasedShape>(ids.map((id) => [id, { id, type: null, owner: owners.get(id) ?? '', created_at: null, importance: null, salience: null, archived: null, status: null }]));
  const p = [json(ids)];
  const cols = 'type, owner, created_at, importance, salience, archived, status';
  const take = (rows: (Omit<ErasedShape, 'id'> & { id: string })[]) => {
    for (const r of rows) {
      shapes.set(r.id, { id: r.id, type: r.type, owner: r.owner, created_at: r.created_at === null ? null : num(r.created_at), importance: r.importance, salience: r.salience, archived: r.archived === null ? null : num(r.archived), status: r.status });
    }
  };
  if (db.has('mnemo_feed')) take(db.all(`SELECT memory_id AS id, ${cols} FROM ${db.t('mnemo_feed')} WHERE tbl = 'memory' AND type IS NOT NULL AND ${db.inJson('memory_id')} ORDER BY seq`, p));
  if (db.has('mnemo_pg_feed')) {
    take(db.all(`SELECT memory_id AS id, ${cols.split(', ').map((c) => `old_${c} AS ${c}`).join(', ')} FROM ${db.t('mnemo_pg_feed')} WHERE tbl = 'memory' AND old_type IS NOT NULL AND ${db.inJson('memory_id')} ORDER BY seq`, p));
  }
  take(db.all(`SELECT id, ${cols} FROM ${db.t('memories')} WHERE ${db.inJson('id')}`, p));
  return shapes;
}

/**
 * Erases (or, `act` false, counts) one batch of memories in every place; the entities whose belief
 * dimensions must be derived again are added to `entities`, and the changes whose images were
 * replaced to `changes`.
 */
export function eraseMemories(db: EraseDb, ids: readonly string[], ctx: EraseContext, act: boolean, entities: Set<string>, changes: Set<number>): Partial<ErasePlaceCounts> {
  const c: Partial<ErasePlaceCounts> = {};
  const add = (k: keyof ErasePlaceCounts, n: number) => {
    c[k] = (c[k] ?? 0) + n;
  };
  const batch = new Set(ids);
  for (const part of chunked(ids, IDS_PER_STATEMENT)) {
    const p = [json(part)];
    // Journal images of the memories' rows: replaced by a marker, each side that had one.
    if (db.has('mnemo_journal_rows')) {
      const keys = json(part.map((id) => `m:${id}`));
      for (const r of db.all<{ change_id: unknown; n: unknown }>(`SELECT change_id, count(*) AS n FROM ${db.t('mnemo_journal_rows')} WHERE ${db.inJson('key')} GROUP BY change_id`, [keys])) {
        changes.add(num(r.change_id));
        add('journal_images', num(r.n));
      }
      if (act) {
        for (const id of part) {
          const image = erasedMemoryImage(ctx.mark, id, ctx.owners.get(id) ?? '');
          db.run(`UPDATE ${db.t('mnemo_journal_rows')} SET before = CASE WHEN before IS NULL THEN NULL ELSE ? END, after = CASE WHEN after IS NULL THEN NULL ELSE ? END WHERE key = ?`, [image, image, `m:${id}`]);
        }
      }
    }
    // Change-feed images (time travel): the memory as "[erased at T by X]"; an access's ring entries go.
    if (db.has('mnemo_feed')) {
      const [r] = db.all<{ n: unknown }>(`SELECT count(*) AS n FROM ${db.t('mnemo_feed')} WHERE tbl = 'memory' AND op <> 'insert' AND ${db.inJson('memory_id')}`, p);
      add('feed_rows', num(r?.n));
    }
    if (db.has('mnemo_pg_feed')) {
      const [r] = db.all<{ n: unknown }>(`SELECT count(*) AS n FROM ${db.t('mnemo_pg_feed')} WHERE tbl = 'memory' AND (old_content IS NOT NULL OR old_data IS NOT NULL OR old_embedding IS NOT NULL) AND ${db.inJson('memory_id')}`, p);
      add('feed_rows', num(r?.n));
    }
    for (const [table, n] of [
      ['mnemo_access_events', 'access_events'],
      ['mnemo_tombstones', 'tombstones'],
      ['mnemo_deltas', 'belief_deltas'],
    ] as const) {
      if (!db.has(table)) continue;
      const [r] = db.all<{ n: unknown }>(`SELECT count(*) AS n FROM ${db.t(table)} WHERE ${db.inJson('memory_id')}`, p);
      add(n, num(r?.n));
    }
    if (db.has('mnemo_deltas')) {
      for (const r of db.all<{ entity: string; observed_entity: string }>(`SELECT DISTINCT entity, observed_entity FROM ${db.t('mnemo_deltas')} WHERE ${db.inJson('memory_id')}`, p)) {
        entities.add(r.entity);
        entities.add(r.observed_entity);
      }
    }
    // An edge between two erased memories counts once: by its source.
    const [out] = db.all<{ n: unknown }>(`SELECT count(*) AS n FROM ${db.t('memory_edges')} WHERE ${db.inJson('src')}`, p);
    const [inn] = db.all<{ n: unknown }>(`SELECT count(*) AS n FROM ${db.t('memory_edges')} WHERE ${db.inJson('dst')} AND NOT ${db.inJson('src')}`, [json(part), json([...ctx.all])]);
    add('edges', num(out?.n) + num(inn?.n));
    const [m] = db.all<{ n: unknown }>(`SELECT count(*) AS n FROM ${db.t('memories')} WHERE ${db.inJson('id')}`, p);
    add('memories', num(m?.n));
    if (!act) continue;
    for (const table of ['mnemo_access_events', 'mnemo_tombstones', 'mnemo_deltas'] as const) {
      if (db.has(table)) db.run(`DELETE FROM ${db.t(table)} WHERE ${db.inJson('memory_id')}`, p);
    }
    db.run(`DELETE FROM ${db.t('memory_edges')} WHERE ${db.inJson('src')} OR ${db.inJson('dst')}`, [json(part), json(part)]);
    // Deleting the rows adds their before-images to the feed; the markers below replace those too.
    db.run(`DELETE FROM ${db.t('memories')} WHERE ${db.inJson('id')}`, p);
    markFeed(db, part, ctx);
  }
  // The tombstones' journal rows: their images and their keys (a digest of the content) go.
  const tombRows = ctx.tombstoneRows.filter((r) => batch.has(r.memory_id));
  for (const r of tombRows) {
    changes.add(r.change_id);
    add('journal_images', (r.hasBefore ? 1 : 0) + (r.hasAfter ? 1 : 0));
    if (!act) continue;
    const image = erasedTombstoneImage(ctx.mark, r.memory_id, r.owner);
    db.run(`UPDATE ${db.t('mnemo_journal_rows')} SET key = ?, before = CASE WHEN before IS NULL THEN NULL ELSE ? END, after = CASE WHEN after IS NULL THEN NULL ELSE ? END WHERE change_id = ? AND key = ?`, [
      `t:erased:${r.memory_id}:${r.key.slice(2, 10)}`,
      image,
      image,
      r.change_id,
      r.key,
    ]);
  }
  return c;
}

/** Replaces the feed images of erased memories with their markers (both feeds on PostgreSQL). */
function markFeed(db: EraseDb, ids: readonly string[], ctx: EraseContext): void {
  const shapes = shapesOf(db, ids, ctx.owners);
  for (const id of ids) {
    const image = erasedFeedImage(ctx.mark, shapes.get(id)!);
    if (db.has('mnemo_feed')) {
      db.run(`UPDATE ${db.t('mnemo_feed')} SET content = ?, data = ?, embedding = NULL WHERE tbl = 'memory' AND memory_id = ? AND op IN ('update', 'replace', 'delete')`, [image.content, image.data, id]);
      db.run(`UPDATE ${db.t('mnemo_feed')} SET data = ${db.accessMarker('data')} WHERE tbl = 'memory' AND memory_id = ? AND op = 'access'`, [id]);
    }
    if (db.has('mnemo_pg_feed')) {
      db.run(
        `UPDATE ${db.t('mnemo_pg_feed')} SET old_content = CASE WHEN old_content IS NULL THEN NULL ELSE ? END, old_data = CASE WHEN old_data IS NULL THEN NULL ELSE ? END, old_embedding = NULL WHERE tbl = 'memory' AND memory_id = ?`,
        [image.content, image.data, id],
      );
    }
  }
}

/** Notes on each change whose images were replaced how many there are on each side: journal.ts refuses to undo or redo it. */
export function noteErasedChanges(db: EraseDb, changeIds: Iterable<number>, mark: ErasedMark): void {
  for (const id of changeIds) {
    const [row] = db.all<{ meta: string | null }>(`SELECT meta FROM ${db.t('mnemo_journal')} WHERE id = ?`, [id]);
    if (!row) continue;
    const [n] = db.all<{ b: unknown; a: unknown }>(
      `SELECT sum(CASE WHEN before LIKE '{"erased":%' THEN 1 ELSE 0 END) AS b, sum(CASE WHEN after LIKE '{"erased":%' THEN 1 ELSE 0 END) AS a FROM ${db.t('mnemo_journal_rows')} WHERE change_id = ?`,
      [id],
    );
    const meta = row.meta ? (JSON.parse(row.meta) as Record<string, unknown>) : {};
    meta['erased'] = { ...mark, before: num(n?.b), after: num(n?.a) };
    db.run(`UPDATE ${db.t('mnemo_journal')} SET meta = ? WHERE id = ?`, [JSON.stringify(meta), id]);
  }
}

// ---------------------------------------------------------------- the text, wherever else it is

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

/** A memory's nooa `data` with the text scrubbed from every string (written back as nooa writes it). */
export function scrubMemoryData(needle: EraseNeedle, data: string): string {
  try {
    return pyDumps(needle.scrubValue(JSON.parse(data)).value);
  } catch {
    return needle.scrub(data).text;
  }
}

/** Any JSON text with the text scrubbed from every string; text that is not JSON is scrubbed as text. */
function scrubJsonText(needle: EraseNeedle, text: string | null): string | null {
  if (text === null) return null;
  try {
    return JSON.stringify(needle.scrubValue(JSON.parse(text)).value);
  } catch {
    return needle.scrub(text).text;
  }
}

/** A journal image with the text scrubbed: a memory image's `data` is nooa's JSON inside it, rewritten as nooa writes it. */
function scrubImage(needle: EraseNeedle, key: string, text: string | null): string | null {
  if (text === null || isErasedImageText(text)) return text;
  const image = JSON.parse(text) as Record<string, unknown>;
  const row = image['row'];
  if (key.startsWith('m:') && row !== null && typeof row === 'object') {
    const data = (row as Record<string, unknown>)['data'];
    // The row's keys keep their order: data is scrubbed as nooa's JSON, in its own place.
    const scrubbed = needle.scrubValue({ ...image, row: { ...row, data: null } }).value as { row: Record<string, unknown> };
    scrubbed.row['data'] = typeof data === 'string' ? scrubMemoryData(needle, data) : data;
    return JSON.stringify(scrubbed);
  }
  return JSON.stringify(needle.scrubValue(image).value);
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
      for (const hash of keys) {
        const [r] = db.all<{ head: string }>(`SELECT head FROM ${db.t('mnemo_tombstones')} WHERE hash = ?`, [hash]);
        if (r) db.run(`UPDATE ${db.t('mnemo_tombstones')} SET head = ? WHERE hash = ?`, [needle.scrub(r.head).text, hash]);
      }
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
      for (const id of keys) {
        const [r] = db.all<{ evidence: string }>(`SELECT evidence FROM ${db.t('mnemo_deltas')} WHERE id = ?`, [id]);
        if (r) db.run(`UPDATE ${db.t('mnemo_deltas')} SET evidence = ? WHERE id = ?`, [needle.scrub(r.evidence).text, id]);
      }
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
          const [r] = db.all<{ report: string }>(`SELECT report FROM ${db.t('maintenance_log')} WHERE rowid = ?`, [k.report]);
          if (r) db.run(`UPDATE ${db.t('maintenance_log')} SET report = ? WHERE rowid = ?`, [scrubJsonText(needle, r.report), k.report]);
        } else if ('meta' in k) {
          const [r] = db.all<{ value: string }>(`SELECT value FROM ${db.t('mnemo_meta')} WHERE key = ?`, [k.meta]);
          if (r) db.run(`UPDATE ${db.t('mnemo_meta')} SET value = ? WHERE key = ?`, [scrubJsonText(needle, r.value), k.meta]);
        } else {
          const [r] = db.all<{ label: string }>(`SELECT label FROM ${db.t('mnemo_agent_credentials')} WHERE id = ?`, [k.credential]);
          if (r) db.run(`UPDATE ${db.t('mnemo_agent_credentials')} SET label = ? WHERE id = ?`, [needle.scrub(r.label).text, k.credential]);
        }
      }
    },
  },
];

/** The memory a journal row is about: its key's (a memory row) or its image's (a tombstone). */
function journalRowMemory(r: { key: string; before: string | null; after: string | null }): string {
  if (r.key.startsWith('m:')) return r.key.slice(2);
  if (!r.key.startsWith('t:')) return '';
  const image = deepParse(r.before ?? r.after ?? 'null') as { memory_id?: unknown } | null;
  return typeof image?.memory_id === 'string' ? image.memory_id : '';
}

/** A JSON text with every string that is itself JSON parsed too (a journal image's `data`), for checking; text that is not JSON stays text. */
function deepParse(textValue: string): unknown {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string' && (v.startsWith('{') || v.startsWith('['))) {
      try {
        return walk(JSON.parse(v));
      } catch {
        return v;
      }
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  try {
    return walk(JSON.parse(textValue));
  } catch {
    return textValue;
  }
}

/** Dimensions still naming the text once their entities were derived again: removed. */
export function leftoverDimensions(db: EraseDb, needle: EraseNeedle, act: boolean): number {
  if (!db.has('mnemo_dimensions')) return 0;
  const h = anyHolds(db, needle, ['entity', 'attribute', 'distribution']);
  const rows = db.all<{ entity: string; attribute: string; distribution: string }>(`SELECT entity, attribute, distribution FROM ${db.t('mnemo_dimensions')} WHERE ${h.sql}`, h.params);
  const hit = rows.filter((r) => needle.in(r.entity) || needle.in(r.attribute) || needle.inValue(deepParse(r.distribution)));
  if (act) for (const r of hit) db.run(`DELETE FROM ${db.t('mnemo_dimensions')} WHERE entity = ? AND attribute = ?`, [r.entity, r.attribute]);
  return hit.length;
}

/** The belief dimensions of these entities (what a rebuild derives again). */
export function dimensionsOf(db: EraseDb, entities: ReadonlySet<string>): number {
  if (!db.has('mnemo_dimensions') || entities.size === 0) return 0;
  let n = 0;
  for (const part of chunked([...entities], IDS_PER_STATEMENT)) {
    const [r] = db.all<{ n: unknown }>(`SELECT count(*) AS n FROM ${db.t('mnemo_dimensions')} WHERE ${db.inJson('entity')}`, [json(part)]);
    n += num(r?.n);
  }
  return n;
}
