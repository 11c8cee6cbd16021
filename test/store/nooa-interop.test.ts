/**
 * The change feed beside the real nooa-memory package (the Apache-2.0 reference, run as a test
 * oracle through support/nooa-interop.py): nooa keeps working on a store with the feed installed,
 * its writes land in the feed as a foreign writer's (`writer IS NULL`) with before-images exact
 * enough to walk back to the state before them, and Mnemo's catch-up hears them. Without the
 * reference (it is not part of the repository) those tests skip with the reason; the check that
 * installing the feed leaves nooa's tables as they were needs no Python and always runs.
 */
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { MEMORY_COLUMNS, type MemoryRow } from '../../core/store/port/codec.js';
import { FEED_TRIGGERS } from '../../core/store/sqlite/feed-ddl.js';
import { VIEW_INDEX_NAMES } from '../../core/store/sqlite/view-indexes.js';
import type { FeedRow } from '../../core/store/shared/feed-images.js';
import { MemoryStore, type ChangeEvent } from '../../core/store/sqlite/sqlite-store.js';
import { tablesAt } from '../../support/feed-walk.js';
import { FIXTURE_STORE, fixtureCopy } from '../../support/fixture.js';
import { nooaReference } from '../helpers/nooa-reference.js';
import type { EdgeRow } from '../../core/store/port/history-changes.js';
import { allMemories } from '../../core/store/queries/memory-lookups.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCRIPT = join(ROOT, 'support', 'nooa-interop.py');
const NOW = 1_780_000_000;


/** Runs the script; a missing Python module fails with its name, never as a skip. */
function runNooa(src: string, path: string): { added: string; updated: string; archived: string; linked: [string, string]; recalled: string[] } {
  const r = spawnSync('python3', [SCRIPT, src, path, String(NOW)], { encoding: 'utf8', timeout: 120_000 });
  if (r.error) throw new Error(`could not run python3 for the nooa-memory reference: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`the nooa-memory reference failed (exit ${r.status}): ${r.stderr.trim()}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

const memoryRows = (db: Database.Database) =>
  new Map((db.prepare(`SELECT ${MEMORY_COLUMNS.join(', ')} FROM memories`).all() as MemoryRow[]).map((r) => [r.id, r]));
const edgeRows = (db: Database.Database) =>
  new Map((db.prepare('SELECT src, dst, type, weight, created_at FROM memory_edges').all() as EdgeRow[]).map((e) => [`${e.src}|${e.dst}|${e.type}`, e]));

/** Schema objects that are nooa's: not Mnemo's tables or indexes, not the feed's triggers on nooa's tables, and not the views' indexes on them. */
function nooaSchema(db: Database.Database): unknown[] {
  const feedTriggers = new Set<string>(FEED_TRIGGERS);
  return (db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name').all() as { type: string; name: string; tbl_name: string }[]).filter(
    (o) => !o.tbl_name.startsWith('mnemo_') && !feedTriggers.has(o.name) && !VIEW_INDEX_NAMES.has(o.name) && o.name !== 'sqlite_sequence',
  );
}

describe('installing the feed on a nooa store', () => {
  it("leaves nooa's tables, indexes and rows as they were; it adds only Mnemo's tables, the feed's triggers and the views' two indexes", () => {
    const path = fixtureCopy();
    const original = new Database(FIXTURE_STORE, { readonly: true });
    const store = MemoryStore.open(path, { clock: fixedClock(NOW) });
    store.setMeta('interop', 'installs mnemo tables only'); // a write of ours that touches no memory
    const copy = new Database(path, { readonly: true });
    const triggers = copy.prepare("SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ('memories', 'memory_edges') ORDER BY name").all();
    expect(triggers.map((t) => (t as { name: string }).name)).toEqual([...FEED_TRIGGERS].sort());
    const added = copy.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'memories' AND name LIKE 'idx_mnemo_%' ORDER BY name").pluck().all();
    expect(added).toEqual([...VIEW_INDEX_NAMES].sort());
    expect(nooaSchema(copy)).toEqual(nooaSchema(original));
    expect(copy.pragma('user_version', { simple: true })).toBe(original.pragma('user_version', { simple: true }));
    expect(memoryRows(copy)).toEqual(memoryRows(original));
    expect(edgeRows(copy)).toEqual(edgeRows(original));
    expect(copy.prepare('SELECT count(*) FROM mnemo_feed').pluck().get()).toBe(0);
    copy.close();
    original.close();
    store.close();
  });
});

describe('the real nooa package on a store with the feed', () => {
  const reference = nooaReference();

  it('adds, updates, archives, links and recalls; every write is in the feed as a foreign one, walks back exactly, and is caught up', { tags: ['external-data'] }, (ctx) => {
    if (!reference.src) return ctx.skip(reference.missing);
    const path = fixtureCopy();
    const mnemo = MemoryStore.open(path, { clock: fixedClock(NOW) });
    const first = allMemories(mnemo)[5]!;
    mnemo.save({ ...first, content: `${first.content} (edited by mnemo)` }); // installs the feed
    const events: ChangeEvent[] = [];
    mnemo.onChange((e) => events.push(e));
    const raw = new Database(path);
    const from = raw.prepare('SELECT max(seq) FROM mnemo_feed').pluck().get() as number;
    const start = { memories: memoryRows(raw), edges: edgeRows(raw) };

    const did = runNooa(reference.src, path);

    const rows = raw.prepare('SELECT * FROM mnemo_feed WHERE seq > ? ORDER BY seq').all(from) as FeedRow[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.writer !== null)).toEqual([]);
    expect(rows.filter((r) => r.change_id !== null)).toEqual([]);
    const memoryOps = (id: string) => rows.filter((r) => r.tbl === 'memory' && r.memory_id === id).map((r) => r.op);
    expect(memoryOps(did.added)[0]).toBe('insert');
    expect(memoryOps(did.updated)).toContain('update');
    expect(memoryOps(did.archived)).toEqual(['update']);
    expect(rows.some((r) => r.tbl === 'edge' && r.memory_id === did.linked[0] && r.dst === did.linked[1] && r.op === 'insert')).toBe(true);
    for (const id of did.recalled.filter((id) => id !== did.added)) expect(memoryOps(id).some((op) => op === 'access' || op === 'update'), id).toBe(true);

    // Walking the feed back from nooa's result gives the store exactly as it was before nooa wrote.
    const state = tablesAt(raw, from);
    expect(state.memories).toEqual(start.memories);
    expect(state.edges).toEqual(start.edges);

    // Mnemo's catch-up names every memory nooa wrote, without a rebuild.
    mnemo.catchUp();
    expect(events.filter((e) => e.kind === 'reset')).toEqual([]);
    const told = new Set(events.flatMap((e) => (e.kind === 'reset' ? [] : [e.id])));
    for (const id of [did.added, did.updated, did.archived, ...did.linked, ...did.recalled]) expect(told.has(id), id).toBe(true);
    raw.close();
    mnemo.close();
  });
});
