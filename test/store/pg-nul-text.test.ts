/**
 * A NUL character (U+0000) sent to a PostgreSQL store (core/store/pg/pg-nul-text.ts). PostgreSQL
 * text cannot hold one; SQLite's can, so every door accepts it there.
 *
 * What could go wrong: the server's "invalid byte sequence" reaches the caller as an internal error
 * naming our SQL; a recall whose logged query holds one fails after it touched the memories it
 * ranked; an import or a belief ingest keeps the lines before the bad one; the engine's in-process
 * indexes keep a memory whose write failed.
 */
import { describe, expect, it } from 'vitest';
import { beliefsOf, parseObservationsJsonl } from '../../core/beliefs/index.js';
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { ApiSession } from '../../core/api/context.js';
import { invoke } from '../../core/api/service.js';
import { tempDir } from '../../support/temp-dirs.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { pgStores } from '../helpers/pg-stores.js';

const NOW = 1_790_000_000;
const SCHEMAS = ['pgnul_doors', 'pgnul_import', 'pgnul_beliefs'];
const NUL_ERROR = { ok: false, error: { code: 'bad_input', message: expect.stringMatching(/NUL character.*PostgreSQL store cannot keep/) } };

describe('a NUL character sent to a PostgreSQL store', () => {
  const pg = pgStores(SCHEMAS);

  it('is refused with a typed error naming the value, at every write, and nothing is written', async (ctx) => {
    if (pg.unavailable) return ctx.skip(pg.unavailable);
    pg.connect('pgnul_doors', fixedClock(NOW));
    const session = new ApiSession({ clock: fixedClock(NOW) });
    pg.track(session);
    session.open(pg.storeUrl('pgnul_doors'));
    const call = (method: string, input: unknown) => invoke(session, method, input) as Promise<{ ok: boolean; value?: any; error?: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any

    const added = await call('memory.add', { content: 'cats chase the red laser', owner: 'scout@1' });
    expect(added.ok).toBe(true);
    const id = added.value.memory?.id ?? added.value.id;
    const events = () => Number(pg.admin.query<{ n: string }>('SELECT count(*)::text AS n FROM pgnul_doors.mnemo_access_events')[0]!.n);
    const row = () => pg.admin.query<{ content: string; access_count: string; strength: number }>(`SELECT content, access_count::text, strength FROM pgnul_doors.memories WHERE id = $1`, [id])[0]!;
    const before = { events: events(), row: row() };

    const refused = await call('memory.add', { content: 'cats and a hidden\u0000byte' });
    expect(refused).toMatchObject(NUL_ERROR);
    expect(refused.error.message).toContain('hidden\\u0000byte');
    expect(JSON.stringify(refused.error)).not.toMatch(/INSERT|SELECT|memories"/);
    expect(await call('memory.add', { content: 'x', owner: 'scout\u0000@1' })).toMatchObject(NUL_ERROR);
    expect(await call('memory.update', { id, patch: { content: 'cats\u0000' } })).toMatchObject(NUL_ERROR);
    // A recall logs its query: refused before it touches the memories it ranked.
    expect(await call('recall.run', { query: 'cats\u0000laser' })).toMatchObject(NUL_ERROR);
    expect(await call('recall.search', { query: 'cats\u0000laser' })).toMatchObject(NUL_ERROR);
    expect(await call('beliefs.observe', { observation: { entity: 'laser\u0000', attribute: 'colour', value: 'red', t: NOW } })).toMatchObject(NUL_ERROR);

    expect(events()).toBe(before.events);
    expect(row()).toEqual(before.row);
    const list = await call('memory.list', { archived: 'all' });
    expect(list.value.total).toBe(1);
    // The in-process indexes hold no memory whose write failed: a recall finds only the first one.
    const recalled = await call('recall.run', { query: 'cats hidden byte' });
    expect(recalled.ok).toBe(true);
    expect(recalled.value.items.map((r: { id: string }) => r.id)).toEqual([id]);
    // A title or a tag is JSON in `data`, where the NUL is escaped: those are kept, as on SQLite.
    const titled = await call('memory.add', { content: 'titled', title: 'a\u0000b', tags: ['t\u0000'] });
    expect(titled.ok).toBe(true);
    const shown = await call('memory.get', { id: titled.value.memory?.id ?? titled.value.id });
    expect(shown.value.memory?.title ?? shown.value.title).toBe('a\u0000b');
  });

  it('fails a whole import on the line that holds one', async (ctx) => {
    if (pg.unavailable) return ctx.skip(pg.unavailable);
    const url = pg.storeUrl('pgnul_import');
    expect((await runCli(['init', url])).code).toBe(0);
    const file = join(tempDir(), 'lines.jsonl');
    const line = (id: string, content: string) => JSON.stringify({ id, type: 'info', content, created_at: NOW - 60 });
    writeFileSync(file, [line('m1', 'first, fine'), line('m2', 'second, fine'), line('m3', 'third\u0000bad')].join('\n') + '\n');
    const run = await runCli(['import', url, file, '--json', '--now', String(NOW)]);
    expect(run.code).toBe(2);
    expect(run.json()).toMatchObject({ error: { code: 'bad_input', message: expect.stringMatching(/^import failed at line 3: "third\\u0000bad" holds a NUL/), details: { line: 3 } } });
    expect(pg.admin.query<{ n: string }>('SELECT count(*)::text AS n FROM pgnul_import.memories')[0]!.n).toBe('0');
  });

  it('fails a whole belief ingest on the line that holds one, batches already committed included', async (ctx) => {
    if (pg.unavailable) return ctx.skip(pg.unavailable);
    const engine = Engine.open(pg.storeUrl('pgnul_beliefs'), { clock: fixedClock(NOW), create: true, onWarning: () => {} });
    pg.track(engine);
    const lines = ['laser', 'cat', 'dog', 'owl', 'ca\u0000t'].map((entity, n) => JSON.stringify({ entity, attribute: 'colour', value: 'red', t: NOW - 50 + n }));
    // One observation per transaction: four are committed before the fifth is refused.
    const ingest = beliefsOf(engine).ingestInBatches(parseObservationsJsonl(lines.join('\n')), NOW, { pacing: { maxBatchItems: 1, pauseMs: 0 } });
    await expect(ingest).rejects.toMatchObject({ code: 'bad_input', message: expect.stringMatching(/^line 5: "ca\\u0000t" holds a NUL.*nothing was ingested$/), details: { line: 5 } });
    expect(pg.admin.query<{ n: string }>('SELECT count(*)::text AS n FROM pgnul_beliefs.mnemo_deltas')[0]!.n).toBe('0');
  });
});
