/**
 * A store with resolved conflicts stays a nooa v0.0.9 store: the real nooa-memory package (the
 * Apache-2.0 reference, run as an oracle) reads every memory, the superseded one with nooa's own
 * `valid_to` set; nooa writes on (saving the superseded memory drops the key it does not know,
 * `superseded_by`), and the resolution still stands for Mnemo, which keeps it in `mnemo_meta`.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import { fixedClock } from '../../core/clock.js';
import { fixtureCopy } from '../../support/fixture.js';
import { nooaReference } from '../helpers/nooa-reference.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const NOW = 1_780_000_000;

function python(script: string, src: string, path: string): Record<string, unknown> {
  const r = spawnSync('python3', [join(ROOT, 'support', script), src, path, String(NOW)], { encoding: 'utf8', timeout: 120_000, maxBuffer: 256 * 1024 * 1024 });
  if (r.error) throw new Error(`could not run python3 for the nooa-memory reference: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`the nooa-memory reference failed (exit ${r.status}): ${r.stderr.trim()}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
}

describe('resolved conflicts and the real nooa package', () => {
  const reference = nooaReference();

  it('nooa reads and writes the store; the superseded memory carries valid_to, and the resolution outlives a nooa save', async (ctx) => {
    if (!reference.src) return ctx.skip(reference.missing);
    const path = fixtureCopy();
    const s = new ApiSession({ clock: fixedClock(NOW) });
    s.open(path);
    try {
      const live = (await call(s, 'memory.list', { limit: 6, sort: 'rowid' })).rows.map((r) => r.id);
      // nooa's own write script updates the first live memory: make that the superseded one.
      const [a, b, c, d] = live as [string, string, string, string];
      const res = await call(s, 'review.resolve', { do: 'supersede', current: b, superseded: a });
      await call(s, 'review.resolve', { do: 'both_hold', ids: [c, d] });
      await call(s, 'review.flag', { a_id: c, b_id: b, note: 'checked by hand' });

      const read = python('nooa-read.py', reference.src!, path) as { memories: { memory: { id: string; valid_to: number | null } }[] };
      const byId = new Map(read.memories.map((m) => [m.memory.id, m.memory]));
      expect(byId.get(a)!.valid_to).toBe(NOW);
      expect(byId.get(b)!.valid_to).toBeNull();

      const wrote = python('nooa-interop.py', reference.src!, path) as { updated: string };
      expect(wrote.updated).toBe(a);
      const after = (await call(s, 'memory.get', { id: a })).memory;
      expect(after.content).toContain('(updated by nooa)');
      expect(after.valid_to).toBe(NOW);
      expect(after.extra?.['superseded_by']).toBeUndefined();
      const why = await call(s, 'recall.whyNot', { query: after.content, target: a });
      expect(why.superseded).toMatchObject({ by: b, change_id: res.change_id });
    } finally {
      s.close();
    }
  });
});
