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

/** Causal edges carry full weight in spread; they are drawn solid. The rest are associative (dashed). */
export const CAUSAL = new Set(['derived_from', 'created_by', 'causes', 'refines']);

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
        // Labels disappear when zoomed out far enough that they would be unreadable anyway.
        'min-zoomed-font-size': 9,
        'text-background-color': bg,
        'text-background-opacity': 0.75,
        'text-background-padding': '1px',
        'border-width': 0,
      },
    },
    { selector: 'node[?archived]', style: { opacity: 0.45, 'border-width': 1, 'border-style': 'dashed', 'border-color': edge } },
    { selector: 'node.focus', style: { 'border-width': 4, 'border-color': '#f1c40f' } },
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
    { selector: 'edge[?causal]', style: { 'line-style': 'solid' } },
    { selector: 'edge[type = "contradicts"]', style: { 'line-color': '#d62728', 'target-arrow-color': '#d62728', 'line-style': 'solid' } },
    { selector: '.faded', style: { opacity: 0.12 } },
    { selector: 'node.hl', style: { 'border-width': 3, 'border-color': '#ff7f0e', opacity: 1 } },
    { selector: 'edge.hl', style: { 'line-color': '#ff7f0e', 'target-arrow-color': '#ff7f0e', width: 4, opacity: 1, 'z-index': 10 } },
    { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#1f77b4' } },
    // The drag-to-link ghost: a dot under the pointer and a dashed edge to it; it never takes events.
    { selector: 'node.ghost', style: { width: 6, height: 6, 'background-color': '#ff7f0e', label: '', events: 'no' } },
    { selector: 'edge.ghost', style: { 'line-color': '#ff7f0e', 'target-arrow-color': '#ff7f0e', 'line-style': 'dashed', width: 2, events: 'no' } },
  ];
}
