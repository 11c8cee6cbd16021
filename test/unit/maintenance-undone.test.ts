/**
 * An undone reflection pass stays in nooa's maintenance log (the table is nooa's), but the Overview's
 * maintenance list and Fleet's "last maintenance" say it was undone instead of showing it as applied.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import { expected, FIXTURE_STORE, tempDir } from '../../support/fixture.js';

const NOW = expected().now as number;
let session: ApiSession;
afterEach(() => session?.close());

describe('undone reflection passes', () => {
  it('show as undone in the maintenance list and in Fleet, and as applied again after redo', async () => {
    const dir = tempDir('mnemo-maint-');
    const path = join(dir, 'run.sqlite');
    copyFileSync(FIXTURE_STORE, path);
    session = ApiSession.withFrozenClock(NOW, { shell: { fleetPathFromApi: true } });
    session.open(path);
    await call(session, 'fleet.open', { folder: dir });
    const plan = await call(session, 'reflect.plan', { until: 'merge' });
    const applied = await call(session, 'reflect.apply', { plan_id: plan.id });
    const before = (await call(session, 'overview.maintenance', { limit: 5 })).rows;
    expect(before.map((r) => [r.kind, r.state, r.change_id])).toEqual([['reflect', 'applied', applied.change_id]]);

    await call(session, 'journal.undo', { change_id: applied.change_id! });
    const after = (await call(session, 'overview.maintenance', { limit: 5 })).rows;
    expect(after.map((r) => [r.kind, r.state])).toEqual([['reflect', 'undone']]);
    expect((await call(session, 'fleet.kpis', { name: 'run.sqlite' })).last_maintenance).toMatchObject({ kind: 'reflect', state: 'undone' });

    await call(session, 'journal.redo', { change_id: applied.change_id! });
    expect((await call(session, 'overview.maintenance', { limit: 5 })).rows.map((r) => r.state)).toEqual(['applied']);
  });
});
