import { describe, expect, it } from 'vitest';
import { EDGE_TYPES } from '../../core/model/enums.js';
import { labelledNodes, MAX_LABELS } from '../../renderer/graph/labels.js';
import { recallHighlight } from '../../renderer/graph/recallPaths.js';
import { EDGE_LOOKS, graphStyle } from '../../renderer/graph/style.js';

describe('graph labels', () => {
  const hubNodes = [{ id: 'hub', importance: 5 }, ...Array.from({ length: 279 }, (_, i) => ({ id: `n${i}`, importance: i % 10 }))];
  const hubEdges = Array.from({ length: 279 }, (_, i) => (i % 2 ? { src: 'hub', dst: `n${i}` } : { src: `n${i}`, dst: 'hub' }));

  it('labels the centre and its most important neighbours (either direction), no more than the cap', () => {
    const ids = labelledNodes(hubNodes, hubEdges, 'hub');
    expect(ids[0]).toBe('hub');
    expect(ids.length).toBe(MAX_LABELS);
    const importance = new Map(hubNodes.map((n) => [n.id, n.importance]));
    for (const id of ids.slice(1)) expect(importance.get(id)).toBe(9);
  });

  it('labels every neighbour of a small neighbourhood, and nothing that is not a neighbour', () => {
    const nodes = [
      { id: 'a', importance: 1 },
      { id: 'b', importance: 2 },
      { id: 'c', importance: 3 },
      { id: 'far', importance: 9 },
    ];
    const edges = [
      { src: 'a', dst: 'b' },
      { src: 'c', dst: 'a' },
      { src: 'b', dst: 'far' },
    ];
    expect(labelledNodes(nodes, edges, 'a')).toEqual(['a', 'c', 'b']);
  });

  it('without a centre, names a few of the most important nodes as landmarks', () => {
    const ids = labelledNodes(hubNodes, hubEdges, null);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.length).toBeLessThan(MAX_LABELS);
    expect(labelledNodes(hubNodes, hubEdges, 'not-drawn')).toEqual(ids);
  });
});

describe('edge types told apart', () => {
  it('every edge type has its own colour and its own line + arrow combination', () => {
    for (const t of EDGE_TYPES) expect(EDGE_LOOKS[t], t).toBeDefined();
    const looks = EDGE_TYPES.map((t) => EDGE_LOOKS[t]!);
    expect(new Set(looks.map((l) => l.color)).size).toBe(EDGE_TYPES.length);
    expect(new Set(looks.map((l) => `${l.line} ${l.arrow}`)).size).toBe(EDGE_TYPES.length);
    // The three the issue found drawn alike.
    const three = (['refines', 'causes', 'derived_from'] as const).map((t) => EDGE_LOOKS[t]!);
    expect(new Set(three.map((l) => l.color)).size).toBe(3);
    expect(new Set(three.map((l) => l.arrow)).size).toBe(3);
  });

  it('the stylesheet draws each type with its look, in both themes', () => {
    for (const dark of [false, true]) {
      const sheet = graphStyle(dark) as { selector: string; style: Record<string, unknown> }[];
      for (const t of EDGE_TYPES) {
        const rule = sheet.find((r) => r.selector === `edge[type = "${t}"]`);
        expect(rule, t).toBeDefined();
        expect(rule!.style['line-color']).toBe(EDGE_LOOKS[t]!.color);
        expect(rule!.style['line-style']).toBe(EDGE_LOOKS[t]!.line);
        expect(rule!.style['target-arrow-shape']).toBe(EDGE_LOOKS[t]!.arrow);
      }
      expect(sheet.find((r) => r.selector === 'node.focus')?.style['underlay-opacity']).toBeGreaterThan(0);
    }
  });
});

describe('recall paths highlight', () => {
  it('covers every ranked memory and every edge that fed one, in the direction it is stored', () => {
    const hl = recallHighlight({
      rows: [{ id: 'r1' }, { id: 'r2' }] as never,
      paths: { r2: [{ from: 'r1', edge_type: 'causes' }, { from: 's', edge_type: 'related' }] } as never,
    });
    expect(new Set(hl.nodes)).toEqual(new Set(['r1', 'r2', 's']));
    expect(hl.edges).toContain('r1|r2|causes');
    expect(hl.edges).toContain('s|r2|related');
  });
});
