/**
 * A reflection apply on PostgreSQL beside a writer on another connection (issue #17). On SQLite a
 * batch of the apply holds the store's one write lock, so an op's read of a memory and its write
 * of it cannot be separated; on PostgreSQL another connection could commit in between, and the op
 * would write back what it computed from the older row, losing that write without a word.
 *
 * The other connection connects with a short lock_timeout (both share this process's one thread,
 * so a wait for a lock the apply holds would never end): a wait shows up as its `busy` error.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { generateDemo } from '../../core/demo/generate.js';
import { MnemoError } from '../../core/errors.js';
import type { Memory } from '../../core/model/memory.js';
import { applyPlan } from '../../core/reflect/apply.js';
import { planReflection } from '../../core/reflect/plan.js';
import { copyStore } from '../../core/store/copy/copy-stores.js';
import { PgStore } from '../../core/store/pg/pg-store.js';
import { SyncPg } from '../../core/store/pg/sync-pg.js';
import { tempDir } from '../../support/fixture.js';
import { pgUnavailable, startPg, type PgServer } from '../../support/pg-cluster.js';
import { openAt } from '../../support/reflect.js';
import { errorOf } from '../helpers/mnemo-error.js';

const NOW = 1_780_000_000;
const SCHEMA = 'pgrace_apply';
const unavailable = pgUnavailable();

describe('a reflection apply on PostgreSQL beside another writer', () => {
  let server: PgServer | null = null;
  const url = (extra = '') => `${server!.url}${server!.url.includes('?') ? '&' : '?'}schema=${SCHEMA}${extra}`;

  beforeAll(() => {
    if (unavailable) return;
    server = startPg();
    const admin = SyncPg.connect(server.url);
    admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    admin.close();
  }, 120_000);

  afterAll(() => server?.stop());

  it('an op holds the memory it read until its batch commits: the other write waits, and is not lost', async (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const path = join(tempDir('mnemo-pgapply-'), 'planned.sqlite');
    const planned = openAt(path, NOW, true);
    generateDemo(planned.store, { size: 150, seed: 7, now: NOW });
    const plan = await planReflection(planned);
    planned.close();
    copyStore(path, url());

    const engine = openAt(url(), NOW);
    const other = PgStore.open(url('&options=-c%20lock_timeout%3D300'), { clock: fixedClock(NOW) });
    try {
      const store = engine.store as unknown as { save(m: Memory): void };
      const save = store.save.bind(store);
      let edited: string | null = null;
      let theirs = null as MnemoError | null;
      // The first memory the apply writes back: the other connection edits it between the op's read and its write.
      store.save = (m: Memory) => {
        if (edited === null) {
          edited = m.id;
          theirs = errorOf(() => other.change('agent edit', 'test', () => other.save({ ...other.get(m.id)!, content: 'written by the agent' })));
        }
        save(m);
      };
      const res = await applyPlan(engine, plan, { pacing: { maxBatchItems: 10, pauseMs: 0 } });
      expect(edited).not.toBeNull();
      // The agent's write waited for the batch (and gave up after its timeout) instead of being overwritten.
      expect(theirs?.code).toBe('busy');
      expect(res.change_id).not.toBeNull();
      // Once the batch committed it goes through, on top of what the apply wrote; undoing the apply now finds it.
      other.change('agent edit', 'test', () => other.save({ ...other.get(edited!)!, content: 'written by the agent' }));
      expect(engine.store.get(edited!)!.content).toBe('written by the agent');
      expect(errorOf(() => engine.store.journal.undo(res.change_id!))?.code).toBe('conflict');
    } finally {
      other.close();
      engine.close();
    }
  }, 120_000);
});
