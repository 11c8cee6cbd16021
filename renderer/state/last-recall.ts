/**
 * The last query run in the Recall console, so returning to Recall shows it again and other views
 * can offer "why not in my last query?" for a memory.
 */
import { create } from 'zustand';
import { buildHash } from './hash.js';

export interface LastRecall {
  q: string;
  k: number;
  hops: number;
  owner: string;
}

interface LastRecallState {
  last: LastRecall | null;
  remember(r: LastRecall): void;
}

export const useLastRecall = create<LastRecallState>((set) => ({
  last: null,
  remember: (last) => set({ last }),
}));

/** The Recall console's hash for a query (defaults left out, as the console writes them). */
export function recallHash(r: LastRecall, extra: { mode?: 'recall' | null; sel?: string | null; why?: string | null; at?: number | null } = {}): string {
  return buildHash('recall', null, {
    q: r.q,
    k: r.k === 10 ? null : r.k,
    hops: r.hops === 1 ? null : r.hops,
    owner: r.owner,
    mode: extra.mode ?? null,
    sel: extra.sel ?? null,
    why: extra.why ?? null,
    at: extra.at ?? null,
  });
}
