/**
 * Where each node of a large graph goes, in time linear in nodes + edges and in an area linear in
 * nodes. A force layout is too slow at thousands of nodes, and one set of concentric rings for the
 * whole graph put every isolated memory on an outer ring tens of thousands of pixels wide, so fitting
 * it to the screen shrank every node below a pixel.
 *
 * Each connected component is laid out on its own: its root (the focus, else its most central node)
 * at the centre and the other nodes on rings by hop distance, each ring filled in the angular order
 * of the nodes' parents so edges stay short. A ring that would be too crowded grows into a band of
 * sub-rings instead of a single huge circle. The components, isolated nodes included, are then packed
 * by their bounding boxes into a rectangle close to the screen's shape, tallest first.
 */

export interface LayoutNode {
  id: string;
}

export interface LayoutEdge {
  src: string;
  dst: string;
}

export interface Point {
  x: number;
  y: number;
}

export interface GraphLayoutOptions {
  /** The node placed at the centre of its component (the graph view's focus). */
  focus?: string | null;
  /** Distance between neighbouring node centres, in model pixels. */
  spacing?: number;
  /** Width / height of the rectangle the components are packed into. */
  aspect?: number;
}

const TAU = Math.PI * 2;

/** Positions for every node, centred on (0, 0). Edges to nodes not in `nodes` are ignored. */
export function layoutGraph(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[], opts: GraphLayoutOptions = {}): Map<string, Point> {
  const spacing = opts.spacing ?? 40;
  const aspect = opts.aspect ?? 1.4;
  const index = new Map<string, number>();
  nodes.forEach((n, i) => {
    if (!index.has(n.id)) index.set(n.id, i);
  });
  const adjacency = buildAdjacency(nodes.length, index, edges);
  const components = connectedComponents(nodes.length, adjacency);
  const focusIndex = opts.focus ? index.get(opts.focus) : undefined;

  const laidOut = components.map((members) => {
    const root = focusIndex !== undefined && members.includes(focusIndex) ? focusIndex : centralNode(members, adjacency);
    return layoutComponent(root, members, adjacency, spacing);
  });
  const bounds = laidOut.map((c) => boundsOf(c.positions.values()));
  const placed = packRects(
    bounds.map((b) => ({ w: b.x2 - b.x1 + spacing, h: b.y2 - b.y1 + spacing })),
    aspect,
  );

  const out = new Map<string, Point>();
  laidOut.forEach((c, i) => {
    const { x, y } = placed.origins[i]!;
    const b = bounds[i]!;
    for (const [node, p] of c.positions) out.set(nodes[node]!.id, { x: x + spacing / 2 + p.x - b.x1, y: y + spacing / 2 + p.y - b.y1 });
  });
  return centred(out);
}

function boundsOf(points: Iterable<Point>): { x1: number; x2: number; y1: number; y2: number } {
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
  return x1 === Infinity ? { x1: 0, x2: 0, y1: 0, y2: 0 } : { x1, x2, y1, y2 };
}

/** Moves the drawing so its bounding box is centred on (0, 0). */
function centred(positions: Map<string, Point>): Map<string, Point> {
  const { x1, x2, y1, y2 } = boundsOf(positions.values());
  const dx = (x1 + x2) / 2;
  const dy = (y1 + y2) / 2;
  for (const p of positions.values()) {
    p.x -= dx;
    p.y -= dy;
  }
  return positions;
}

function buildAdjacency(n: number, index: Map<string, number>, edges: readonly LayoutEdge[]): number[][] {
  const adjacency: number[][] = Array.from({ length: n }, () => []);
  const seen = new Set<string>();
  for (const e of edges) {
    const a = index.get(e.src);
    const b = index.get(e.dst);
    if (a === undefined || b === undefined || a === b) continue;
    const key = a < b ? `${a} ${b}` : `${b} ${a}`;
    if (seen.has(key)) continue;
    seen.add(key);
    adjacency[a]!.push(b);
    adjacency[b]!.push(a);
  }
  return adjacency;
}

function connectedComponents(n: number, adjacency: number[][]): number[][] {
  const component = new Int32Array(n).fill(-1);
  const out: number[][] = [];
  for (let start = 0; start < n; start++) {
    if (component[start] !== -1) continue;
    const members = [start];
    component[start] = out.length;
    for (let i = 0; i < members.length; i++) {
      for (const next of adjacency[members[i]!]!) {
        if (component[next] === -1) {
          component[next] = out.length;
          members.push(next);
        }
      }
    }
    out.push(members);
  }
  return out;
}

/** Breadth-first order, depth and parent of every node reachable from `root`. */
function bfs(root: number, adjacency: number[][]): { order: number[]; depth: Map<number, number>; parent: Map<number, number> } {
  const order = [root];
  const depth = new Map([[root, 0]]);
  const parent = new Map<number, number>();
  for (let i = 0; i < order.length; i++) {
    const at = order[i]!;
    for (const next of adjacency[at]!) {
      if (depth.has(next)) continue;
      depth.set(next, depth.get(at)! + 1);
      parent.set(next, at);
      order.push(next);
    }
  }
  return { order, depth, parent };
}

/**
 * The middle of a longest shortest path (two breadth-first passes): rooting a chain at its middle
 * halves the number of rings, and so the component's radius.
 */
