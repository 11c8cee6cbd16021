import { describe, expect, it } from 'vitest';
import { parseObservationsJsonl } from '../../core/beliefs/observation.js';
import { MnemoError } from '../../core/errors.js';
import { freshEngine, NOW } from '../helpers/beliefs.js';

const good = (over: Record<string, unknown> = {}) => JSON.stringify({ entity: 'Ada Osei', attribute: 'city', value: 'Lyon', t: 1700000000, reliability: 0.9, ...over });

function failure(text: string): MnemoError {
  try {
    parseObservationsJsonl(text);
  } catch (err) {
    return err as MnemoError;
  }
  throw new Error('expected the ingest to fail');
}

describe('bad input is rejected with its line number', () => {
  it.each([
    ['a missing field', JSON.stringify({ entity: 'Ada Osei', attribute: 'city', t: 1700000000, reliability: 0.9 }), /line 3: value: value is missing/],
    ['a reliability above 1', good({ reliability: 1.5 }), /line 3: reliability: reliability must be within \[0, 1\]/],
    ['a negative reliability', good({ reliability: -0.1 }), /line 3: reliability: reliability must be within \[0, 1\]/],
    // JSON has no Infinity literal, but 1e400 parses to it
    ['a time that is not finite', good().replace('1700000000', '1e400'), /line 3: t: t must be a finite number/],
    ['a null time', good({ t: null }), /line 3: t: t must be a number/],
    ['a time that is not a number', good({ t: 'yesterday' }), /line 3: t: t must be a number/],
    ['an empty value', good({ value: '' }), /line 3: value: value is empty/],
    ['a blank value', good({ value: '   ' }), /line 3: value: value is empty/],
    ['text that is not JSON', '{"entity": ', /line 3: not valid JSON/],
  ])('%s', (_what, bad, message) => {
    const err = failure([good(), '', bad, good()].join('\n'));
    expect(err).toBeInstanceOf(MnemoError);
    expect(err.code).toBe('bad_input');
    expect(err.message).toMatch(message);
    expect(err.details).toEqual({ line: 3 });
  });

  it('accepts good lines, skipping blank ones, and keeps their line numbers', () => {
    const list = parseObservationsJsonl(`${good()}\n\n${good({ value: 'Porto', reliability: null })}\n`);
    expect(list.map((o) => [o.line, o.value, o.reliability])).toEqual([
      [1, 'Lyon', 0.9],
      [3, 'Porto', null],
    ]);
  });
});

describe('nothing from a failing ingest persists', () => {
  it('a bad line leaves no delta, no dimension and no evidence', async () => {
    const { engine, model } = freshEngine();
    const { invoke } = await import('../../core/api/service.js');
    const { ApiSession } = await import('../../core/api/context.js');
    const session = new ApiSession();
    session.adopt(engine);
    const ok = await invoke(session, 'beliefs.ingest', { jsonl: `${good()}\n` });
    expect(ok.ok).toBe(true);
    const before = model.tables.counts();
    const res = await invoke(session, 'beliefs.ingest', { jsonl: [good({ value: 'Porto' }), good({ value: 'Seoul' }), good({ reliability: 2 })].join('\n') });
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.error.message).toMatch(/line 3/);
    expect(model.tables.counts()).toEqual(before);
    expect(model.tables.searchEvidence('"porto"', 10)).toEqual([]);
    session.close();
  });

  it('a memory_id naming no memory fails the whole batch, naming the line', () => {
    const { engine, model } = freshEngine();
    const list = parseObservationsJsonl([good(), good({ memory_id: 'no-such-memory' })].join('\n'));
    expect(() => model.ingest(list, NOW)).toThrow(/line 2: memory_id no-such-memory names no memory/);
    expect(model.tables.counts().deltas).toBe(0);
    engine.close();
  });

  it('an error inside the write transaction rolls back every delta', () => {
    const { engine, model } = freshEngine();
    const list = parseObservationsJsonl([good(), good({ value: 'Porto' })].join('\n'));
    const tables = model.tables as unknown as { putDimension: () => void };
    const original = tables.putDimension;
    tables.putDimension = () => {
      throw new Error('disk full');
    };
    expect(() => model.ingest(list, NOW)).toThrow('disk full');
    tables.putDimension = original;
    expect(model.tables.counts().deltas).toBe(0);
    engine.close();
  });
});
