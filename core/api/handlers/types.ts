import type { ApiSession } from '../context.js';
import type { Contract, MethodName, OutputOf, ParsedInputOf } from '../contract/index.js';
import type { EngineReader } from '../../engine/engine.js';

/**
 * The session a read-only method's handler gets (its contract says neither `mutates: true` nor
 * `switchesStore: true`): its engine is the read side (an EngineReader, whose store is a
 * StoreReader), so a write from the handler is a compile error. At run time it is the same
 * ApiSession (asReadSession in service.ts); only the type narrows.
 */
export type ReadSession = Pick<ApiSession, 'clock' | 'clockFrozen' | 'reader' | 'credential' | 'readonlyOnly' | 'shell' | 'reading' | 'readingAt' | 'llmEndpoints' | 'hasEngine'> & {
  engine(): EngineReader;
};

type Declares<M extends MethodName, K extends 'mutates' | 'switchesStore'> = Contract[M] extends { readonly [P in K]?: false } ? false : true;

/** Whether method M's contract says that it writes or makes another store current. */
export type ChangesStore<M extends MethodName> = Declares<M, 'mutates'> extends true ? true : Declares<M, 'switchesStore'>;

/**
 * Read methods whose handlers still get the whole session: each calls a helper typed for the
 * writer (an Engine or an ApiSession) although the method writes nothing (plan caches, fleet
 * listings and the fleet folder the session keeps, belief reads through BeliefModel, intents and todos listed from a StoreWriter). Moving
 * one to the read side means retyping its helper; the list only shrinks.
 */
export const READ_ON_THE_WRITER = [
  'beliefs.aliases.list',
  'beliefs.aliases.plan',
  'beliefs.answer',
  'beliefs.config',
  'beliefs.deltas',
  'beliefs.entities',
  'beliefs.entity',
  'beliefs.forMemory',
  'beliefs.get',
  'beliefs.retrieve',
  'curation.duplicates',
  'fleet.choose',
  'fleet.kpis',
  'fleet.list',
  'fleet.open',
  'intents.due',
  'intents.list',
  'journal.progress',
  'memory.mergeOrder',
  'reflect.cancel',
  'reflect.plan',
  'reflect.progress',
  'review.counts',
  'review.items',
  'review.plan',
  'store.info',
  'todos.list',
] as const satisfies readonly MethodName[];
export type ReadOnTheWriter = (typeof READ_ON_THE_WRITER)[number];

export type SessionFor<M extends MethodName> = ChangesStore<M> extends true ? ApiSession : M extends ReadOnTheWriter ? ApiSession : ReadSession;

export type Handler<M extends MethodName> = (input: ParsedInputOf<M>, session: SessionFor<M>) => OutputOf<M> | Promise<OutputOf<M>>;
export type HandlersFor<C extends Partial<Contract>> = { [M in keyof C & MethodName]: Handler<M> };