function centralNode(members: number[], adjacency: number[][]): number {
  if (members.length <= 2) return members[0]!;
  const first = bfs(members[0]!, adjacency).order;
  const end = first[first.length - 1]!;
  const second = bfs(end, adjacency);
  let at = second.order[second.order.length - 1]!;
  const path = [at];
  while (second.parent.has(at)) {
    at = second.parent.get(at)!;
    path.push(at);
  }
  return path[Math.floor(path.length / 2)]!;
}

interface ComponentLayout {
  positions: Map<number, Point>;
}

function layoutComponent(root: number, members: number[], adjacency: number[][], spacing: number): ComponentLayout {
  const positions = new Map<number, Point>([[root, { x: 0, y: 0 }]]);
  if (members.length === 1) return { positions };
  const { order, depth, parent } = bfs(root, adjacency);
  const angle = new Map<number, number>([[root, 0]]);
  const levels: number[][] = [];
  for (const node of order) {
    const d = depth.get(node)!;
    if (d === 0) continue;
    (levels[d - 1] ??= []).push(node);
  }
  let radius = 0;
  for (const level of levels) {
    // Parents were placed on the previous ring; sorting by their angle keeps siblings together.
    const sorted = level.map((node, i) => ({ node, key: angle.get(parent.get(node)!) ?? 0, i })).sort((a, b) => a.key - b.key || a.i - b.i);
    const slots = ringSlots(radius + spacing, sorted.length, spacing);
    const shift = bestRotation(
      sorted.map((s) => s.key),
      slots.chosen.map((s) => s.angle),
    );
    sorted.forEach(({ node }, i) => {
      const slot = slots.chosen[(i + shift) % sorted.length]!;
      angle.set(node, slot.angle);
      positions.set(node, { x: slot.r * Math.cos(slot.angle), y: slot.r * Math.sin(slot.angle) });
    });
    radius = slots.outer;
  }
  return { positions };
}

/**
 * How far to rotate the assignment of (angle-sorted) nodes to (angle-sorted) places so that, on
 * average, a node lands at its parent's angle: without it, a parent with many children pushes its
 * siblings' children round the ring away from their own parents.
 */
function bestRotation(parentAngles: number[], slotAngles: number[]): number {
  const n = parentAngles.length;
  if (n < 2) return 0;
  let sin = 0;
  let cos = 0;
  for (let i = 0; i < n; i++) {
    const d = slotAngles[i]! - parentAngles[i]!;
    sin += Math.sin(d);
    cos += Math.cos(d);
  }
  const mean = Math.atan2(sin, cos);
  // A node's place moves by 2π/n per step of rotation; turn back by the mean difference.
  return (((-Math.round((mean * n) / TAU)) % n) + n) % n;
}

/**
 * `count` places on sub-rings from `inner` outwards, each sub-ring holding as many nodes as fit at
 * `spacing`; chosen evenly from all places sorted by angle, so a band that is not full has its gaps
 * spread round the circle rather than one empty arc.
 */
function ringSlots(inner: number, count: number, spacing: number): { chosen: { r: number; angle: number }[]; outer: number } {
  const all: { r: number; angle: number }[] = [];
  let r = inner;
  let outer = inner;
  while (all.length < count) {
    const capacity = Math.max(1, Math.floor((TAU * r) / spacing));
    // Offset alternate sub-rings by half a place so nodes on neighbouring sub-rings do not line up.
    const offset = ((all.length > 0 ? 0.5 : 0) * TAU) / capacity;
    for (let k = 0; k < capacity; k++) all.push({ r, angle: offset + (TAU * k) / capacity });
    outer = r;
    r += spacing;
  }
  all.sort((a, b) => a.angle - b.angle || a.r - b.r);
  const chosen: { r: number; angle: number }[] = [];
  for (let i = 0; i < count; i++) chosen.push(all[Math.floor((i * all.length) / count)]!);
  return { chosen, outer };
}

/**
 * Packs rectangles into a rectangle of about `aspect` width / height: shelves of the tallest items
 * first, and inside a shelf, columns of smaller items stacked up to the shelf's height, so thousands
 * of isolated nodes make a dense grid instead of one long row.
 */
export function packRects(sizes: readonly { w: number; h: number }[], aspect: number): { origins: Point[]; width: number; height: number } {
  const order = sizes.map((s, i) => ({ ...s, i })).sort((a, b) => b.h - a.h || b.w - a.w || a.i - b.i);
  const total = sizes.reduce((sum, s) => sum + s.w * s.h, 0);
  const targetWidth = Math.max(...sizes.map((s) => s.w), Math.sqrt(total * aspect));
  const origins: Point[] = new Array<Point>(sizes.length);
  let shelfY = 0;
  let shelfHeight = 0;
  let shelfX = 0;
  let column = { x: 0, y: 0, width: 0 };
  let width = 0;
  const eps = 1e-9;
  for (const { w, h, i } of order) {
    if (shelfHeight > 0 && w <= column.width + eps && column.y + h <= shelfY + shelfHeight + eps) {
      origins[i] = { x: column.x, y: column.y };
      column.y += h;
      continue;
    }
    if (shelfHeight === 0 || shelfX + w > targetWidth + eps) {
      shelfY += shelfHeight;
      shelfHeight = h;
      shelfX = 0;
    }
    column = { x: shelfX, y: shelfY + h, width: w };
    origins[i] = { x: shelfX, y: shelfY };
    shelfX += w;
    width = Math.max(width, shelfX);
  }
  return { origins, width, height: shelfY + shelfHeight };
}
