import type { ApiSession } from '../context.js';
import type { Contract, MethodName, OutputOf, ParsedInputOf } from '../contract/index.js';
import type { EngineReader } from '../../engine/engine.js';

/**
 * The session a read-only method's handler gets (its contract says neither `mutates: true` nor
 * `switchesStore: true`): its engine is the read side (an EngineReader, whose store is a
 * StoreReader), so a write from the handler is a compile error. At run time it is the same
 * ApiSession (asReadSession in service.ts); only the type narrows.
 */
export type ReadSession = Pick<ApiSession, 'clock' | 'clockFrozen' | 'reader' | 'credential' | 'readonlyOnly' | 'shell' | 'engineOptions' | 'reading' | 'readingAt' | 'llmEndpoints' | 'hasEngine'> & {
  engine(): EngineReader;
};

type Declares<M extends MethodName, K extends 'mutates' | 'switchesStore'> = Contract[M] extends { readonly [P in K]?: false } ? false : true;

/** Whether method M's contract says that it writes or makes another store current. */
export type ChangesStore<M extends MethodName> = Declares<M, 'mutates'> extends true ? true : Declares<M, 'switchesStore'>;

/** Every method that changes nothing gets the read side; there are no exceptions. */
export type SessionFor<M extends MethodName> = ChangesStore<M> extends true ? ApiSession : ReadSession;

export type Handler<M extends MethodName> = (input: ParsedInputOf<M>, session: SessionFor<M>) => OutputOf<M> | Promise<OutputOf<M>>;
export type HandlersFor<C extends Partial<Contract>> = { [M in keyof C & MethodName]: Handler<M> };
