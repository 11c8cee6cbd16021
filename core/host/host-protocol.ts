/**
 * The messages between an engine host (engine-host.ts, on the thread that answers people and
 * agents) and its engine workers (engine-worker.ts). Everything here crosses a thread boundary, so
 * it is plain data: structured-clone values, plus the shared cancel board.
 */
import type { Envelope } from '../api/define.js';
import type { PathPolicy } from '../api/path-policy.js';
import type { RunPacing } from '../model/run-pacing.js';
import type { LlmConfig } from '../reflect/llm.js';
import type { Lane } from './lanes.js';

/** How each worker builds its ApiSession: the options of core/api/context.ts that plain data can carry. */
export interface SessionSetup {
  /** Freezes the engine clock at this instant (--now); absent: the system clock. */
  now?: number;
  reader: { owner: string; session_ref: string | null };
  readonly?: boolean;
  runPacing?: RunPacing;
  /** The server's LLM endpoints (LlmEndpoints.plain()); absent: loaded from the environment on first use. */
  llm?: { endpoints: Record<string, LlmConfig>; default: string | null };
  engine?: {
    /** better-sqlite3's addon for this runtime (Electron's ABI differs from Node's). */
    nativeBinding?: string;
    /** People watch this process (browser mode, the desktop app): its views' lanes leave index snapshots to others (VIEWER_SAVE_PATIENCE). */
    watched?: boolean;
    snapshots?: boolean;
    /** --replica: streaming standbys of a PostgreSQL store's primary to read from (docs/postgres.md, "Replicas"). */
    replicas?: string[];
  };
  shell?: {
    fleetPathFromApi?: boolean;
    paths?: PathPolicy;
    /** The host can show a folder picker (Electron's dialog): the worker asks it. */
    chooseFolder?: boolean;
  };
}

/**
 * The board where a long change says it wants a store's write lock, and each worker how many
 * accesses it keeps for the change's pause. Its layout is core/store/port/write-courtesy.ts's
 * (two words, then one per worker); the host only makes it (the answering thread loads no store
 * module), hands it to every worker, and clears a stopped worker's count.
 */
export function courtesyBoard(workers: number): SharedArrayBuffer {
  return new SharedArrayBuffer(4 * (COURTESY_FIRST_KEPT + workers));
}

/** A stopped worker's kept accesses are gone with it: its count no longer stretches a long change's pauses. */
export function forgetKeptBy(board: SharedArrayBuffer, worker: number): void {
  Atomics.store(new Int32Array(board), COURTESY_FIRST_KEPT + worker, 0);
}

const COURTESY_FIRST_KEPT = 2;

export interface WorkerSetup {
  lane: Lane;
  /** Which worker of its lane (0…). */
  index: number;
  session: SessionSetup;
  /** Where the host writes the calls it cancels (core/engine/job-signals.ts). */
  cancelBoard: SharedArrayBuffer;
  /** Where a long change says it wants a store's write lock, the same for every thread of the process (write-courtesy.ts). */
  courtesyBoard: SharedArrayBuffer;
  /** This worker's word on that board for the accesses it keeps (0…, one per worker of the host). */
  courtesySlot: number;
  /** Poll the store for other connections' commits and say so (live refresh); one worker of a host does. */
  watchChanges: number | null;
  /** Modules the worker imports at start; each may register handlers for `ext` requests (worker-extension.ts). */
  extensions: string[];
  /** The nice value the worker lowers its thread to (thread-priority.ts); 0 leaves it. */
  nice: number;
}

/** What the host asks of a worker besides API calls. */
export type ControlOp =
  | { op: 'open'; path: string; readonly?: boolean; create?: boolean }
  | { op: 'openFleet'; folder: string }
  | { op: 'demo'; path: string; size: number; now: number }
  | { op: 'current' }
  | { op: 'paths'; paths: PathPolicy }
  | { op: 'close' };

export type ToWorker =
  | { kind: 'invoke'; id: number; method: string; input: unknown; json?: boolean }
  | { kind: 'control'; id: number; control: ControlOp }
  | { kind: 'ext'; id: number; name: string; payload: unknown }
  | { kind: 'cancel'; id: number }
  | { kind: 'answer'; id: number; value: unknown };

/** An API call's envelope as JSON text, with what a door needs to know of it without parsing it. */
export interface EnvelopeText {
  ok: boolean;
  /** The error code when not ok. */
  code: string | null;
  json: string;
}

export type FromWorker =
  | { kind: 'ready' }
  | { kind: 'result'; id: number; envelope: Envelope<unknown> }
  | { kind: 'text'; id: number; ok: boolean; code: string | null; json: string }
  | { kind: 'progress'; method: string; value: unknown }
  | { kind: 'changed' }
  | { kind: 'warning'; message: string }
  | { kind: 'ask'; id: number; question: { what: 'chooseFolder'; title: string } };
