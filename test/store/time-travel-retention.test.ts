/**
 * Time travel beside the feed's retention: history reaches back to what retention kept
 * (feed_history_from), an instant between the access horizon and that is still shown (content,
 * edges, archive state exact; the access fields not, and store.asOf says so), and an earlier one is
 * refused with the earliest instant.
 */
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../core/clock.js';
import { accessRecord, createMemory } from '../../core/model/memory.js';
import { openStoreAsOf, openStoreAt } from '../../core/store/open-location.js';
import { freshStorePath } from '../helpers/agents.js';

const DAY = 86_400;
const T0 = 1_780_000_000;

describe('time travel and feed retention', () => {
  it('reaches back to what retention kept, and says when the access fields are not exact', async () => {
    const clock: Clock & { t: number } = { t: T0, now: () => clock.t };
    // A file, or on PostgreSQL (the postgres project) an empty schema.
    const path = freshStorePath();
    const store = openStoreAt(path, { create: true, clock, onWarning: () => {} });
    const m = createMemory({ content: 'day 0' }, T0);
    store.add(m, null);
    clock.t = T0 + 10 * DAY;
    store.save({ ...store.get(m.id)!, content: 'day 10' });
    clock.t = T0 + 20 * DAY;
    store.logAccesses([{ id: m.id, record: accessRecord(clock.t, 'recalled') }]);
    clock.t = T0 + 100 * DAY;
    store.save({ ...store.get(m.id)!, content: 'day 100' });
    store.logAccesses([{ id: m.id, record: accessRecord(clock.t, 'recalled') }]);
    // Defaults: 90 days of history, 14 of accesses. At day 105 the add and the day-10 edit go (older than 90 days), and the day-20 access.
    clock.t = T0 + 105 * DAY;
    await store.runs.pruneFeed(clock.now());

    const earliest = store.asOf(T0 + 50 * DAY).earliest;
    expect(earliest).toBe(T0 + 10 * DAY);
    expect(() => store.asOf(T0 + 5 * DAY)).toThrow(expect.objectContaining({ code: 'bad_input', details: expect.objectContaining({ reason: 'before_history', earliest }) }));

    // Day 15: after the oldest change kept, before the newest access retention removed (day 20).
    const past = openStoreAsOf(path, T0 + 15 * DAY, { onWarning: () => {} });
    try {
      expect(past.history).toMatchObject({ access_fields_exact: false, live: false });
      const then = past.get(m.id)!;
      expect(then.content).toBe('day 10');
      // The day-20 access is gone from the feed, so it cannot be rolled back: the ring as of day 15 still holds it.
      expect(then.access_log.map((r) => r.ts)).toContain(T0 + 20 * DAY);
    } finally {
      past.close();
    }
    // Day 50: every change after it is still in the feed, the accesses too.
    const later = openStoreAsOf(path, T0 + 50 * DAY, { onWarning: () => {} });
    try {
      expect(later.history!.access_fields_exact).toBe(true);
      const ring = later.get(m.id)!.access_log.map((r) => r.ts);
      expect(ring).toContain(T0 + 20 * DAY);
      expect(ring).not.toContain(T0 + 100 * DAY);
    } finally {
      later.close();
    }
    store.close();
  });
});
