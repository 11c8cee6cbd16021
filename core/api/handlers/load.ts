/**
 * Each prefix's handlers, imported when a method of that prefix is first called. A one-shot CLI
 * command calls one method; importing every handler (reflection, curation, beliefs, the fleet)
 * cost it about 0.1 s of CPU before it read anything. index.ts composes them all for whoever needs
 * every one at once; the type below fails to compile if a file of it has no loader here.
 */
import type { ApiSession } from '../context.js';
import type { MethodName } from '../contract/index.js';
import type { handlersByFile } from './index.js';

type HandlerFile = keyof typeof handlersByFile;
type AnyHandler = (input: unknown, session: ApiSession) => unknown;

const LOADERS: { [F in HandlerFile]: () => Promise<(typeof handlersByFile)[F]> } = {
  access: async () => (await import('./access.js')).accessHandlers,
  beliefs: async () => (await import('./beliefs.js')).beliefsHandlers,
  curation: async () => (await import('./curation.js')).curationHandlers,
  edge: async () => (await import('./edge.js')).edgeHandlers,
  feed: async () => (await import('./feed.js')).feedHandlers,
  fleet: async () => (await import('./fleet.js')).fleetHandlers,
  graph: async () => (await import('./graph.js')).graphHandlers,
  intents: async () => (await import('./intents.js')).intentsHandlers,
  journal: async () => (await import('./journal.js')).journalHandlers,
  lab: async () => (await import('./lab.js')).labHandlers,
  memory: async () => (await import('./memory.js')).memoryHandlers,
  overview: async () => (await import('./overview.js')).overviewHandlers,
  profiles: async () => (await import('./profiles.js')).profilesHandlers,
  recall: async () => (await import('./recall.js')).recallHandlers,
  reflect: async () => (await import('./reflect.js')).reflectHandlers,
  retention: async () => (await import('./retention.js')).retentionHandlers,
  review: async () => (await import('./review.js')).reviewHandlers,
  stats: async () => (await import('./stats.js')).statsHandlers,
  store: async () => (await import('./store.js')).storeHandlers,
  todos: async () => (await import('./todos.js')).todosHandlers,
};

const loaded = new Map<HandlerFile, Record<string, AnyHandler>>();

/**
 * The handler of a method: itself when its file is loaded (so a call runs as soon as it is made, as
 * before), a promise of it while the file is first imported.
 */
export function handlerOf(method: MethodName): AnyHandler | Promise<AnyHandler> {
  const file = method.slice(0, method.indexOf('.')) as HandlerFile;
  const record = loaded.get(file);
  if (record) return record[method]!;
  return LOADERS[file]().then((imported) => {
    const handlers = imported as unknown as Record<string, AnyHandler>;
    loaded.set(file, handlers);
    return handlers[method]!;
  });
}
