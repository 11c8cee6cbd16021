/**
 * The erased memories themselves, in every place (erase-run.ts runs a batch at a time): their rows
 * and edges, their access events, their tombstones and the belief observations derived from them
 * go; their journal images and their change-feed images are replaced by markers
 * (erase-markers.ts), so the rows around them keep their shape. Each function counts (`act`
 * false: the plan, a dry run) or acts (`act` true, inside the caller's transaction), so a dry run
 * and the erase it announces count alike.
 */
import type { ErasedMark, ErasePlaceCounts } from '../port/erase.js';
import { chunked, num, type EraseDb } from './erase-db.js';
import { erasedFeedImage, erasedMemoryImage, erasedTombstoneImage, type ErasedShape } from './erase-markers.js';
import { IDS_PER_STATEMENT, json } from './erase-sql.js';

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
