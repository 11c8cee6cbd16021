import { describe, expect, it } from 'vitest';
import { parentSpread, siblingSpread, type SiblingGraph } from '../../core/recall/mnemo/stages.js';

function graph(parents: Record<string, string[]>, hidden: string[] = []): SiblingGraph {
  const children = new Map<string, string[]>();
  for (const [c, ps] of Object.entries(parents)) for (const p of ps) children.set(p, [...(children.get(p) ?? []), c]);
  return {
    parentsOf: (id) => parents[id] ?? [],
    childrenOf: (p) => children.get(p) ?? [],
    visible: (id) => !hidden.includes(id),
  };
}

describe('mnemo sibling spread', () => {
  it('gives every child of a candidate’s parent weight × the best candidate base score under that parent', () => {
    const g = graph({ a: ['S'], b: ['S'], c: ['S'], d: ['T'] });
    const r = siblingSpread(new Map([['a', 1], ['b', 0.4], ['d', 0]]), 0.5, 64, g);
    expect(Object.fromEntries(r.spread)).toEqual({ a: 0.5, b: 0.5, c: 0.5 });
    expect(r.paths.get('c')).toEqual([{ from: 'S', edge_type: 'part_of', weight: 1, hop: 1, type_factor: 0.5, from_activation: 1, contrib: 0.5, via: 'sibling' }]);
  });

  it('never relays through an invisible parent nor into an invisible child (owner scope, archived)', () => {
    const g = graph({ a: ['S', 'T'], b: ['S'], c: ['T'], x: ['T'] }, ['S', 'x']);
    const r = siblingSpread(new Map([['a', 1]]), 1, 64, g);
    expect(Object.fromEntries(r.spread)).toEqual({ a: 1, c: 1 });
  });

  it('skips hub parents and does nothing when off', () => {
    const g = graph({ a: ['S'], b: ['S'], c: ['S'] });
    expect(siblingSpread(new Map([['a', 1]]), 1, 2, g).spread.size).toBe(0);
    expect(siblingSpread(new Map([['a', 1]]), 0, 64, g).spread.size).toBe(0);
  });
});

describe('mnemo parent spread', () => {
  it('gives every visible child of a candidate parent weight × that parent’s own base score, with a parent path', () => {
    const g = graph({ a: ['S'], b: ['S'], c: ['S'], d: ['T'], e: ['U'] }, ['c', 'U']);
    // S and U are candidates (U hidden: it relays nothing); a is a candidate child, not a parent.
    const r = parentSpread(new Map([['S', 0.8], ['a', 1], ['U', 2]]), 0.5, 64, g);
    expect(Object.fromEntries(r.spread)).toEqual({ a: 0.4, b: 0.4 });
    expect(r.paths.get('b')).toEqual([{ from: 'S', edge_type: 'part_of', weight: 1, hop: 1, type_factor: 0.5, from_activation: 0.8, contrib: 0.4, via: 'parent' }]);
  });

  it('skips hub parents, parents scoring 0 or less, and does nothing when off', () => {
    const g = graph({ a: ['S'], b: ['S'], c: ['S'] });
    expect(parentSpread(new Map([['S', 1]]), 1, 2, g).spread.size).toBe(0);
    expect(parentSpread(new Map([['S', 0]]), 1, 64, g).spread.size).toBe(0);
    expect(parentSpread(new Map([['S', 1]]), 0, 64, g).spread.size).toBe(0);
  });
});
