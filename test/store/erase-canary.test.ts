/**
 * Erasing on SQLite, proved on the bytes: a canary word goes down every path a memory's text takes
 * (test/helpers/erase-canary.ts), and after `memory.erase` by match, no table row, and no byte of
 * the store file, its WAL or any file beside it (the index sidecar and its snapshots' parts), holds
 * it. Before the erase the test counts it in each of those places, so a place the erase missed
 * fails here rather than passing for want of a canary.
 *
 * Everything else keeps working: the other memories, their history and undo, time travel (which
 * shows the erased memory as "[erased at T by X]"), the list's search and recall, and the real nooa
 * package reading and writing the file (skipped, saying why, where the reference is not at hand).
 */
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import type { EraseDryRun, EraseReceipt } from '../../core/erase/erase.js';
import { tempDir } from '../../support/fixture.js';
import { bytesByFile, CANARY, expectTheRestWorks, holding, occurrences, steppingClock, writeCanaryStory, type CanaryStory } from '../helpers/erase-canary.js';
import { nooaReference } from '../helpers/nooa-reference.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const START = 1_780_000_000;

/** Rows holding the canary, by table (every table, FTS5's shadow tables included). */
function rowsByTable(path: string): Record<string, number> {
  const db = new Database(path, { readonly: true });
  try {
    const out: Record<string, number> = {};
    for (const t of db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]) {
      let n = 0;
      for (const row of db.prepare(`SELECT * FROM "${t}"`).raw().iterate() as Iterable<unknown[]>) {
        if (row.some((v) => (typeof v === 'string' || Buffer.isBuffer(v)) && occurrences(Buffer.from(v as string)) > 0)) n++;
      }
      if (n) out[t] = n;
    }
    return out;
  } finally {
    db.close();
  }
}

function runPython(script: string, args: string[]): string {
  const r = spawnSync('python3', [join(ROOT, 'support', script), ...args], { encoding: 'utf8', timeout: 120_000 });
  if (r.error) throw new Error(`could not run python3: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${script} failed (exit ${r.status}): ${r.stderr.trim()}`);
  return r.stdout;
}

describe('erase by match on SQLite', () => {
  const clock = steppingClock(START);
  let dir = '';
  let path = '';
  let story: CanaryStory;
  let before: Record<string, number> = {};
  let filesBefore: Record<string, number> = {};
  let dry: EraseDryRun;
  let receipt: EraseReceipt;
  let session: ApiSession | null = null;
  afterEach(() => {
    session?.close();
    session = null;
  });

  beforeAll(async () => {
    dir = tempDir('mnemo-erase-canary-');
    path = join(dir, 'canary.sqlite');
    const writer = new ApiSession({ clock });
    writer.open(path, { create: true });
    story = await writeCanaryStory(writer, clock);
    writer.close(); // writes the index snapshots beside the store
    before = rowsByTable(path);
    filesBefore = holding(bytesByFile(dir));
    const eraser = new ApiSession({ clock });
    eraser.open(path);
    dry = await call(eraser, 'memory.erasePlan', { match: CANARY });
    if (JSON.stringify(holding(rowsByTable(path))) !== JSON.stringify(holding(before))) throw new Error('the dry run wrote');
    clock.step();
    receipt = await call(eraser, 'memory.erase', { match: CANARY });
    eraser.close();
  });

  it('found the canary in every place before the erase (or the rest would prove nothing)', () => {
    for (const table of ['memories', 'mnemo_access_events', 'mnemo_journal_rows', 'mnemo_tombstones', 'mnemo_deltas', 'mnemo_dimensions', 'mnemo_delta_fts', 'mnemo_feed']) {
      expect(before[table] ?? 0, `${table} holds the canary before the erase`).toBeGreaterThan(0);
    }
    expect(filesBefore['canary.sqlite'] ?? 0).toBeGreaterThan(0);
    expect(Object.keys(filesBefore).some((f) => f.startsWith('canary.sqlite.mnemo-index')), `a snapshot beside the store holds it: ${JSON.stringify(filesBefore)}`).toBe(true);
    expect(dry.memories).toEqual({ total: 2, live: 1, gone: 1 });
    expect(JSON.stringify(dry.selector)).not.toContain(CANARY);
  });

  it('leaves no trace of it in any row, nor in any byte of the store, its WAL or any file beside it; the receipt names none either', async () => {
    expect(rowsByTable(path)).toEqual({});
    expect(holding(bytesByFile(dir))).toEqual({});
    expect(receipt.counts).toMatchObject({ memories: 1, access_events: dry.counts.access_events, tombstones: dry.counts.tombstones, belief_deltas: dry.counts.belief_deltas });
    expect(receipt.counts.journal_images).toBeGreaterThan(0);
    expect(receipt.counts.feed_rows).toBeGreaterThan(0);
    expect(receipt.counts.access_queries + receipt.counts.access_rings).toBeGreaterThan(0);
    expect(receipt.by).toBe('operator');
    expect(receipt.reclaim).toMatchObject({ method: 'vacuum', problems: [] });
    expect(receipt.derived.index_snapshots).toBeGreaterThan(0);
    expect(JSON.stringify(receipt)).not.toContain(CANARY);
    session = new ApiSession({ clock });
    session.open(path);
    const entry = await call(session, 'journal.rows', { change_id: receipt.change_id });
    expect(entry.change).toMatchObject({ kind: 'erase', rows: 0 });
    expect(JSON.stringify(entry)).not.toContain(CANARY);
  });

  it('keeps every other memory, its history and its undo; time travel shows the erased one as erased; search and recall are built again', async () => {
    session = new ApiSession({ clock });
    session.open(path);
    await expectTheRestWorks(session, story, receipt);
  });

  it('can still be opened, read and written by the real nooa package', (ctx) => {
    const reference = nooaReference();
    if (!reference.src) return ctx.skip(reference.missing);
    const read = JSON.parse(runPython('nooa-read.py', [reference.src, path, String(clock.now())])) as { memories: { memory: { id: string } }[] };
    expect(new Set(read.memories.map((m) => m.memory.id))).toEqual(new Set([story.recalled, story.edited, ...story.clean]));
    runPython('nooa-interop.py', [reference.src, path, String(clock.now())]);
  });
});
