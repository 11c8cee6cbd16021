/**
 * Reading a row's access ring (core/store/port/codec.ts): a ring of plain entries, as nooa and
 * Mnemo write them, skips the walk of its whole value (plainRing), and must read exactly as the
 * walk would; any entry that is not plain still gets the walk, so what was beyond the read limits
 * (a deep value, a `__proto__` key, a non-finite number) is still dropped with a warning.
 */
import { describe, expect, it } from 'vitest';
import { decodeRow, encodeData, type MemoryRow } from '../../core/store/port/codec.js';
import { createMemory } from '../../core/model/memory.js';

const NOW = 1_780_000_000;

function rowWithRing(ring: string): MemoryRow {
  const m = createMemory({ id: 'ring-row', type: 'info', content: 'the billing service is owned by Dana' }, NOW);
  // The new memory's ring (its `created` entry) is replaced by the one under test.
  const data = encodeData(m).replace(/"access_log": \[[^\]]*\]/, () => `"access_log": ${ring}`);
  if (!data.includes(ring)) throw new Error('the ring was not planted');
  return { id: m.id, type: m.type, content: m.content, importance: 5, salience: 0, strength: 1, created_at: NOW, last_accessed: NOW, access_count: 0, archived: 0, owner: '', status: null, data };
}

const entry = (ts: number, extra = '') => `{"ts": ${ts}, "channel": "recalled", "reader_owner": "Coder", "session_ref": null, "trace_ref": null, "query": "billing", "score": 0.5, "rank": 1, "components": {"source": "dense", "cos": 0.9, "rel": 1.0, "rec": 0.2, "imp": 0.5, "spread": 0.0}${extra}}`;

describe('reading the access ring', () => {
  it('reads a plain ring whole, legacy bare floats included, with no warning', () => {
    const { memory, warning } = decodeRow(rowWithRing(`[${NOW - 10}, ${entry(NOW - 5)}, ${entry(NOW)}]`), []);
    expect(warning).toBeUndefined();
    expect(memory.access_log.map((r) => [r.ts, r.channel])).toEqual([
      [NOW - 10, 'created'],
      [NOW - 5, 'recalled'],
      [NOW, 'recalled'],
    ]);
    expect(memory.access_log[2]!.components).toMatchObject({ source: 'dense', cos: 0.9 });
  });

  it('still drops a ring with a component nested beyond the limits, and says so', () => {
    const deep = `${'['.repeat(80)}1${']'.repeat(80)}`;
    const { memory, warning } = decodeRow(rowWithRing(`[${entry(NOW - 5)}, ${entry(NOW).replace('"spread": 0.0}', `"spread": 0.0, "extra": ${deep}}`)}]`), []);
    expect(warning).toMatch(/access_log is beyond the limits/);
    expect(memory.access_log).toEqual([]);
    expect(memory.content).toBe('the billing service is owned by Dana');
  });

  it('still drops a ring with a __proto__ key or a value nested beyond the limits outside the components', () => {
    const proto = decodeRow(rowWithRing(`[${entry(NOW).replace('"components"', '"__proto__": {"polluted": 1}, "components"')}]`), []);
    expect(proto.warning).toMatch(/access_log is beyond the limits/);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    const deep = decodeRow(rowWithRing(`[${entry(NOW, `, "note": ${'{"a": '.repeat(70)}1${'}'.repeat(70)}`)}]`), []);
    expect(deep.warning).toMatch(/access_log is beyond the limits/);
    expect(deep.memory.access_log).toEqual([]);
  });
});
