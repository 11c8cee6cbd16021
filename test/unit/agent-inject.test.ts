import { describe, expect, it } from 'vitest';
import { DEFAULT_SPONTANEOUS, InjectionGate, deriveQueries, memoryLabel, renderBlock, selectBlock, truncateBlock } from '../../core/agent/inject.js';
import type { ResolvedRef } from '../../core/agent/references.js';
import { createMemory, type Memory } from '../../core/model/memory.js';
import { T0 } from '../helpers/agents.js';

const mem = (id: string, content: string, extra: Partial<Memory> = {}) => createMemory({ id: id.padEnd(32, '0'), content, ...extra }, T0);
const noRefs = () => [] as ResolvedRef[];
const live = (spec: string, value: string): ResolvedRef => ({ spec, kind: 'var', key: spec.slice(4), status: 'LIVE', value, preview: null, captured_at: T0 });

describe('the injection block', () => {
  const info = mem('aaaaaaaa', 'deploys use scripts/deploy.sh');
  const todo = mem('bbbbbbbb', 'fix the flaky test', { type: 'todo' });
  const todo2 = mem('cccccccc', 'unrelated chore', { type: 'todo', importance: 9 });

  it('labels memories [type#id8] and todos [todo:status#id8]', () => {
    expect(memoryLabel(info)).toBe('[info#aaaaaaaa]');
    expect(memoryLabel(todo)).toBe('[todo:open#bbbbbbbb]');
  });

  it('renders the header, lines and up to four reference lines', () => {
    const refs = [1, 2, 3, 4, 5].map((i) => live(`var:v${i}`, `value ${i}`));
    const text = renderBlock({ shown: [info, todo], extraTodos: [] }, (m) => (m === info ? refs : []), 2000);
    expect(text.split('\n')).toEqual([
      '## Recalled memories (associative)',
      '- [info#aaaaaaaa] deploys use scripts/deploy.sh',
      '    ref var:v1 (LIVE) → value 1',
      '    ref var:v2 (LIVE) → value 2',
      '    ref var:v3 (LIVE) → value 3',
      '    ref var:v4 (LIVE) → value 4',
      '- [todo:open#bbbbbbbb] fix the flaky test',
    ]);
  });

  it('"always" adds an Open todos section with the todos not already shown; "off" drops todos; "relevant" treats them as memories', () => {
    const always = selectBlock([info, todo], [todo2, todo], { ...DEFAULT_SPONTANEOUS, inject_open_todos: 'always' }, 5);
    expect(always.extraTodos.map((m) => m.id)).toEqual([todo2.id]);
    expect(renderBlock(always, noRefs, 2000)).toContain('## Open todos\n- [todo:open#cccccccc] unrelated chore');
    const off = selectBlock([info, todo], [todo2], { ...DEFAULT_SPONTANEOUS, inject_open_todos: 'off' }, 5);
    expect(off).toEqual({ shown: [info], extraTodos: [] });
    const relevant = selectBlock([info, todo], [todo2], DEFAULT_SPONTANEOUS, 5);
    expect(relevant).toEqual({ shown: [info, todo], extraTodos: [] });
    expect(selectBlock([info, todo], [], DEFAULT_SPONTANEOUS, 1).shown).toEqual([info]);
    expect(renderBlock({ shown: [], extraTodos: [] }, noRefs, 2000)).toBe('');
  });

  it('truncates to the character budget with " …"', () => {
    expect(truncateBlock('abc', 3)).toBe('abc');
    expect(truncateBlock('abcdef', 3)).toBe('abc …');
    expect(truncateBlock('ab   cdef', 4)).toBe('ab …');
    const many = Array.from({ length: 80 }, (_, i) => mem(String(i).padStart(8, '0'), `memory number ${i} with a reasonably long head line`));
    const text = renderBlock({ shown: many, extraTodos: [] }, noRefs, 2000);
    expect([...text].length).toBeLessThanOrEqual(2002);
    expect(text.endsWith(' …')).toBe(true);
  });
});

describe('cadence', () => {
  it('every_turn always injects; self_gated only when the query changes; per_task once per task', () => {
    const g = new InjectionGate();
    expect(g.shouldInject('every_turn', ['q'])).toBe(true);
    g.commit(['q']);
    expect(g.shouldInject('every_turn', ['q'])).toBe(true);

    const s = new InjectionGate();
    expect(s.shouldInject('self_gated', ['q1'])).toBe(true);
    s.commit(['q1']);
    expect(s.shouldInject('self_gated', ['q1'])).toBe(false);
    expect(s.shouldInject('self_gated', ['q2'])).toBe(true);

    const p = new InjectionGate();
    expect(p.shouldInject('per_task', ['a'], 't1')).toBe(true);
    p.commit(['a']);
    expect(p.shouldInject('per_task', ['b'], 't1')).toBe(false);
    expect(p.shouldInject('per_task', ['b'], 't2')).toBe(true);
    p.commit(['b']);
    p.resetTask();
    expect(p.shouldInject('per_task', ['b'])).toBe(true);
    expect(p.shouldInject('every_turn', [])).toBe(false);
  });

  it('derives de-duplicated, non-blank queries from the message or explicit queries', () => {
    expect(deriveQueries({ message: '  hi  ' })).toEqual(['hi']);
    expect(deriveQueries({ message: 'ignored', queries: ['a', 'a', ' ', 'b'] })).toEqual(['a', 'b']);
    expect(deriveQueries({})).toEqual([]);
  });
});
