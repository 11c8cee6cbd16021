/**
 * An erase, on either backend: the plan (which memories, how many rows per place; nothing
 * written), then the erase itself in paced transactions as a reflection apply is (change-run.ts),
 * so agents' calls are answered between batches, then the bytes made to go (each adapter's
 * `reclaim`: SQLite's VACUUM and WAL truncation, PostgreSQL's VACUUM FULL of the touched tables).
 *
 * It is not a journalled change: its journal entry (kind `erase`) carries the receipt's counts and
 * who erased, never a byte of what was erased, and it is the one entry undo refuses (journal.ts).
 * The entry is written first, so every feed row the erase writes names it; a run cut short leaves
 * it marked `in_progress`, and running the same erase again finishes the job (every step finds
 * only what is still there).
 */
import { notFound } from '../../errors.js';
import { EraseNeedle } from '../../model/erase-text.js';
import { pacingOf, type RunPacing } from '../../model/run-pacing.js';
import { currentCredentialId } from '../port/attribution.js';
import { emptyEraseCounts, type ErasedMark, type EraseOutcome, type ErasePlaceCounts, type ErasePlan, type EraseReclaim, type EraseRunOptions, type EraseSelector, type EraseTarget } from '../port/erase.js';
import { Pacer, refuseIfRunning } from './change-run.js';
import { chunked, type EraseDb } from './erase-db.js';
import { eraseMemories, noteErasedChanges, tombstoneJournalRows, type EraseContext } from './erase-memories.js';
import { leftoverDimensions, SCRUBS } from './erase-scrubs.js';
import { dimensionsOf } from './erase-sql.js';
import { targetsByMatch, targetsByOwner, tracesOf } from './erase-targets.js';
import type { JournalledStore } from './journal.js';

/** What each adapter gives an erase: its row primitives, and how it makes removed bytes go. */
export interface EraseBackend {
  readonly db: EraseDb;
  /** Before the first batch (SQLite zeroes what it deletes on this connection from here on). */
  begin(): void;
  /** After the last batch, however it ended. */
  end(): void;
  /** After rows changed: an adapter's private copies of them are read again (PostgreSQL's evidence search). */
  afterChange?(): void;
  /** Rewrites what held the removed rows so their bytes are gone from the files; `tables` are those the erase wrote. */
  reclaim(tables: readonly string[]): Promise<EraseReclaim>;
}

/** The store an erase runs on: its journal, and id prefixes resolved as every door resolves them. */
export interface EraseStore extends JournalledStore {
  resolveId(idOrPrefix: string): string | null;
}

/** Memories erased in the first transaction, and at most in any (the size follows the time each batch took). */
const FIRST_BATCH = 20;
const MAX_BATCH = 500;
/** Rows scrubbed per transaction at most. */
const ROWS_PER_SCRUB = 200;

const NOTHING: ReadonlySet<string> = new Set();

const NO_RECLAIM: EraseReclaim = { method: 'none', rewrote: [], seconds: 0, bytes_before: null, bytes_after: null, problems: [] };

/** Gives the event loop a turn (a plan of a big store takes seconds: a cancel or a read gets in between). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The memories a selector names. An id may name a memory that is gone, as long as it left traces (a forgotten one's journal images, its feed rows). */
function targetsOf(store: EraseStore, db: EraseDb, selector: EraseSelector): EraseTarget[] {
  if (selector.kind === 'owner') return targetsByOwner(db, selector.owner);
  if (selector.kind === 'match') return targetsByMatch(db, new EraseNeedle(selector.text));
  const out = new Map<string, EraseTarget>();
  const unknown: string[] = [];
  for (const given of selector.ids) {
    const id = store.resolveId(given);
    if (id) out.set(id, { id, owner: db.all<{ owner: string }>(`SELECT owner FROM ${db.t('memories')} WHERE id = ?`, [id])[0]?.owner ?? '', live: true });
    else unknown.push(given);
  }
  const traces = tracesOf(db, unknown);
  const missing = unknown.filter((id) => !traces.has(id));
  if (missing.length) {
    throw notFound(`no memory and no trace of one with the id ${missing.map((m) => JSON.stringify(m)).join(', ')}; a memory that is gone is named by its full id`, { ids: missing });
  }
  for (const id of unknown) out.set(id, { id, owner: traces.get(id) ?? '', live: false });
  return [...out.values()];
}

