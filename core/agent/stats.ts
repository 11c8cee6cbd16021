/** The reference's MemoryStats: how one agent has used its memory in this session. */
export interface MemoryStats {
  writes: number;
  reinforced: number;
  recalls: number;
  recalled_items: number;
  injections: number;
  injected_chars: number;
  reflections: number;
  merged: number;
  edges_added: number;
  pruned: number;
  store_size: number;
  todos_open: number;
  todos_done: number;
  refs_resolved: number;
  refs_dangling: number;
  cross_owner_recalls: number;
  injection_ms_total: number;
}

export function emptyStats(): MemoryStats {
  return {
    writes: 0,
    reinforced: 0,
    recalls: 0,
    recalled_items: 0,
    injections: 0,
    injected_chars: 0,
    reflections: 0,
    merged: 0,
    edges_added: 0,
    pruned: 0,
    store_size: 0,
    todos_open: 0,
    todos_done: 0,
    refs_resolved: 0,
    refs_dangling: 0,
    cross_owner_recalls: 0,
    injection_ms_total: 0,
  };
}

/** One line, as the reference's `summary()`: `writes=2 reinforced=0 …`. */
export function statsSummary(s: MemoryStats): string {
  return Object.entries(s)
    .map(([k, v]) => `${k}=${typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(1) : v}`)
    .join(' ');
}
