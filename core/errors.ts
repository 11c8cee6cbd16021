/**
 * Typed errors crossing every boundary (CLI, IPC, HTTP, MCP). Adapters turn these into
 * `{ok:false, error:{code, message}}` or an exit code; nothing else should reach a user.
 */
export type ErrorCode =
  | 'bad_input' // the caller sent something invalid: fix the input
  | 'not_found' // the named thing does not exist
  | 'schema' // the store's schema is newer or not a store at all
  | 'permission' // owner policy refused the operation
  | 'conflict' // the store changed underneath the request (stale plan, blocked undo)
  | 'busy' // the store stayed locked past the timeout
  | 'unsupported' // this store's backend cannot do it (yet): use another store, not another input
  | 'internal'; // a bug or an environment failure

export class MnemoError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'MnemoError';
    this.code = code;
    this.details = details;
  }
}

export const badInput = (message: string, details?: Record<string, unknown>) =>
  new MnemoError('bad_input', message, details);
export const notFound = (message: string, details?: Record<string, unknown>) =>
  new MnemoError('not_found', message, details);

/** Exit code for the CLI: 2 for anything the user can fix in the input, 1 for runtime failures. */
export function exitCodeFor(code: ErrorCode): 1 | 2 {
  return code === 'bad_input' || code === 'not_found' || code === 'schema' || code === 'permission' ? 2 : 1;
}

export interface ErrorShape {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/** Converts anything thrown into a plain error shape without leaking stack traces. */
export function toErrorShape(err: unknown): ErrorShape {
  if (err instanceof MnemoError) {
    return err.details ? { code: err.code, message: err.message, details: err.details } : { code: err.code, message: err.message };
  }
  const sqliteCode = (err as { code?: unknown })?.code;
  if (sqliteCode === 'SQLITE_BUSY' || sqliteCode === 'SQLITE_LOCKED') {
    return { code: 'busy', message: 'the store stayed locked by another writer (another process, or another worker of this one) past the busy wait; nothing was written; try again' };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'internal', message };
}
