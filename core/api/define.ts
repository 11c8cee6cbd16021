/**
 * The shape of the one typed service map: each method has a zod input schema (the boundary check
 * every door shares) and a declared output type. This file imports only zod, so the renderer can
 * import the contract's types without pulling in Node.
 */
import type { z } from 'zod';

export interface MethodSpec<I extends z.ZodType = z.ZodType, O = unknown> {
  input: I;
  description: string;
  /** True when the method changes the store (the open views refresh, adapters may gate it). */
  mutates?: boolean;
  /** True when the method makes another store the current one (the open views refresh, though nothing was written). */
  switchesStore?: boolean;
  /** Phantom: carries the output type. */
  readonly __output?: O;
}

/**
 * `method<Output>()({input, description})` declares a method with its output type. `mutates` and
 * `switchesStore` keep their literal types (`W`, `S`), so a handler's session can depend on it (handlers/types.ts): a method
 * that does not mutate gets a session whose engine is the read side.
 */
export function method<O>() {
  return <I extends z.ZodType, W extends boolean = false, S extends boolean = false>(spec: {
    input: I;
    description: string;
    mutates?: W;
    switchesStore?: S;
  }): MethodSpec<I, O> & { readonly mutates?: W; readonly switchesStore?: S } => spec as MethodSpec<I, O> & { readonly mutates?: W; readonly switchesStore?: S };
}

export type Envelope<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string; details?: Record<string, unknown> } };
