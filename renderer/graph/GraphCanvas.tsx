/**
 * The only place that imports cytoscape. Draws nodes and typed edges, picks a layout that stays
 * fast at thousands of nodes, fits it to the screen, labels the nodes around the focus, highlights
 * spread paths, and reports taps upward.
 */
import cytoscape, { type Core, type ElementDefinition, type LayoutOptions } from 'cytoscape';
import { useEffect, useRef } from 'react';
import type { GraphEdge, GraphNode } from '../../core/api/contract/index.js';
import { platform } from '../platform/browser.js';
import { labelledNodes, MAX_LABELS } from './labels.js';
import { layoutGraph } from './layout.js';
import { edgeId, type Highlight } from './recallPaths.js';
import { CAUSAL, graphStyle, TYPE_COLORS } from './style.js';

export { edgeId, type Highlight };

export interface GraphCanvasProps {
  nodes: GraphNode[];
  edges: GraphEdge[];
  focus?: string | null;
  /** The node the reader picked: it and its neighbours are labelled (else the focus's). */
  selected?: string | null;
  highlight?: Highlight | null;
  dark: boolean;
  onSelect?: (id: string) => void;
  onExpand?: (id: string) => void;
  height?: number | string;
  /** Drag from one node to another to propose an edge (curation); nodes stop moving meanwhile. */
  linkMode?: boolean;
  onLink?: (src: string, dst: string) => void;
}

/** Node centres this far apart leave room for the largest nodes (44 px) and a gap between them. */
const SPACING = 56;
const FIT_PADDING = 30;
/** Labels of labelled nodes stay this many screen pixels tall whatever the zoom. */
const LABEL_PX = 12;

function layoutFor(nodes: GraphNode[], edges: GraphEdge[], focus: string | null | undefined): LayoutOptions {
  if (nodes.length <= 100) {
    // Small graphs: a force layout reads best. Past about a hundred nodes (a hub's neighbourhood) it
    // tangles into a hairball, while rings by hop distance keep the focus and its neighbours apart.
    return {
      name: 'cose',
      animate: false,
      randomize: false,
      numIter: 1000,
      nodeRepulsion: () => 40_000,
      nodeOverlap: 20,
      idealEdgeLength: () => 90,
      edgeElasticity: () => 80,
      gravity: 0.6,
      componentSpacing: 60,
      // Fitting is done after the layout (fitAll), where the zoom limits are adjusted first.
      fit: false,
    } as LayoutOptions;
  }
  // Hundreds to thousands of nodes: a linear-time layout computed here, compact at any size.
  const positions = layoutGraph(nodes, edges, { focus, spacing: SPACING });
  return { name: 'preset', animate: false, fit: false, positions: (node: cytoscape.NodeSingular) => positions.get(node.id()) ?? { x: 0, y: 0 } } as LayoutOptions;
}

/**
 * Fits the whole graph to the canvas. The lowest zoom allowed follows the graph's size, so a large
 * graph is never held at a zoom limit that leaves it bigger than the screen; small graphs are not
 * blown up past a readable size.
 */
export function fitAll(cy: Core): void {
  if (cy.elements().length === 0) return;
  const bb = cy.elements().boundingBox();
  const w = Math.max(1, cy.width() - 2 * FIT_PADDING);
  const h = Math.max(1, cy.height() - 2 * FIT_PADDING);
  const needed = Math.min(w / Math.max(1, bb.w), h / Math.max(1, bb.h));
  cy.minZoom(Math.min(0.05, needed / 2));
  cy.fit(undefined, FIT_PADDING);
  if (cy.zoom() > 1.5) {
    cy.zoom(1.5);
    cy.center();
  }
}

/** Labelled nodes keep a readable label at any zoom (a bypass on a few dozen nodes, not a restyle). */
function scaleLabels(cy: Core): void {
  const size = Math.min(60, Math.max(10, LABEL_PX / cy.zoom()));
  cy.batch(() => cy.nodes('.labelled').style('font-size', size));
}

/** How many nodes have their centre inside the visible area (published for tests and automation). */
function publishViewport(cy: Core, el: HTMLElement): void {
  const ext = cy.extent();
  let inside = 0;
  cy.nodes().forEach((n) => {
    const p = n.position();
    if (p.x >= ext.x1 && p.x <= ext.x2 && p.y >= ext.y1 && p.y <= ext.y2) inside++;
  });
  el.dataset['inView'] = String(inside);
  el.dataset['zoom'] = cy.zoom().toFixed(4);
  el.dataset['minZoom'] = cy.minZoom().toFixed(4);
}

