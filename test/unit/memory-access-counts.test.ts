/**
 * Issue 14 part 6: the memory detail's access counters agree. The retention curve's caption, the
 * access ring's heading, the full history and the fields count from one tally, the creation apart
 * and touching accesses named as such, so no two figures on the page contradict each other.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import { tallyAccesses } from '../../core/forget/access-tally.js';
import { loggedAccessesText, ringText, touchingFieldText } from '../../renderer/views/memory/access-words.js';
import { memoryWithMixedAccesses } from '../helpers/access-mix.js';
import { tempDir } from '../../support/fixture.js';
import { NOW } from '../helpers/recall-store.js';

let session: ApiSession;
afterEach(() => session?.close());

function freshStore(): ApiSession {
  session = ApiSession.withFrozenClock(NOW);
  session.open(join(tempDir('mnemo-access-counts-'), 'store.sqlite'), { create: true });
  return session;
}

describe('the detail view counts accesses one way', () => {
  it('a memory read every way: the curve, the ring, the full history and access_count agree', async () => {
    const s = freshStore();
    await call(s, 'memory.add', { content: 'an unrelated note about lunch' });
    const mix = await memoryWithMixedAccesses(s);
    const { memory: m } = await call(s, 'memory.get', { id: mix.id });
    const curve = await call(s, 'retention.curve', { id: mix.id });
    const history = await call(s, 'access.list', { memory_id: mix.id, channels: ['recalled', 'searched', 'injected', 'reinforced', 'deref', 'reflected'], limit: 100 });

    // The record: touching accesses only, and its per-channel counters add up to them.
    expect(m.access_count).toBe(mix.touching);
    expect(m.recalled_count + m.searched_count + m.reinforced_count + m.deref_count).toBe(m.access_count);
    expect(m.injected_count).toBe(mix.injected);
    // The curve: one marker per access (two recalls in one second are two), the creation apart.
    expect(curve.markers.filter((k) => k.channel === 'recalled')).toHaveLength(2);
    expect(curve.markers.filter((k) => k.channel === 'created')).toHaveLength(1);
    expect(curve.accesses).toMatchObject({ logged: mix.logged, touching: mix.touching, not_touching: mix.injected, touching_in_all: m.access_count, touching_unlogged: 0 });
    expect(curve.accesses.by_channel).toEqual({ recalled: 2, injected: 1, reinforced: 2, deref: 1 });
    // The full history without the creation holds exactly the accesses the curve counts.
    expect(history.total).toBe(curve.accesses.logged);

    // In words: each figure names what it counts, and the numbers are the same ones.
    expect(loggedAccessesText(curve.accesses)).toBe('6 accesses logged, 5 of them touching');
    expect(ringText(m.access_log, 64)).toBe('7 of 64 slots, newest first: the creation and 6 accesses');
    expect(touchingFieldText(m)).toMatch(/^5 \(recalled 2, searched 0, reinforced 2, deref 1\)$/);
  });

  it('says so when the record counts touching accesses that no log holds any more', () => {
    const t = tallyAccesses([{ channel: 'created' }, { channel: 'recalled' }, { channel: 'injected' }], 4);
    expect(t).toMatchObject({ logged: 2, touching: 1, not_touching: 1, touching_in_all: 4, touching_unlogged: 3 });
    expect(loggedAccessesText(t)).toBe('2 accesses logged, 1 of them touching (the record counts 4 touching in all: 3 predate the logs)');
    expect(loggedAccessesText(tallyAccesses([{ channel: 'created' }], 0))).toBe('no access logged');
    expect(loggedAccessesText(tallyAccesses([{ channel: 'recalled' }], 1))).toBe('1 access logged, a touching one');
    expect(loggedAccessesText(tallyAccesses([{ channel: 'injected' }, { channel: 'injected' }], 0))).toBe('2 accesses logged, none touching');
    expect(ringText([{ channel: 'recalled' }], 64)).toBe('1 of 64 slots, newest first: 1 access');
  });
});
