import { describe, expect, it } from 'vitest';
import { layoutGraph, packRects, type LayoutEdge, type LayoutNode, type Point } from '../../renderer/graph/layout.js';

const SPACING = 40;

/** A seeded generator, so every run lays out the same graphs. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Shaped like the demo store's overview: mostly isolated memories, some pairs, a few hubs and chains. */
function demoLike(n: number, seed = 7): { nodes: LayoutNode[]; edges: LayoutEdge[] } {
  const rand = rng(seed);
  const nodes = Array.from({ length: n }, (_, i) => ({ id: `m${i}` }));
  const edges: LayoutEdge[] = [];
  const linked = Math.floor(n * 0.4);
  for (let i = 0; i < linked; i++) {
    const hub = Math.floor(rand() * Math.max(1, n / 50));
    if (rand() < 0.5) edges.push({ src: `m${hub}`, dst: `m${i}` });
    else edges.push({ src: `m${i}`, dst: `m${Math.min(n - 1, i + 1)}` });
  }
  return { nodes, edges };
}

function box(points: Iterable<Point>) {
  let x1 = Infinity;
  let x2 = -Infinity;
  let y1 = Infinity;
  let y2 = -Infinity;
  for (const p of points) {
    x1 = Math.min(x1, p.x);
    x2 = Math.max(x2, p.x);
    y1 = Math.min(y1, p.y);
    y2 = Math.max(y2, p.y);
  }
  return { w: x2 - x1, h: y2 - y1, area: (x2 - x1) * (y2 - y1), cx: (x1 + x2) / 2, cy: (y1 + y2) / 2 };
}

function closestPair(points: Point[]): number {
  // Grid buckets of one spacing: only neighbouring cells can hold a closer pair.
  const cells = new Map<string, Point[]>();
  const key = (x: number, y: number) => `${Math.floor(x / SPACING)},${Math.floor(y / SPACING)}`;
  for (const p of points) {
    const k = key(p.x, p.y);
    (cells.get(k) ?? cells.set(k, []).get(k)!).push(p);
  }
  let best = Infinity;
  for (const p of points) {
    const cx = Math.floor(p.x / SPACING);
    const cy = Math.floor(p.y / SPACING);
    for (let dx = -1; dx <= 1; dx++)
      for (let dy = -1; dy <= 1; dy++)
        for (const q of cells.get(`${cx + dx},${cy + dy}`) ?? []) {
          if (q === p) continue;
          best = Math.min(best, Math.hypot(p.x - q.x, p.y - q.y));
        }
  }
  return best;
}

