/**
 * A method whose contract changes nothing gets a read session: its handler sees the engine's read
 * side, so a write from it does not compile. The type half is checked by `npm run typecheck` (this
 * file is in tsconfig.json); the runtime half keeps the list of exceptions honest and shows the
 * read handlers running on a store opened read-only.
 */
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { changesWhatViewsShow, METHOD_NAMES } from '../../core/api/contract/index.js';
import { invoke } from '../../core/api/service.js';
import { READ_ON_THE_WRITER, type Handler, type ReadSession, type SessionFor } from '../../core/api/handlers/types.js';
import type { EngineReader } from '../../core/engine/engine.js';
import { fixtureCopy } from '../../support/fixture.js';

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

  it('runtime: every exception to the read side is a real method that changes nothing', () => {
    const all = new Set<string>(METHOD_NAMES);
    for (const m of READ_ON_THE_WRITER) {
      expect(all.has(m), m).toBe(true);
      expect(changesWhatViewsShow(m), m).toBe(false);
    }
    // Most read methods are on the read side: the list is the exception, not the rule.
    const reads = METHOD_NAMES.filter((m) => !changesWhatViewsShow(m));
    expect(READ_ON_THE_WRITER.length).toBeLessThan(reads.length / 2);
  });

  describe('runtime: read handlers run on a store opened read-only, writes are refused there', () => {
    let session: ApiSession;
    afterEach(() => session.close());
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
