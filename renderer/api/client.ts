/** Typed calls over the transport: `call('memory.get', {id})` returns the method's output or throws ApiError. */
import type { InputOf, MethodName, OutputOf } from '../../core/api/contract/index.js';
import type { Transport } from './transport.js';

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** Structured facts the engine attached (e.g. `blocked_by` on a refused undo, `replan` on a stale plan). */
    readonly details: Record<string, unknown> | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let transport: Transport | null = null;

export function setTransport(t: Transport): void {
  transport = t;
}

export function getTransport(): Transport {
  if (!transport) throw new ApiError('internal', 'no engine transport configured');
  return transport;
}

export async function call<M extends MethodName>(method: M, input: InputOf<M>): Promise<OutputOf<M>> {
  const res = await getTransport().invoke(method, input);
  if (!res.ok) throw new ApiError(res.error.code, res.error.message, res.error.details ?? null);
  return res.value as OutputOf<M>;
}

