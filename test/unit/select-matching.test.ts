/**
 * Selecting before a bulk action: "select the rows on screen" takes only the rows inside the
 * viewport (not the virtualizer's overscan), and "select all N matching" gets from the engine
 * exactly the ids the list's filters match.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call, invoke } from '../../core/api/service.js';
import { rowsOnScreen } from '../../renderer/views/memories/rows-on-screen.js';
import { expected, fixtureCopy } from '../../support/fixture.js';

let session: ApiSession;
afterEach(() => session?.close());

describe('select the rows on screen', () => {
  it('keeps the rows wholly inside the viewport, not the overscan', () => {
    const ROW = 28;
    // 23 rows fit in 644 px; the virtualizer renders 15 more around them (38 in the DOM).
    const rendered = Array.from({ length: 38 }, (_, k) => ({ index: 100 + k, start: (100 + k) * ROW, end: (101 + k) * ROW }));
    const top = 107 * ROW;
    const on = rowsOnScreen(rendered, top, 23 * ROW);
    expect(on).toHaveLength(23);
    expect(on[0]!.index).toBe(107);
    expect(on[22]!.index).toBe(129);
    // A row cut by the bottom edge is not "on screen".
    expect(rowsOnScreen(rendered, top + 10, 23 * ROW)).toHaveLength(22);
  });
});

describe('memory.ids', () => {
  it('returns every id the list filters match, with the total', async () => {
    session = ApiSession.withFrozenClock(expected().now as number);
    session.open(fixtureCopy());
    const filter = { types: ['info' as const], archived: 'live' as const };
    const listed = await call(session, 'memory.list', { ...filter, limit: 5000 });
    const r = await call(session, 'memory.ids', filter);
    expect(r.total).toBe(listed.total);
    expect(new Set(r.ids)).toEqual(new Set(listed.rows.map((x) => x.id)));
    const word = listed.rows[0]!.head.split(/\s+/)[0]!;
    const byText = await call(session, 'memory.list', { ...filter, text: word, limit: 5000 });
    expect((await call(session, 'memory.ids', { ...filter, text: word })).ids.sort()).toEqual(byText.rows.map((x) => x.id).sort());
    expect((await invoke(session, 'memory.ids', { types: ['nope'] })).ok).toBe(false);
  });
});
