/**
 * Which nodes carry a label at every zoom. Thousands of labels are unreadable, so only the node the
 * reader is looking at (the selection, else the focus) and its most important neighbours are named;
 * with no centre, the most important nodes serve as landmarks. Other labels appear on zooming in.
 */
export interface LabelNode {
  id: string;
  importance: number;
}

export interface LabelEdge {
  src: string;
  dst: string;
}

/** Enough to name a hub's main neighbours without the labels covering one another. */
export const MAX_LABELS = 24;

export function labelledNodes(nodes: readonly LabelNode[], edges: readonly LabelEdge[], centre: string | null | undefined, max = MAX_LABELS): string[] {
  const importance = new Map(nodes.map((n) => [n.id, n.importance]));
  const byImportance = (a: string, b: string) => (importance.get(b) ?? 0) - (importance.get(a) ?? 0) || (a < b ? -1 : a > b ? 1 : 0);
  if (!centre || !importance.has(centre)) {
    return nodes
      .map((n) => n.id)
      .sort(byImportance)
      .slice(0, Math.min(max, 15));
  }
  const neighbours = new Set<string>();
  for (const e of edges) {
    if (e.src === centre && e.dst !== centre && importance.has(e.dst)) neighbours.add(e.dst);
    if (e.dst === centre && e.src !== centre && importance.has(e.src)) neighbours.add(e.src);
  }
  return [centre, ...[...neighbours].sort(byImportance).slice(0, max - 1)];
}
