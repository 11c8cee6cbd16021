/**
 * A method whose contract changes nothing gets a read session: its handler sees the engine's read
 * side, so a write from it does not compile. The type half is checked by `npm run typecheck` (this
 * file is in tsconfig.json); the runtime half keeps the list of exceptions honest and shows the
 * read handlers running on a store opened read-only.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import type { MethodName } from '../../core/api/contract/index.js';
import { invoke } from '../../core/api/service.js';
import type { Handler, ReadSession, SessionFor } from '../../core/api/handlers/types.js';
import type { EngineReader } from '../../core/engine/engine.js';
import { FIXTURE_STORE, fixtureCopy, tempDir } from '../../support/fixture.js';

/** The read methods that got the writer's session until #15's last step; each now gets the read side. */
const ONCE_ON_THE_WRITER = [
  'beliefs.aliases.list',
  'beliefs.aliases.plan',
  'beliefs.answer',
  'beliefs.config',
  'beliefs.deltas',
  'beliefs.entities',
  'beliefs.entity',
  'beliefs.forMemory',
  'beliefs.get',
  'beliefs.retrieve',
  'curation.duplicates',
  'fleet.choose',
  'fleet.kpis',
  'fleet.list',
  'fleet.open',
  'intents.due',
  'intents.list',
  'journal.progress',
  'memory.mergeOrder',
  'reflect.cancel',
  'reflect.plan',
  'reflect.progress',
  'review.counts',
  'review.items',
  'review.plan',
  'store.info',
  'todos.list',
] as const satisfies readonly MethodName[];
type OnceOnTheWriter = (typeof ONCE_ON_THE_WRITER)[number];

describe('read handlers and the contract\'s mutates flag', () => {
  it('types: a read method\'s session has the read side; a writing method\'s has the writer', () => {
    expectTypeOf<SessionFor<'memory.list'>>().toEqualTypeOf<ReadSession>();
    expectTypeOf<ReturnType<SessionFor<'stats.basic'>['engine']>>().toEqualTypeOf<EngineReader>();
    expectTypeOf<SessionFor<'memory.add'>>().toEqualTypeOf<ApiSession>();
    expectTypeOf<SessionFor<'store.open'>>().toEqualTypeOf<ApiSession>(); // switchesStore
    const reads: Handler<'memory.get'> = (input, session) => {
      const store = session.engine().store;
      // @ts-expect-error -- the read side of the port has no writes: this line must not compile.
      store.archive(input.id);
      // @ts-expect-error -- nor does the session hand out the writer.
      session.open('elsewhere.sqlite');
      throw new Error('never called');
    };
    expect(reads).toBeTypeOf('function');
  });

  it('types: the read methods that once got the writer get the read side too', () => {
    // A union of every method once on the writer: if any of them still got an ApiSession, this
    // would be ApiSession | ReadSession and the line would not compile.
    expectTypeOf<SessionFor<OnceOnTheWriter>>().toEqualTypeOf<ReadSession>();
    expectTypeOf<SessionFor<'beliefs.get'>>().toEqualTypeOf<ReadSession>();
    expectTypeOf<SessionFor<'reflect.plan'>>().toEqualTypeOf<ReadSession>();
    expectTypeOf<SessionFor<'fleet.kpis'>>().toEqualTypeOf<ReadSession>();
    expectTypeOf<SessionFor<'beliefs.configure'>>().toEqualTypeOf<ApiSession>();
    expect(ONCE_ON_THE_WRITER).toHaveLength(27);
  });

  describe('runtime: read handlers run on a store opened read-only, writes are refused there', () => {
    let session: ApiSession;
    afterEach(() => session.close());

    it('runs every method once on the writer, on a read-only store, and leaves its file as it was', async () => {
      const fleet = tempDir('mnemo-read-fleet-');
      copyFileSync(FIXTURE_STORE, join(fleet, 'a.sqlite'));
      const path = fixtureCopy();
      const digest = () => createHash('sha256').update(readFileSync(path)).digest('hex');
      const before = digest();
      session = new ApiSession({ readonly: true, shell: { chooseFolder: async () => fleet } });
      session.open(path);
      const listed = await invoke(session, 'memory.list', { limit: 2 });
      const ids = (listed as { ok: true; value: { rows: { id: string }[] } }).value.rows.map((r) => r.id);
      const review = await invoke(session, 'review.plan', {});
      expect(review.ok, JSON.stringify(review)).toBe(true);
      const planId = (review as { ok: true; value: { id: string } }).value.id;
      const inputs: Record<OnceOnTheWriter, object> = {
        'beliefs.aliases.list': {},
        'beliefs.aliases.plan': {},
        'beliefs.answer': { queries: [{ kind: 'current', id: 'q1', entity: 'Ann Lee', attribute: 'city', at: 1 }], mode: 'hindsight' },
        'beliefs.config': {},
        'beliefs.deltas': { entity: 'Ann Lee', attribute: 'city' },
        'beliefs.entities': {},
        'beliefs.entity': { entity: 'Ann Lee' },
        'beliefs.forMemory': { memory_id: ids[0] },
        'beliefs.get': { entity: 'Ann Lee', attribute: 'city' },
        'beliefs.retrieve': { query: 'where does Ann Lee live' },
        'curation.duplicates': {},
        'fleet.choose': {},
        'fleet.kpis': { name: 'a.sqlite' },
        'fleet.list': {},
        'fleet.open': { folder: fleet },
        'intents.due': {},
        'intents.list': {},
        'journal.progress': {},
        'memory.mergeOrder': { ids },
        'reflect.cancel': {},
        'reflect.plan': {},
        'reflect.progress': {},
        'review.counts': { plan_id: planId },
        'review.items': { plan_id: planId },
        'review.plan': {},
        'store.info': {},
        'todos.list': {},
      };
      for (const method of ONCE_ON_THE_WRITER) {
        const res = await invoke(session, method, inputs[method]);
        expect(res.ok, `${method}: ${JSON.stringify(res)}`).toBe(true);
      }
      session.close();
      expect(digest()).toBe(before);
    });

    it('lists, counts and draws; an add fails with a typed error and writes nothing', async () => {
      session = new ApiSession({ readonly: true });
      session.open(fixtureCopy());
      for (const [method, input] of [
        ['memory.list', {}],
        ['stats.basic', {}],
        ['overview.facets', {}],
        ['graph.view', {}],
        ['journal.history', {}],
      ] as const) {
        const res = await invoke(session, method, input);
        expect(res.ok, `${method}: ${JSON.stringify(res)}`).toBe(true);
      }
      const before = await invoke(session, 'stats.basic', {});
      const add = await invoke(session, 'memory.add', { content: 'refused' });
      expect(add.ok).toBe(false);
      expect(await invoke(session, 'stats.basic', {})).toEqual(before);
    });
  });
});
