/** The query-key factory: every cached engine answer lives under ['mnemo', …], so live refresh can invalidate all of it. */
export const keys = {
  all: ['mnemo'] as const,
  store: () => [...keys.all, 'store'] as const,
  memoryPage: (filter: unknown, page: number) => [...keys.all, 'memories', filter, page] as const,
  memory: (id: string) => [...keys.all, 'memory', id] as const,
  facets: () => [...keys.all, 'facets'] as const,
  graph: (input: unknown) => [...keys.all, 'graph', input] as const,
  recall: (input: unknown) => [...keys.all, 'recall', input] as const,
  whyNot: (input: unknown) => [...keys.all, 'whyNot', input] as const,
  access: (input: unknown) => [...keys.all, 'access', input] as const,
  replay: (eventId: number) => [...keys.all, 'replay', eventId] as const,
  retention: (id: string) => [...keys.all, 'retention', id] as const,
  overview: (what: string, input?: unknown) => [...keys.all, 'overview', what, input] as const,
  journal: (what: string, input?: unknown) => [...keys.all, 'journal', what, input] as const,
  beliefs: (what: string, input?: unknown) => [...keys.all, 'beliefs', what, input] as const,
  fleet: (what: string, input?: unknown) => [...keys.all, 'fleet', what, input] as const,
  heads: (ids: string[]) => [...keys.all, 'heads', ids] as const,
};