describe('graph layout', () => {
  it('places every node, once, centred on the origin', () => {
    const { nodes, edges } = demoLike(500);
    const pos = layoutGraph(nodes, edges, { spacing: SPACING });
    expect(pos.size).toBe(500);
    for (const p of pos.values()) expect(Number.isFinite(p.x) && Number.isFinite(p.y)).toBe(true);
    const b = box(pos.values());
    expect(Math.abs(b.cx)).toBeLessThan(SPACING);
    expect(Math.abs(b.cy)).toBeLessThan(SPACING);
  });

  it('keeps the drawing compact: area per node stays bounded from 200 to 20,000 nodes, and no isolated node is flung far out', () => {
    const perNode: number[] = [];
    for (const n of [200, 2000, 5000, 20000]) {
      const { nodes, edges } = demoLike(n);
      const pos = layoutGraph(nodes, edges, { spacing: SPACING });
      const b = box(pos.values());
      perNode.push(b.area / n / SPACING ** 2);
      // A square of side sqrt(n)·spacing holds n nodes; the drawing stays within a small multiple of it.
      const farthest = Math.max(...[...pos.values()].map((p) => Math.hypot(p.x, p.y)));
      expect(farthest).toBeLessThan(2.5 * Math.sqrt(n) * SPACING);
      // The old concentric layout was 30,000+ px wide at 2,000 nodes.
      expect(b.w).toBeLessThan(3 * Math.sqrt(n) * SPACING);
      expect(b.h).toBeLessThan(3 * Math.sqrt(n) * SPACING);
    }
    for (const ratio of perNode) expect(ratio).toBeLessThan(4);
    // Linear growth: area per node at 20k is within 2× of that at 2k.
    expect(perNode[3]! / perNode[1]!).toBeLessThan(2);
  });

  it('never stacks two nodes on one another', () => {
    const { nodes, edges } = demoLike(3000, 11);
    const pos = layoutGraph(nodes, edges, { spacing: SPACING });
    expect(closestPair([...pos.values()])).toBeGreaterThanOrEqual(SPACING * 0.5);
  });

  it('puts a hub focus at the centre of its neighbours, which stay close on a band of rings (279 edges)', () => {
    const nodes = [{ id: 'hub' }, ...Array.from({ length: 279 }, (_, i) => ({ id: `n${i}` })), ...Array.from({ length: 140 }, (_, i) => ({ id: `f${i}` }))];
    const edges = [...Array.from({ length: 279 }, (_, i) => ({ src: 'hub', dst: `n${i}` })), ...Array.from({ length: 140 }, (_, i) => ({ src: `n${i}`, dst: `f${i}` }))];
    const pos = layoutGraph(nodes, edges, { focus: 'hub', spacing: SPACING });
    const hub = pos.get('hub')!;
    const dist = (id: string) => Math.hypot(pos.get(id)!.x - hub.x, pos.get(id)!.y - hub.y);
    const first = Array.from({ length: 279 }, (_, i) => dist(`n${i}`));
    const second = Array.from({ length: 140 }, (_, i) => dist(`f${i}`));
    // The neighbours fill a band around the hub instead of one ring 279 places round.
    expect(Math.max(...first)).toBeLessThan(Math.sqrt(279) * SPACING);
    expect(Math.min(...second)).toBeGreaterThan(Math.max(...first));
    // The whole drawing is centred on the hub's component (the only one).
    const b = box(pos.values());
    expect(Math.hypot(hub.x - b.cx, hub.y - b.cy)).toBeLessThan(SPACING);
    expect(closestPair([...pos.values()])).toBeGreaterThanOrEqual(SPACING * 0.5);
  });

  it('keeps siblings together: children of one parent sit next to each other on the next ring', () => {
    const nodes = [{ id: 'r' }, { id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' }];
    const kids = (p: string) => Array.from({ length: 6 }, (_, i) => ({ id: `${p}${i}` }));
    const all = [...nodes, ...['a', 'b', 'c', 'd'].flatMap(kids)];
    const edges = [...['a', 'b', 'c', 'd'].map((p) => ({ src: 'r', dst: p })), ...['a', 'b', 'c', 'd'].flatMap((p) => kids(p).map((k) => ({ src: p, dst: k.id })))];
    const pos = layoutGraph(all, edges, { focus: 'r', spacing: SPACING });
    for (const p of ['a', 'b', 'c', 'd']) {
      const parent = pos.get(p)!;
      const mean = kids(p).reduce((acc, k) => ({ x: acc.x + pos.get(k.id)!.x / 6, y: acc.y + pos.get(k.id)!.y / 6 }), { x: 0, y: 0 });
      const ang = (q: Point) => Math.atan2(q.y - pos.get('r')!.y, q.x - pos.get('r')!.x);
      const diff = Math.abs(Math.atan2(Math.sin(ang(mean) - ang(parent)), Math.cos(ang(mean) - ang(parent))));
      expect(diff).toBeLessThan(Math.PI / 4);
    }
  });

  it('roots a long chain at its middle, so its drawing is half as wide', () => {
    const nodes = Array.from({ length: 41 }, (_, i) => ({ id: `c${i}` }));
    const edges = Array.from({ length: 40 }, (_, i) => ({ src: `c${i}`, dst: `c${i + 1}` }));
    const pos = layoutGraph(nodes, edges, { spacing: SPACING });
    const b = box(pos.values());
    expect(Math.max(b.w, b.h)).toBeLessThanOrEqual(2 * 20 * SPACING + 1);
  });

  it('is deterministic and ignores edges to nodes it was not given', () => {
    const { nodes, edges } = demoLike(800, 3);
    const a = layoutGraph(nodes, [...edges, { src: 'm1', dst: 'missing' }], { spacing: SPACING });
    const b = layoutGraph(nodes, edges, { spacing: SPACING });
    expect([...a.entries()]).toEqual([...b.entries()]);
  });

  it('packs rectangles without overlap into about the asked aspect', () => {
    const sizes = [{ w: 400, h: 380 }, ...Array.from({ length: 300 }, () => ({ w: 40, h: 40 })), { w: 120, h: 40 }, { w: 120, h: 120 }, { w: 80, h: 60 }];
    const { origins, width, height } = packRects(sizes, 1.4);
    const boxes = origins.map((o, i) => ({ ...o, ...sizes[i]! }));
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const p = boxes[i]!;
        const q = boxes[j]!;
        const apart = p.x + p.w <= q.x + 1e-9 || q.x + q.w <= p.x + 1e-9 || p.y + p.h <= q.y + 1e-9 || q.y + q.h <= p.y + 1e-9;
        expect(apart).toBe(true);
      }
    const used = sizes.reduce((s, x) => s + x.w * x.h, 0);
    expect(width * height).toBeLessThan(used * 2);
    expect(width / height).toBeGreaterThan(0.5);
    expect(width / height).toBeLessThan(3);
  });
});
