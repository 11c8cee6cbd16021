/**
 * The Memories view's facet counts agree with the rows a click on them lists: the counts are taken
 * under the list's archived state (they used to count archived rows too: "info 618" over 604 rows).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import { toFacetInput } from '../../renderer/views/memories/facet-scope.js';
import { expected, fixtureCopy } from '../../support/fixture.js';

let session: ApiSession;
afterEach(() => session?.close());

describe('facet counts', () => {
  it.each(['live', 'archived', 'all'] as const)('each type, owner and status count equals the rows listed when it is ticked (%s)', async (archived) => {
    session = ApiSession.withFrozenClock(expected().now as number);
    session.open(fixtureCopy());
    const facets = await call(session, 'memory.facets', toFacetInput({ archived }));
    const listed = async (patch: { types?: string[]; owners?: string[]; statuses?: string[] }) =>
      (await call(session, 'memory.list', { archived, ...(patch as object), limit: 1 })).total;
    const archivedRows = (await call(session, 'memory.list', { archived: 'archived', limit: 1 })).total;
    expect(archivedRows).toBeGreaterThan(0);
    for (const t of facets.types) expect([t.value, await listed({ types: [t.value] })]).toEqual([t.value, t.n]);
    for (const o of facets.owners) expect([o.value, await listed({ owners: [o.value] })]).toEqual([o.value, o.n]);
    for (const s of facets.statuses) expect([s.value, await listed({ statuses: [s.value] })]).toEqual([s.value, s.n]);
  });
});
