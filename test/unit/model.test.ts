import { describe, expect, it } from 'vitest';
import { CAUSAL_EDGE_TYPES, EDGE_TYPES, MEMORY_TYPES } from '../../core/model/enums.js';
import {
  accessRecord,
  addEdge,
  createMemory,
  cueSet,
  embeddingText,
  logAccess,
  memoryHead,
  memoryRepr,
  toStatus,
} from '../../core/model/memory.js';
import { ownerMatches, ownerProblem, parseOwnerScope, roleOf, validateOwner } from '../../core/model/owner.js';
import { toLabel, toNumeric } from '../../core/model/ladders.js';

const NOW = 1_780_000_000;

describe('Memory record', () => {
  it('has the seven types and ten edge types with the causal set', () => {
    expect(MEMORY_TYPES).toEqual(['info', 'skill', 'episode', 'intent', 'todo', 'reflection', 'scratch']);
    expect(EDGE_TYPES).toHaveLength(10);
    expect(EDGE_TYPES).toContain('triggers');
    expect([...CAUSAL_EDGE_TYPES].sort()).toEqual(['causes', 'created_by', 'derived_from', 'refines']);
  });

  it('derives size fields, seeds the created entry and applies defaults', () => {
    const m = createMemory({ content: 'One. Two! Three?' }, NOW);
    expect(m.id).toMatch(/^[0-9a-f]{32}$/);
    expect(m.type).toBe('info');
    expect(m.size_chars).toBe(16);
    expect(m.token_len).toBe(4);
    expect(m.sentence_count).toBe(3);
    expect(m.access_log).toEqual([accessRecord(NOW, 'created')]);
    expect(m.archived).toBe(false);
    expect(m.importance).toBe(5);
    expect(m.confidence).toBe(0.5);
  });

  it('keeps explicit structural fields and counts code points like Python', () => {
    expect(createMemory({ content: 'abc', size_chars: 99 }, NOW).size_chars).toBe(99);
    expect(createMemory({ content: '😀😀😀😀' }, NOW).size_chars).toBe(4);
    expect(createMemory({ content: 'no punctuation' }, NOW).sentence_count).toBe(1);
    expect(createMemory({ content: 'poetry.lock is a file...' }, NOW).sentence_count).toBe(2);
  });

  it('enforces the todo status rule', () => {
    expect(createMemory({ content: 'x', type: 'todo' }, NOW).status).toBe('open');
    expect(() => createMemory({ content: 'x', type: 'info', status: 'open' }, NOW)).toThrow(/only valid on todo/);
    expect(() => createMemory({ content: 'x', type: 'todo', status: 'later' as never }, NOW)).toThrow(/invalid todo status/);
    expect(toStatus('DONE')).toBe('done');
    expect(() => toStatus('finished')).toThrow(/OPEN \| DONE \| DROPPED/);
  });

  it('builds embedding text and cue sets the reference way', () => {
    const m = createMemory({ content: 'body', title: 'Title', tags: ['CI Pipeline', 'deploy'], entities: ['Gateway'], place_or_task: 'Ops' }, NOW);
    expect(embeddingText(m)).toBe('Title\nbody\nCI Pipeline deploy\nGateway');
    expect(embeddingText(createMemory({ content: 'only' }, NOW))).toBe('only');
    expect([...cueSet(m)].sort()).toEqual(['ci pipeline', 'deploy', 'gateway', 'ops']);
  });

  it('de-duplicates edges on (target, type), keeping the larger weight', () => {
    const m = createMemory({ content: 'x' }, NOW);
    expect(addEdge(m, 'b', 'related', 0.3, NOW)).toBe(true);
    expect(addEdge(m, 'b', 'related', 0.2, NOW)).toBe(false);
    expect(addEdge(m, 'b', 'related', 0.9, NOW)).toBe(true);
    expect(addEdge(m, 'b', 'causes', 0.5, NOW)).toBe(true);
    expect(m.edges.map((e) => [e.target_id, e.type, e.weight])).toEqual([
      ['b', 'related', 0.9],
      ['b', 'causes', 0.5],
    ]);
    expect(() => addEdge(m, 'c', 'related', 1.5, NOW)).toThrow(/outside/);
  });

  it('logs accesses into a ring of 64 with uncapped counters', () => {
    const m = createMemory({ content: 'x' }, NOW);
    for (let i = 0; i < 100; i++) logAccess(m, accessRecord(NOW + i + 1, 'recalled'));
    expect(m.access_log).toHaveLength(64);
    expect(m.recalled_count).toBe(100);
    expect(m.access_count).toBe(100);
    expect(m.strength).toBe(101);
    expect(m.last_accessed_at).toBe(NOW + 100);
    expect(m.access_log[0]!.ts).toBe(NOW + 37);
  });

  it('never touches on injection and honours reinforce=false', () => {
    const m = createMemory({ content: 'x' }, NOW);
    logAccess(m, accessRecord(NOW + 10, 'injected'));
    expect(m).toMatchObject({ injected_count: 1, strength: 1, access_count: 0, last_accessed_at: NOW });
    logAccess(m, accessRecord(NOW + 20, 'reinforced'), { reinforce: false });
    expect(m).toMatchObject({ reinforced_count: 1, strength: 1, access_count: 1, last_accessed_at: NOW + 20 });
    logAccess(m, accessRecord(NOW + 30, 'deref'));
    expect(m).toMatchObject({ deref_count: 1, strength: 2, access_count: 2 });
  });

  it('keeps the repr short and the head to 120 characters', () => {
    const m = createMemory({ content: 'x'.repeat(22_000) }, NOW);
    expect(memoryRepr(m).length).toBeLessThan(500);
    expect(memoryRepr(m)).toContain(m.id.slice(0, 8));
    expect(memoryHead(createMemory({ content: 'a\nb '.repeat(100) }, NOW))).toHaveLength(120);
    expect(memoryHead(createMemory({ content: 'c', title: 'T\nitle' }, NOW))).toBe('T itle');
  });
});

