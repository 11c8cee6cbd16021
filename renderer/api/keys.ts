/**
 * The query-key factory: every cached engine answer lives under ['mnemo', …], so live refresh can
 * invalidate all of it. Answers about a past instant live under ['mnemo-past', …] instead: the past
 * does not change when an agent writes now, so live refresh leaves them (and the view showing them) alone.
 */
export const keys = {
  past: ['mnemo-past'] as const,
  asOf: (at: number) => [...keys.past, 'asOf', at] as const,
  pastMemoryPage: (filter: unknown, page: number, at: number) => [...keys.past, 'memories', at, filter, page] as const,
  pastMemory: (id: string, at: number) => [...keys.past, 'memory', at, id] as const,
  pastMemoryText: (id: string, at: number) => [...keys.past, 'memoryText', at, id] as const,
  pastFacets: (input: unknown, at: number) => [...keys.past, 'facets', at, input] as const,
  pastGraph: (input: unknown, at: number) => [...keys.past, 'graph', at, input] as const,
  pastHeads: (ids: string[], at: number) => [...keys.past, 'heads', at, ids] as const,
  pastRetention: (id: string, at: number) => [...keys.past, 'retention', at, id] as const,
  pastAccess: (input: unknown, at: number) => [...keys.past, 'access', at, input] as const,
  diff: (input: unknown) => [...keys.past, 'diff', input] as const,
  all: ['mnemo'] as const,
  store: () => [...keys.all, 'store'] as const,
  memoryPage: (filter: unknown, page: number) => [...keys.all, 'memories', filter, page] as const,
  memory: (id: string) => [...keys.all, 'memory', id] as const,
  facets: () => [...keys.all, 'facets'] as const,
  graph: (input: unknown) => [...keys.all, 'graph', input] as const,
  recall: (input: unknown) => [...keys.all, 'recall', input] as const,
  whyNot: (input: unknown) => [...keys.all, 'whyNot', input] as const,
  access: (input: unknown) => [...keys.all, 'access', input] as const,
  credentials: () => [...keys.all, 'credentials'] as const,
  replay: (eventId: number) => [...keys.all, 'replay', eventId] as const,
  replayThen: (eventId: number) => [...keys.past, 'replayThen', eventId] as const,
  retention: (id: string) => [...keys.all, 'retention', id] as const,
  overview: (what: string, input?: unknown) => [...keys.all, 'overview', what, input] as const,
  journal: (what: string, input?: unknown) => [...keys.all, 'journal', what, input] as const,
  beliefs: (what: string, input?: unknown) => [...keys.all, 'beliefs', what, input] as const,
  fleet: (what: string, input?: unknown) => [...keys.all, 'fleet', what, input] as const,
  heads: (ids: string[]) => [...keys.all, 'heads', ids] as const,
  mergeOrder: (ids: string[]) => [...keys.all, 'mergeOrder', ids] as const,
  duplicates: (input: unknown) => [...keys.all, 'duplicates', input] as const,
  profiles: (what: string, input?: unknown) => [...keys.all, 'profiles', what, input] as const,
  lab: (what: string, input?: unknown) => [...keys.all, 'lab', what, input] as const,
  privacy: (what: string, input?: unknown) => [...keys.all, 'privacy', what, input] as const,
};

/**
 * keepPreviousData, but only within one timeline: while a new page of the same instant (or of the
 * live store) loads, the old one stays on screen; switching between live and an instant never shows
 * the other's rows under the wrong banner.
 */
export function sameTimeline(key: readonly unknown[]) {
  return <T>(previous: T | undefined, query: { queryKey: readonly unknown[] } | undefined): T | undefined => {
    const prev = query?.queryKey;
    if (!prev || prev[0] !== key[0]) return undefined;
    return key[0] === keys.past[0] && prev[2] !== key[2] ? undefined : previous;
  };
}
