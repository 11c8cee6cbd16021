/**
 * Issue 13 item 7 for `beliefs ingest`: a big ingest is written in short transactions. It gives
 * the same deltas and dimensions as the one-transaction ingest, another connection adds memories
 * and observes between its batches (and its observations are folded in), and a cancel or a crash
 * (recovered by the next writable open) leaves the beliefs as they were.
 */
import { connectionOf } from '../../core/store/sqlite/connection.js';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { beliefsOf, type Observation } from '../../core/beliefs/index.js';
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { addMemory } from '../../core/engine/memory-ops.js';
import { MnemoError } from '../../core/errors.js';
import { ingestInProgress } from '../../core/store/shared/ingest-run.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { DAY, freshEngine, NOW, obs } from '../helpers/beliefs.js';
import { tempDir } from '../../support/fixture.js';
import { sqliteAdapterOf } from '../../support/sqlite-adapter.js';

const T0 = 1_700_000_000;
let open: Engine[] = [];
afterEach(() => {
  for (const e of open) e.close();
  open = [];
});

/** 3,000 observations over 40 entities × 3 attributes, in shuffled time order, some older than what is stored. */
function observations(n = 3000): Observation[] {
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const out: Observation[] = [];
  for (let i = 0; i < n; i++) {
    const e = `person ${Math.floor(rnd() * 40)}`;
    const a = ['city', 'job', 'team'][Math.floor(rnd() * 3)]!;
    out.push(obs(e, a, `${a} ${Math.floor(rnd() * 5)}`, T0 + Math.floor(rnd() * 400) * DAY, rnd() < 0.2 ? null : 0.5 + rnd() / 2, { line: i + 1 }));
  }
  return out;
}

/** The belief tables, for exact comparison. */
function beliefDump(path: string): { deltas: unknown[]; dims: unknown[]; fts: unknown[] } {
  const db = new Database(path, { readonly: true });
  try {
    return {
      deltas: db.prepare('SELECT * FROM mnemo_deltas ORDER BY id').all(),
      dims: db.prepare('SELECT * FROM mnemo_dimensions ORDER BY entity, attribute').all(),
      fts: db.prepare("SELECT rowid FROM mnemo_delta_fts WHERE mnemo_delta_fts MATCH 'city' ORDER BY rowid").all(),
    };
  } finally {
    db.close();
  }
}

/** A store with some beliefs already (late observations in the big ingest replay their dimensions). */
function seeded(): { engine: Engine; path: string } {
  const f = freshEngine();
  open.push(f.engine);
  f.model.ingest(observations(300).map((o) => ({ ...o, t: o.t + 200 * DAY })), NOW);
  return { engine: f.engine, path: f.path };
}

describe('beliefs ingest in short transactions', () => {
  it('gives exactly the deltas, dimensions and evidence index of the one-transaction ingest', async () => {
    const a = seeded();
    const b = seeded();
    const all = observations();
    const one = beliefsOf(a.engine).ingest(all, NOW);
    const batched = await beliefsOf(b.engine).ingestInBatches(all, NOW, { pacing: { maxBatchItems: 100, pauseMs: 1 } });
    expect(batched).toEqual(one);
    expect(one.replayed_dimensions).toBeGreaterThan(0);
    expect(beliefDump(b.path)).toEqual(beliefDump(a.path));
    expect(ingestInProgress(sqliteAdapterOf(b.engine))).toBeNull();
  });

  it('lets another connection add and observe between batches, and folds its observations in', { timeout: 60_000 }, async () => {
    const { engine, path } = seeded();
    const other = Engine.open(path, { clock: fixedClock(NOW), busyTimeoutMs: 1000, onWarning: () => {} });
    open.push(other);
    let running = true;
    const during: string[] = [];
    const errors: string[] = [];
    const agent = (async () => {
      let i = 0;
      while (running) {
        try {
          during.push((await addMemory(other, { content: `agent note ${i}` })).id);
          // Older than anything the ingest brings, on a dimension the ingest also moves: the ingest's own state misses it.
          beliefsOf(other).observe(obs('person 1', 'mood', `mood ${i % 3}`, T0 - (1000 - i) * DAY), NOW);
        } catch (err) {
          errors.push((err as Error).message);
        }
        i++;
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const moods = Array.from({ length: 200 }, (_, i) => obs('person 1', 'mood', `mood ${i % 4}`, T0 + i * 2 * DAY));
    const res = await beliefsOf(engine).ingestInBatches([...observations(), ...moods], NOW, { pacing: { maxBatchItems: 100, pauseMs: 5 } });
    running = false;
    await agent;
    expect(errors).toEqual([]);
    expect(during.length).toBeGreaterThan(2);
    expect(res.ingested).toBe(3200);
    // The dimension both wrote to is what a replay of its whole log gives.
    const model = beliefsOf(engine);
    const stored = model.tables.dimension('person 1', 'mood')!;
    expect(stored.deltas).toBe(200 + during.length);
    model.rebuild(['person 1']);
    expect(model.tables.dimension('person 1', 'mood')).toEqual(stored);
  });

  it('a cancel takes back every batch already written', async () => {
    const { engine, path } = seeded();
    const before = beliefDump(path);
    let batches = 0;
    const err = await beliefsOf(engine)
      .ingestInBatches(observations(), NOW, { pacing: { maxBatchItems: 100, pauseMs: 1 }, shouldCancel: () => ++batches > 5 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MnemoError);
    expect((err as MnemoError).details).toMatchObject({ cancelled: true });
    expect(ingestInProgress(sqliteAdapterOf(engine))).toBeNull();
    expect(beliefDump(path)).toEqual(before);
  });

  it('a crash part-way is rolled back by the next writable open', async () => {
    const { engine, path } = seeded();
    const before = beliefDump(path);
    const snapshot = join(tempDir('mnemo-beliefs-'), 'crashed.sqlite');
    let batches = 0;
    // Copy the store as a crash would leave it: some batches committed, the marker still there.
    await beliefsOf(engine)
      .ingestInBatches(observations(), NOW, {
        pacing: { maxBatchItems: 100, pauseMs: 1 },
        shouldCancel: () => {
          if (++batches === 6) connectionOf(engine.store).exec(`VACUUM INTO '${snapshot}'`);
          return false;
        },
      });
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const db = new Database(snapshot);
    const marker = JSON.parse((db.prepare("SELECT value FROM mnemo_meta WHERE key = 'beliefs_ingest_run'").get() as { value: string }).value) as { ranges: unknown[] };
    expect(marker.ranges.length).toBe(5);
    db.prepare("UPDATE mnemo_meta SET value = ? WHERE key = 'beliefs_ingest_run'").run(JSON.stringify({ ...marker, pid: dead }));
    db.close();
    expect(beliefDump(snapshot)).not.toEqual(before);
    const warnings: string[] = [];
    const store = MemoryStore.open(snapshot, { onWarning: (m) => warnings.push(m) });
    expect(warnings.join('\n')).toMatch(/belief ingest by process \d+ was cut short/);
    expect(ingestInProgress(store)).toBeNull();
    store.close();
    const after = beliefDump(snapshot);
    expect(after.deltas).toEqual(before.deltas);
    expect(after.dims).toEqual(before.dims);
    expect(after.fts).toEqual(before.fts);
  });
});
