/** How the typed edge graph looks: node colour by type and size by importance; edge style by type. */
import type { StylesheetJson } from 'cytoscape';

export const TYPE_COLORS: Record<string, string> = {
  info: '#4e79a7',
  skill: '#59a14f',
  episode: '#f28e2b',
  intent: '#b07aa1',
  todo: '#e15759',
  reflection: '#76b7b2',
  scratch: '#9c9c9c',
};

/** Causal edges carry full weight in spread; they are drawn solid. The rest are associative (dashed or dotted). */
export const CAUSAL = new Set(['derived_from', 'created_by', 'causes', 'refines']);

export type LineStyle = 'solid' | 'dashed' | 'dotted';
export type ArrowShape = 'triangle' | 'vee' | 'triangle-backcurve' | 'triangle-tee' | 'tee' | 'diamond' | 'circle' | 'square' | 'chevron' | 'none';

export interface EdgeLook {
  color: string;
  line: LineStyle;
  arrow: ArrowShape;
}

/**
 * One look per edge type, told apart three ways (colour, line, arrow head) so types stay distinct
 * for colour-blind readers and in greyscale. Mid-tone colours read on both themes; none is the
 * orange of a highlighted recall path or the yellow of the focus.
 */
export const EDGE_LOOKS: Record<string, EdgeLook> = {
  derived_from: { color: '#1f77b4', line: 'solid', arrow: 'triangle' },
  created_by: { color: '#17becf', line: 'solid', arrow: 'circle' },
  causes: { color: '#9467bd', line: 'solid', arrow: 'vee' },
  refines: { color: '#2ca02c', line: 'solid', arrow: 'triangle-backcurve' },
  contradicts: { color: '#d62728', line: 'solid', arrow: 'tee' },
  supports: { color: '#8c564b', line: 'dashed', arrow: 'triangle' },
  part_of: { color: '#e377c2', line: 'dashed', arrow: 'diamond' },
  precedes: { color: '#6b6ecf', line: 'dashed', arrow: 'chevron' },
  triggers: { color: '#bcbd22', line: 'dashed', arrow: 'square' },
  related: { color: '#8c8c8c', line: 'dotted', arrow: 'none' },
};

export const HIGHLIGHT = '#ff7f0e';
export const FOCUS = '#f1c40f';

export function graphStyle(dark: boolean): StylesheetJson {
  const text = dark ? '#e6e6e6' : '#222';
  const bg = dark ? '#14171c' : '#f6f7f9';
  const edge = dark ? '#7b8794' : '#9aa5b1';
  return [
    {
      selector: 'node',
      style: {
        'background-color': 'data(color)',
        width: 'mapData(importance, 0, 10, 10, 44)',
        height: 'mapData(importance, 0, 10, 10, 44)',
        label: 'data(label)',
        'font-size': 10,
        color: text,
        'text-valign': 'bottom',
        'text-margin-y': 3,
        // Labels arrive cut to 40 characters; no text measuring or wrapping per node (thousands of nodes).
        // Unlabelled nodes (see labels.ts) show their label only once zoomed in past about 1.2, so a
        // crowded graph is not a carpet of overlapping text.
        'min-zoomed-font-size': 12,
        'text-background-color': bg,
        'text-background-opacity': 0.75,
        'text-background-padding': '1px',
        'border-width': 0,
      },
    },
    { selector: 'node[?archived]', style: { opacity: 0.45, 'border-width': 1, 'border-style': 'dashed', 'border-color': edge } },
    // Labelled nodes (the focus or selection and its nearest neighbours) show their label at any zoom;
    // the canvas scales their font with the zoom so it stays readable (see GraphCanvas).
    { selector: 'node.labelled', style: { 'min-zoomed-font-size': 0, 'z-index': 5, 'text-background-opacity': 0.9 } },
    // The focus: drawn large, ringed and haloed so it stands out among thousands of dots.
    {
      selector: 'node.focus',
      style: {
        width: 'mapData(importance, 0, 10, 30, 54)',
        height: 'mapData(importance, 0, 10, 30, 54)',
        'border-width': 5,
        'border-color': FOCUS,
        'underlay-color': FOCUS,
        'underlay-padding': 10,
        'underlay-opacity': 0.45,
        'underlay-shape': 'ellipse',
        'font-weight': 'bold',
        'z-index': 20,
      },
    },
    {
      selector: 'edge',
      style: {
        width: 'mapData(weight, 0, 1, 0.6, 3)',
        'line-color': edge,
        'target-arrow-color': edge,
        'target-arrow-shape': 'triangle',
        'arrow-scale': 0.7,
        'curve-style': 'bezier',
        'line-style': 'dashed',
        'line-dash-pattern': [5, 4],
        opacity: 0.8,
      },
    },
    { selector: 'edge.straight', style: { 'curve-style': 'straight' } },
    ...Object.entries(EDGE_LOOKS).map(([type, look]) => ({
      selector: `edge[type = "${type}"]`,
      style: {
        'line-color': look.color,
        'target-arrow-color': look.color,
        'target-arrow-shape': look.arrow,
        'line-style': look.line,
        ...(look.line === 'dotted' ? { 'line-dash-pattern': [1, 3] } : {}),
      },
    })),
    { selector: '.faded', style: { opacity: 0.12 } },
    { selector: 'node.hl', style: { 'border-width': 3, 'border-color': HIGHLIGHT, opacity: 1 } },
    { selector: 'edge.hl', style: { 'line-color': HIGHLIGHT, 'target-arrow-color': HIGHLIGHT, 'line-style': 'solid', width: 4, opacity: 1, 'z-index': 10 } },
    { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#1f77b4' } },
    // The drag-to-link ghost: a dot under the pointer and a dashed edge to it; it never takes events.
    { selector: 'node.ghost', style: { width: 6, height: 6, 'background-color': '#ff7f0e', label: '', events: 'no' } },
    { selector: 'edge.ghost', style: { 'line-color': '#ff7f0e', 'target-arrow-color': '#ff7f0e', 'line-style': 'dashed', width: 2, events: 'no' } },
  ];
}