export function GraphCanvas({ nodes, edges, focus, selected, highlight, dark, onSelect, onExpand, height = '100%', linkMode = false, onLink }: GraphCanvasProps) {
  const ref = useRef<HTMLDivElement>(null);
  const cyRef = useRef<Core | null>(null);
  const handlers = useRef({ onSelect, onExpand, onLink, linkMode });
  const onLaidOut = useRef<(() => void) | null>(() => platform.mark('mnemo:graph-laid-out'));
  handlers.current = { onSelect, onExpand, onLink, linkMode };
  // What was last laid out: a refetch that brings the same graph back (new objects, equal content)
  // must not clear and lay out thousands of nodes again.
  const laidOut = useRef<string | null>(null);

  useEffect(() => {
    const big = nodes.length > 1500;
    const cy = cytoscape({
      container: ref.current,
      style: graphStyle(dark),
      minZoom: 0.05,
      maxZoom: 4,
      // Large graphs: draw a cached texture while panning/zooming and skip edges in motion.
      textureOnViewport: big,
      hideEdgesOnViewport: big,
      pixelRatio: big ? 1 : 'auto',
    });
    cyRef.current = cy;
    cy.on('tap', 'node', (e) => handlers.current.onSelect?.(e.target.id()));
    cy.on('dbltap', 'node', (e) => handlers.current.onExpand?.(e.target.id()));
    wireDragToLink(cy, () => handlers.current);
    let pending = 0;
    cy.on('viewport', () => {
      // Once per frame at most: zooming fires many events.
      if (pending) return;
      pending = requestAnimationFrame(() => {
        pending = 0;
        if (cy.destroyed()) return;
        scaleLabels(cy);
        if (ref.current) publishViewport(cy, ref.current);
      });
    });
    return () => {
      cy.destroy();
      cyRef.current = null;
      laidOut.current = null;
    };
    // The instance lives as long as the component; the theme only restyles it (below).
  }, []);

  useEffect(() => {
    cyRef.current?.style(graphStyle(dark));
  }, [dark]);

  useEffect(() => {
    const cy = cyRef.current;
    if (!cy || !ref.current) return;
    cy.autoungrabify(linkMode);
    ref.current.dataset['linkMode'] = String(linkMode);
    if (linkMode) exposePositions(cy, ref.current);
  }, [linkMode, nodes, edges]);

  useEffect(() => {
    const cy = cyRef.current;
    const el = ref.current;
    if (!cy || !el) return;
    const signature = JSON.stringify([focus ?? null, nodes, edges]);
    if (signature === laidOut.current) return;
    laidOut.current = signature;
    // Many edges: straight lines draw much faster than bezier curves and keep arrows and dash
    // styles. A class from the stylesheet, not a per-edge style bypass (that restyles each edge).
    const edgeClass = edges.length > 600 ? 'straight' : '';
    const ids = new Set(nodes.map((n) => n.id));
    const elements: ElementDefinition[] = [
      ...nodes.map((n) => ({
        group: 'nodes' as const,
        data: {
          id: n.id,
          label: n.head.length > 40 ? `${n.head.slice(0, 40)}…` : n.head,
          type: n.type,
          owner: n.owner,
          importance: n.importance,
          depth: n.depth,
          archived: n.archived,
          color: TYPE_COLORS[n.type] ?? '#888',
        },
        classes: n.id === focus ? 'focus' : '',
      })),
      ...edges
        .filter((e) => ids.has(e.src) && ids.has(e.dst))
        .map((e) => ({ group: 'edges' as const, data: { id: edgeId(e), source: e.src, target: e.dst, type: e.type, weight: e.weight, causal: CAUSAL.has(e.type) }, classes: edgeClass })),
    ];
    el.dataset['layoutDone'] = 'false';
    cy.batch(() => {
      cy.elements().remove();
      cy.add(elements);
    });
    const layout = cy.layout(layoutFor(nodes, edges, focus));
    layout.one('layoutstop', () => {
      fitAll(cy);
      scaleLabels(cy);
      publishViewport(cy, el);
      el.dataset['layoutDone'] = 'true';
      el.dataset['nodeCount'] = String(cy.nodes().length);
      el.dataset['edgeCount'] = String(cy.edges().length);
      if (handlers.current.linkMode) exposePositions(cy, el);
      onLaidOut.current?.();
    });
    layout.run();
  }, [nodes, edges, focus]);

  useEffect(() => {
    const cy = cyRef.current;
    if (!cy) return;
    const centre = selected ?? focus;
    // With nothing picked, a recall's memories are what the reader came to see: name them.
    const ids = !centre && highlight?.nodes.length ? highlight.nodes.slice(0, MAX_LABELS) : labelledNodes(nodes, edges, centre);
    cy.batch(() => {
      cy.nodes('.labelled').removeStyle('font-size').removeClass('labelled');
      for (const id of ids) cy.getElementById(id).addClass('labelled');
    });
    scaleLabels(cy);
    if (ref.current) ref.current.dataset['labelled'] = String(cy.nodes('.labelled').length);
  }, [nodes, edges, focus, selected, highlight]);

  useEffect(() => {
    const cy = cyRef.current;
    if (!cy) return;
    cy.batch(() => {
      cy.elements().removeClass('hl faded');
      if (!highlight || (highlight.nodes.length === 0 && highlight.edges.length === 0)) return;
      cy.elements().addClass('faded');
      for (const id of highlight.nodes) cy.getElementById(id).removeClass('faded').addClass('hl');
      for (const id of highlight.edges) cy.getElementById(id).removeClass('faded').addClass('hl');
    });
    if (ref.current) ref.current.dataset['highlighted'] = String(cy.elements('.hl').length);
  }, [highlight, nodes, edges]);

  return (
    <div className="graph-canvas-wrap" style={{ height }}>
      <div ref={ref} className="graph-canvas" data-testid="graph-canvas" />
      <div className="graph-tools">
        <button type="button" onClick={() => cyRef.current && fitAll(cyRef.current)} title="Zoom and pan so the whole graph fits the screen" data-testid="graph-fit">
          Fit
        </button>
      </div>
    </div>
  );
}

