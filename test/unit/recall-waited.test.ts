/**
 * A recall through the API says what the call waited for besides the ranking: the time it spent
 * making its indexes ready and the indexes it built meanwhile (stats.prepare_ms, stats.built), so
 * the workbench's timing is the person's wait with the build named, not the ranking's 5 ms.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import { fixtureFileCopy } from '../../support/fixture.js';

let session: ApiSession | null = null;
afterEach(() => {
  session?.close();
  session = null;
});

describe('the time a recall waited', () => {
  it('names the indexes the first call built and counts their time; the next call builds nothing', async () => {
    session = ApiSession.withFrozenClock(1_780_000_000);
    session.open(fixtureFileCopy());
    const first = await call(session, 'recall.explain', { query: 'deploy cache' });
    const labels = first.stats.built!.map((b) => b.label);
    expect(labels).toContain('vector index');
    expect(labels.length).toBeGreaterThan(1);
    expect(first.stats.prepare_ms!).toBeGreaterThanOrEqual(first.stats.built!.reduce((n, b) => n + b.ms, 0) - first.stats.built!.length);
    const second = await call(session, 'recall.run', { query: 'deploy cache' });
    expect(second.stats.built).toEqual([]);
    expect(second.stats.prepare_ms).toBeGreaterThanOrEqual(0);
  });
});
