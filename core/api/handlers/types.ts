import type { ApiSession } from '../context.js';
import type { Contract, MethodName, OutputOf, ParsedInputOf } from '../contract/index.js';

export type Handler<M extends MethodName> = (input: ParsedInputOf<M>, session: ApiSession) => OutputOf<M> | Promise<OutputOf<M>>;
export type HandlersFor<C extends Partial<Contract>> = { [M in keyof C & MethodName]: Handler<M> };