const GHOST = '__link-ghost';

/**
 * Drag-to-link: press on a node, drag, release on another node. A dashed ghost edge follows the
 * pointer; the release reports (source, target) upward, which asks for the edge type.
 */
function wireDragToLink(cy: Core, current: () => { linkMode: boolean; onLink?: ((src: string, dst: string) => void) | undefined }): void {
  let src: string | null = null;
  const clear = () => {
    cy.remove(`#${GHOST}`);
    src = null;
    cy.userPanningEnabled(true);
  };
  cy.on('tapstart', 'node', (e) => {
    if (!current().linkMode || e.target.id() === GHOST) return;
    src = e.target.id();
    cy.userPanningEnabled(false);
    cy.add([
      { group: 'nodes', data: { id: GHOST }, position: { ...e.position }, classes: 'ghost' },
      { group: 'edges', data: { id: `${GHOST}-e`, source: src, target: GHOST }, classes: 'ghost' },
    ]);
  });
  cy.on('tapdrag', (e) => {
    if (src) cy.getElementById(GHOST).position({ ...e.position });
  });
  cy.on('tapend', (e) => {
    if (!src) return;
    const from = src;
    // The node under the release point (the ghost ignores events, so the target is the real node).
    const hit = cy.nodes().filter((n) => n.id() !== GHOST && n.id() !== from && inBox(n.boundingBox(), e.position));
    clear();
    const dst = hit.length ? hit[0]!.id() : null;
    if (dst) current().onLink?.(from, dst);
  });
}

function inBox(b: { x1: number; x2: number; y1: number; y2: number }, p: { x: number; y: number }): boolean {
  return p.x >= b.x1 && p.x <= b.x2 && p.y >= b.y1 && p.y <= b.y2;
}

/** In link mode, small graphs publish where each node is on screen (for keyboardless automation and tests). */
function exposePositions(cy: Core, el: HTMLElement): void {
  if (cy.nodes().length > 300) {
    delete el.dataset['nodePositions'];
    return;
  }
  const pos: Record<string, [number, number]> = {};
  cy.nodes().forEach((n) => {
    const p = n.renderedPosition();
    pos[n.id()] = [Math.round(p.x), Math.round(p.y)];
  });
  el.dataset['nodePositions'] = JSON.stringify(pos);
}