describe('owners', () => {
  it('validates role@instance strings', () => {
    expect(ownerProblem('')).toBeNull();
    expect(ownerProblem('Planner')).toBeNull();
    expect(ownerProblem('Planner@a1')).toBeNull();
    for (const bad of ['Plan%ner', 'Plan_ner', 'role@in@stance', '@lonely', 'role@@x', 'role@x_y']) {
      expect(ownerProblem(bad), bad).not.toBeNull();
      expect(() => validateOwner(bad)).toThrow(/owner/);
    }
  });

  it('matches scopes: null, role, instance, unowned and bare-role rows', () => {
    expect(roleOf('Coder@c3')).toBe('Coder');
    const table: [string, string | null, boolean][] = [
      ['Coder@c3', null, true],
      ['', 'Planner@a1', true],
      ['Planner@a1', 'Planner@a1', true],
      ['Planner@b2', 'Planner@a1', false],
      ['Planner@b2', 'Planner', true],
      ['Planner', 'Planner', true],
      ['Planner', 'Planner@a1', false],
      ['Coder@c3', 'Planner', false],
    ];
    for (const [row, scope, want] of table) {
      expect(ownerMatches(row, scope), `${row} in ${scope}`).toBe(want);
    }
    expect(ownerMatches('planner@x', 'Planner')).toBe(false);
  });

  it('parses scopes: absent and * mean everyone, malformed is an error', () => {
    expect(parseOwnerScope(undefined)).toBeNull();
    expect(parseOwnerScope('*')).toBeNull();
    expect(parseOwnerScope('Coder')).toBe('Coder');
    expect(() => parseOwnerScope('Co%der')).toThrow(/scope/);
    expect(() => parseOwnerScope('')).toThrow(/empty/);
  });
});

describe('verbal ladders', () => {
  it('maps labels to numbers and raises on unknown labels', () => {
    expect(toNumeric('importance', 'CRITICAL')).toBe(10);
    expect(toNumeric('importance', 'medium')).toBe(5);
    expect(toNumeric('salience', 'NONE')).toBe(0);
    expect(toNumeric('confidence', 'TENTATIVE')).toBe(0.5);
    expect(toNumeric('edge_weight', 'STRONG')).toBe(1);
    expect(() => toNumeric('importance', 'HUGE')).toThrow(/unknown importance label/);
  });

  it('labels the nearest band with ties going up', () => {
    expect(toLabel('importance', 1)).toBe('TRIVIAL');
    expect(toLabel('importance', 9.5)).toBe('CRITICAL');
    expect(toLabel('importance', 9)).toBe('CRITICAL');
    expect(toLabel('importance', 4)).toBe('MEDIUM');
    expect(toLabel('salience', 0)).toBe('NONE');
    expect(toLabel('confidence', 0.5)).toBe('TENTATIVE');
    const order = Array.from({ length: 101 }, (_, i) => toNumeric('importance', toLabel('importance', i / 10)));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });
});
