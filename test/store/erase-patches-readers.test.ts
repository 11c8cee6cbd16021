/**
 * An erase beside another process that has the store open: that process sees the erase as
 * ordinary deletes in the change feed and patches its indexes, as for any other process's delete.
 * It used to rebuild every index instead, since the erase named the feed anew (its epoch): at 100k
 * memories, the first recall after an erase waited tens of seconds for that.
 *
 * Patching must not let what was erased back in: the reader's recall, its list search (whose
 * tables in the sidecar the erase edits under it) and the snapshots it writes afterwards hold
 * none of it (its keyword index's vocabulary drops the words no memory holds any more).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import { tempDir } from '../../support/fixture.js';
import { bytesByFile, CANARY, holding, steppingClock } from '../helpers/erase-canary.js';

const START = 1_780_000_000;
const ERASED_OWNER = 'vault@1';

describe('an erase seen by another process that has built its indexes', () => {
  const clock = steppingClock(START);
  const sessions: ApiSession[] = [];
  const open = (path: string, create = false) => {
    const s = new ApiSession({ clock });
    s.open(path, create ? { create: true } : {});
    sessions.push(s);
    return s;
  };
  afterAll(() => {
    for (const s of sessions) s.close();
  });

  it('is patched into its indexes, not rebuilt: recall and the list search no longer find the erased memories, and the snapshots it writes hold none of their words', { timeout: 120_000 }, async () => {
    const dir = tempDir('mnemo-erase-readers-');
    const path = join(dir, 'store.sqlite');
    const writer = open(path, true);
    const erased: string[] = [];
    const kept: string[] = [];
    for (let i = 0; i < 12; i++) {
      clock.step();
      erased.push((await call(writer, 'memory.add', { content: `vault entry ${i}: the door code is ${CANARY} for the harbour depot`, tags: ['depot'], owner: ERASED_OWNER })).id);
      clock.step();
      kept.push((await call(writer, 'memory.add', { content: `harbour depot note ${i}: the crane is serviced on thursdays`, tags: ['depot'], owner: 'crane@1' })).id);
    }
    writer.close(); // leaves index snapshots beside the store
    sessions.splice(sessions.indexOf(writer), 1);

    const reader = open(path);
    const builds: string[] = [];
    reader.engine().indexSnapshots.watch((e) => {
      if (e.phase === 'start') builds.push(e.index);
    });
    const ranked = async (query: string) => (await call(reader, 'recall.explain', { query, k: 30 })).rows.map((r) => r.id);
    // Its indexes are in memory (read from the snapshots or built), and find the memories to erase.
    expect(await ranked(`door code ${CANARY} depot`)).toEqual(expect.arrayContaining(erased));
    expect((await call(reader, 'memory.list', { text: CANARY })).total).toBe(erased.length);
    builds.length = 0;

    const eraser = open(path);
    const receipt = await call(eraser, 'memory.erase', { owner: ERASED_OWNER });
    expect(receipt.memories.total).toBe(erased.length);
    eraser.close();
    sessions.splice(sessions.indexOf(eraser), 1);

    const after = await ranked(`door code ${CANARY} harbour depot`);
    expect(after.filter((id) => erased.includes(id))).toEqual([]);
    expect(after).toEqual(expect.arrayContaining(kept));
    expect((await call(reader, 'memory.list', { text: CANARY })).total).toBe(0);
    // The list search's shared tables lost the erased rows only.
    expect((await call(reader, 'memory.list', { text: 'crane', limit: 50 })).rows.map((r) => r.id).sort()).toEqual([...kept].sort());
    expect(builds, 'the reader rebuilt indexes after the erase instead of patching it in').toEqual([]);

    reader.close(); // writes its patched indexes' snapshots
    sessions.splice(sessions.indexOf(reader), 1);
    expect(readdirSync(`${path}.mnemo-index.parts`).length, 'the reader wrote snapshots of its patched indexes').toBeGreaterThan(0);
    expect(holding(bytesByFile(dir))).toEqual({});
  });
});
