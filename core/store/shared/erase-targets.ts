/**
 * Which memories an erase names (erase-run.ts): by match, those whose own text holds it, live or
 * gone (their traces in the change feed, the journal, the tombstones); by owner, an owner's or a
 * role's; by id, a gone memory's id only when it left a trace. A memory live now whose text is only
 * in its past is scrubbed (erase-scrubs.ts), not erased.
 */
import { asciiLower, type EraseNeedle } from '../../model/erase-text.js';
import type { EraseTarget } from '../port/erase.js';
import { chunked, type EraseDb } from './erase-db.js';
import { isErasedImageText } from './erase-markers.js';
import { anyHolds, IDS_PER_STATEMENT, json, nestedForms } from './erase-sql.js';

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
