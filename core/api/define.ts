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

/** `method<Output>()({input, description})` declares a method with its output type. */
export function method<O>() {
  return <I extends z.ZodType>(spec: { input: I; description: string; mutates?: boolean; switchesStore?: boolean }): MethodSpec<I, O> => spec as MethodSpec<I, O>;
}

export type Envelope<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string; details?: Record<string, unknown> } };