/** A mark for counting (the plan writes nothing with it). */
const PLANNING_MARK: ErasedMark = { at: 0, by: '', change_id: 0 };

/** What erasing the selector would remove, per place; nothing is written. */
export async function planErase(store: EraseStore, backend: EraseBackend, selector: EraseSelector): Promise<ErasePlan> {
  const started = performance.now();
  const db = backend.db;
  const targets = targetsOf(store, db, selector);
  await turn();
  const counts = emptyEraseCounts();
  const entities = new Set<string>();
  const changes = new Set<number>();
  const all = new Set(targets.map((t) => t.id));
  const ctx: EraseContext = { mark: PLANNING_MARK, all, owners: new Map(targets.map((t) => [t.id, t.owner])), tombstoneRows: tombstoneJournalRows(db, all) };
  for (const part of chunked([...all], 500)) {
    addCounts(counts, eraseMemories(db, part, ctx, false, entities, changes));
    await turn();
  }
  counts.journal_changes = changes.size;
  if (selector.kind === 'match') {
    const needle = new EraseNeedle(selector.text);
    for (const place of SCRUBS) {
      const keys = place.find(db, needle, all);
      counts[place.place] += keys.length;
      await turn();
    }
  }
  counts.belief_dimensions = dimensionsOf(db, entities);
  return { selector, targets, counts, planned_in_s: round3((performance.now() - started) / 1000) };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

function addCounts(into: ErasePlaceCounts, part: Partial<ErasePlaceCounts>): void {
  for (const [k, v] of Object.entries(part)) into[k as keyof ErasePlaceCounts] += v ?? 0;
}

/** How the journal names an erase (never the text of a match: that is what is being erased). */
function labelOf(selector: EraseSelector, n: number): string {
  if (selector.kind === 'owner') return `erase the memories of ${selector.owner}`;
  if (selector.kind === 'match') return `erase ${n} ${n === 1 ? 'memory' : 'memories'} by match`;
  return n === 1 ? `erase ${selector.ids.length === 1 ? String(selector.ids[0]).slice(0, 8) : '1 memory'}` : `erase ${n} memories`;
}

/** The selector as the receipt keeps it: ids and owners as given, a match by its length only. */
export function selectorNote(selector: EraseSelector): Record<string, unknown> {
  if (selector.kind === 'match') return { kind: 'match', chars: [...selector.text].length };
  if (selector.kind === 'owner') return { kind: 'owner', owner: selector.owner };
  return { kind: 'ids', n: selector.ids.length, ids: selector.ids.slice(0, 100) };
}

/** The tables each place writes (PostgreSQL rewrites exactly these to make the bytes go). */
const ERASE_TABLES = ['memories', 'memory_edges', 'mnemo_journal_rows', 'mnemo_journal', 'mnemo_feed', 'mnemo_pg_feed', 'mnemo_access_events', 'mnemo_tombstones', 'mnemo_deltas', 'mnemo_dimensions'];

/**
 * Erases what the plan names. Past its first write there is no way back: what it removed is gone
 * (the caller offers a cancel only before it starts). Listeners hear every erased memory as
 * deleted and, at the end, a reset: every derived index is built again from what is left, so no
 * index keeps a word of what went. Other processes read the erase from the change feed as ordinary
 * deletes, a batch per transaction, and patch their indexes as for any delete: the feed keeps its
 * name (epoch), since renewing it made each of them rebuild every index (tens of seconds at 100k).
 */
export async function runErase(store: EraseStore, backend: EraseBackend, plan: ErasePlan, opts: EraseRunOptions, pacing?: RunPacing): Promise<EraseOutcome> {
  const db = backend.db;
  const p = pacingOf(pacing);
  const ids = plan.targets.map((t) => t.id);
  const mark: ErasedMark = { at: store.clock.now(), by: opts.by, change_id: 0 };
  const selector = selectorNote(plan.selector);
  mark.change_id = store.transaction(() => {
    store.ensureMnemo();
    refuseIfRunning(store);
    return store.journal.sql.insertChange({
      ts: mark.at,
      label: labelOf(plan.selector, ids.length),
      kind: 'erase',
      counts: '{}',
      meta: JSON.stringify({ in_progress: true, by: opts.by, selector, memories: ids.length }),
      credentialId: currentCredentialId(),
    });
  });
  const counts = emptyEraseCounts();
  const tables = new Set<string>();
  const all = new Set(ids);
  const ctx: EraseContext = { mark, all, owners: new Map(plan.targets.map((t) => [t.id, t.owner])), tombstoneRows: [] };
  const pacer = new Pacer(store, p);
  backend.begin();
  try {
    ctx.tombstoneRows = tombstoneJournalRows(db, all);
    const changes = new Set<number>();
    let i = 0;
    // Memories per transaction: adjusted after each batch so a batch takes about the pacing's batch
    // time (a memory with a long access history costs more than one without).
    let size = Math.min(FIRST_BATCH, p.maxBatchItems);
    opts.onProgress?.('erasing', 0, ids.length);
    while (i < ids.length) {
      const started = performance.now();
      store.transaction(() => {
        store.journal.sql.attributeFeedTo(mark.change_id);
        const batch = ids.slice(i, i + size);
        i += batch.length;
        const entities = new Set<string>();
        const touched = new Set<number>();
        addCounts(counts, eraseMemories(db, batch, ctx, true, entities, touched));
        noteErasedChanges(db, touched, mark);
        for (const c of touched) changes.add(c);
        counts.belief_dimensions += dimensionsOf(db, entities);
        if (entities.size) opts.rebuildBeliefs?.([...entities]);
        for (const id of batch) store.emit({ kind: 'delete', id });
      });
      const took = Math.max(1, performance.now() - started);
      size = Math.max(1, Math.min(MAX_BATCH, p.maxBatchItems, Math.round((size * p.batchMs) / took)));
      opts.onProgress?.('erasing', i, ids.length);
      if (i < ids.length) await pacer.between();
    }
    counts.journal_changes = changes.size;
    if (ids.length) for (const t of ERASE_TABLES) tables.add(t);
    if (plan.selector.kind === 'match') await scrub(store, db, new EraseNeedle(plan.selector.text), counts, tables, opts, pacer, mark.change_id);
    store.transaction(() => {
      store.journal.sql.closeChange(mark.change_id, JSON.stringify(counts), JSON.stringify({ by: opts.by, selector, memories: ids.length, erased_at: mark.at }));
    });
    backend.afterChange?.();
  } finally {
    backend.end();
    pacer.end();
  }
  opts.afterRows?.(ids);
  // Every derived index is built again from what is left (a patched keyword index may still know a removed word).
  store.emit({ kind: 'reset' });
  opts.onProgress?.('reclaiming', 0, 1);
  const reclaim = opts.skipReclaim ? NO_RECLAIM : await backend.reclaim([...tables].filter((t) => db.has(t)));
  store.transaction(() => {
    store.journal.sql.closeChange(mark.change_id, JSON.stringify(counts), JSON.stringify({ by: opts.by, selector, memories: ids.length, erased_at: mark.at, reclaim }));
  });
  opts.onProgress?.('reclaiming', 1, 1);
  return { change_id: mark.change_id, at: mark.at, by: opts.by, counts, reclaim };
}

/** By match: the text out of every other place, a place at a time, in paced transactions. */
async function scrub(store: EraseStore, db: EraseDb, needle: EraseNeedle, counts: ErasePlaceCounts, tables: Set<string>, opts: EraseRunOptions, pacer: Pacer, changeId: number): Promise<void> {
  let done = 0;
  for (const place of SCRUBS) {
    opts.onProgress?.('scrubbing', done++, SCRUBS.length);
    const keys = place.find(db, needle, NOTHING);
    if (keys.length === 0) continue;
    counts[place.place] += keys.length;
    for (const t of place.tables) tables.add(t);
    for (const part of chunked(keys, ROWS_PER_SCRUB)) {
      store.transaction(() => {
        store.journal.sql.attributeFeedTo(changeId);
        const fx = { upserts: new Set<string>(), entities: new Set<string>() };
        place.apply(db, needle, part, fx);
        if (fx.entities.size) {
          counts.belief_dimensions += dimensionsOf(db, fx.entities);
          opts.rebuildBeliefs?.([...fx.entities]);
        }
        for (const id of fx.upserts) store.emit({ kind: 'upsert', id });
      });
      await pacer.between();
    }
  }
  store.transaction(() => {
    counts.belief_dimensions += leftoverDimensions(db, needle, true);
  });
  opts.onProgress?.('scrubbing', SCRUBS.length, SCRUBS.length);
}
