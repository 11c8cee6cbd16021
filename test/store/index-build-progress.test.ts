/**
 * Issue 16: a recall that has to build an index first (no current snapshot) builds it in steps, so
 * the process answers `recall.indexBuild` meanwhile (the workbench's progress bar, instead of a bare
 * "Ranking…"); changes made while it builds end up in it; a recall arriving mid-build finishes it.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import type { IndexBuildState } from '../../core/api/contract/recall.js';
import { call } from '../../core/api/service.js';
import { fixedClock } from '../../core/clock.js';
import { generateDemo } from '../../core/demo/generate.js';
import { Engine } from '../../core/engine/engine.js';
import { createMemory, embeddingText } from '../../core/model/memory.js';
import { prepareRecallIndexes } from '../../core/recall/pipeline.js';
import { profileFor } from '../../core/recall/profile.js';
import { keywordIndex } from '../../core/recall/mnemo/stages.js';
import { sidecarPath } from '../../core/store/derived/index-sidecar.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/fixture.js';
import { allMemories } from '../../core/store/queries/memory-lookups.js';

const NOW = 1_780_000_000;
const turn = () => new Promise<void>((r) => setImmediate(r));

let session: ApiSession | null = null;
const engines: Engine[] = [];
afterEach(() => {
  session?.close();
  session = null;
  for (const e of engines.splice(0)) e.close();
});

function demoStore(size: number): string {
  const path = join(tempDir('mnemo-build-'), 'store.sqlite');
  const store = MemoryStore.open(path, { create: true, clock: fixedClock(NOW) });
  generateDemo(store, { size, seed: 5, now: NOW });
  store.close();
  rmSync(sidecarPath(path), { force: true });
  return path;
}

function openEngine(path: string): Engine {
  const engine = Engine.open(path, { clock: fixedClock(NOW), indexSnapshots: { enabled: false } });
  engines.push(engine);
  return engine;
}

const search = (engine: Engine, q: string) => keywordIndex(engine, true).search({ terms: q.split(' '), limit: 50, contextWeight: 0.4 });

describe('index builds in steps, with progress', () => {
  it('answers recall.indexBuild with the keyword index and its rows while recall.explain waits for it', async () => {
    const path = demoStore(6000);
    session = new ApiSession({ clock: fixedClock(NOW), engineOptions: { indexSnapshots: { enabled: false } } });
    session.open(path);
    const s = session;
    const seen: IndexBuildState[] = [];
    let finished = false;
    const explained = call(s, 'recall.explain', { query: 'deploy database', k: 5 }).finally(() => (finished = true));
    while (!finished) {
      seen.push(await call(s, 'recall.indexBuild', {}));
      await turn();
    }
    const answer = await explained;
    expect(answer.rows.length).toBe(5);
    // The answer names the builds it waited for, and the wait for its indexes covers them (issue 37).
    expect(answer.stats.built!.map((b) => b.index)).toContain('recall.mnemo.bm25.porter');
    expect(answer.stats.prepare_ms!).toBeGreaterThanOrEqual(answer.stats.built!.find((b) => b.index === 'recall.mnemo.bm25.porter')!.ms - 1);
    const keyword = seen.map((p) => p.building).filter((b) => b?.index === 'recall.mnemo.bm25.porter');
    // An ETA from the build's own pace once it has one (seconds; null in its first moments).
    for (const b of keyword) expect(b!.eta_s === null || b!.eta_s >= 0).toBe(true);
    expect(keyword.some((b) => b!.done > 0 && b!.done < b!.total)).toBe(true);
    expect(keyword[0]).toMatchObject({ label: 'keyword index', total: keyword[0]!.memories });
    expect(keyword[0]!.memories).toBeGreaterThan(5000);
    expect(await call(s, 'recall.indexBuild', {})).toEqual({ building: null });
  });

  it('patches in what changed during a stepped build, and a get() mid-build finishes it', async () => {
    const path = demoStore(3000);
    const engine = openEngine(path);
    const other = MemoryStore.open(path, { clock: fixedClock(NOW) });
    let pauses = 0;
    let added = '';
    let removed = '';
    await prepareRecallIndexes(engine, profileFor('mnemo'), async () => {
      pauses++;
      if (pauses === 2) {
        // Our own write and another process's, while the keyword index is half tokenized.
        const m = createMemory({ content: 'zyxwv quokka telemetry spike', type: 'info' }, NOW);
        engine.store.add(m, engine.embedder.embedSync!(embeddingText(m)));
        added = m.id;
        removed = allMemories(other).find((o) => /deploy/i.test(o.content))!.id;
        other.setArchived(removed, true);
      }
    });
    expect(pauses).toBeGreaterThan(2);
    expect(search(engine, 'quokka').map((h) => h.id)).toEqual([added]);
    expect(search(engine, 'deploy').map((h) => h.id)).not.toContain(removed);
    const fresh = openEngine(path);
    for (const q of ['quokka', 'deploy database', 'coffee meeting']) expect(search(engine, q)).toEqual(search(fresh, q));
    expect(keywordIndex(engine, true).size).toBe(keywordIndex(fresh, true).size);
    other.close();

    // A recall that cannot wait finishes the stepped build itself.
    const third = openEngine(path);
    let stepping = 0;
    const prepared = prepareRecallIndexes(third, profileFor('mnemo'), async () => {
      stepping++;
      await turn();
    });
    while (stepping < 2) await turn();
    expect(search(third, 'deploy database')).toEqual(search(fresh, 'deploy database'));
    await prepared;
    expect(search(third, 'quokka')).toEqual(search(fresh, 'quokka'));
  });
});
