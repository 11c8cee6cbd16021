/**
 * What a handler runs against: the currently open engine plus who is reading (the workbench, an
 * MCP agent, a CLI user). Doors create one ApiSession and share it between calls.
 */
import { fixedClock, systemClock, type Clock } from '../clock.js';
import { MnemoError } from '../errors.js';
import { beliefJournalFollowUps } from '../beliefs/journal-target.js';
import { Engine, type EngineOptions, type EngineReader } from '../engine/engine.js';
import { loadLlmEndpoints, type LlmEndpoints } from '../reflect/llm-endpoints.js';
import type { AgentCredential } from '../model/agent-credential.js';
import type { PathPolicy } from './path-policy.js';
import type { RunPacing } from '../model/run-pacing.js';

export interface Reader {
  /** Logged as `reader_owner` on accesses this session makes. */
  owner: string;
  session_ref: string | null;
}

export interface SessionOptions {
  clock?: Clock;
  reader?: Partial<Reader>;
  engineOptions?: Omit<EngineOptions, 'clock' | 'create' | 'readonly' | 'journalFollowUps'>;
  /** What the shell hosting this session lets the engine ask of the user (Electron: dialogs). */
  shell?: ShellHooks;
  /** Every store this session opens is read-only, whatever a later store.open asks (serve --readonly). */
  readonly?: boolean;
  /** The LLM endpoints generative reflection may use (default: from MNEMO_LLM_CONFIG / MNEMO_LLM_* on first use). */
  llmEndpoints?: LlmEndpoints;
  /**
   * The agent credential this session serves (verified by core/agent/credentials.ts). The session's
   * owner is the credential's, its scopes are enforced on every call, and every access and change
   * records its id. A `reader.owner` that differs is refused rather than ignored.
   */
  credential?: AgentCredential;
  /** How this session's long writes (a reflection apply) pace their transactions; the defaults (run-pacing.ts) unless set. */
  runPacing?: RunPacing;
}

export interface ShellHooks {
  /** Asks the user to pick a folder (Electron's dialog); null when they cancel. */
  chooseFolder?: (title: string) => Promise<string | null>;
  /**
   * Whether `fleet.open` may take a folder path from the caller. Browser mode: yes (the token holder
   * is the user, and the path is validated). Electron: no, only a folder picked in the dialog.
   */
  fleetPathFromApi?: boolean;
  /** Which paths store.open / fleet.open may name (default: any, for in-process callers). */
  paths?: PathPolicy;
}

function credentialOwner(credential: AgentCredential, asked: string | undefined): string {
  if (asked !== undefined && asked !== credential.owner) {
    throw new MnemoError('permission', `this session serves the credential of ${credential.owner}, so it cannot act as ${JSON.stringify(asked)}; a credential's owner is fixed when it is issued`, {
      field: 'owner',
      credential_id: credential.id,
    });
  }
  return credential.owner;
}

export class ApiSession {
  private current: Engine | null = null;
  /** The last engine opened on a past instant (readingAt), kept while the instant and the store's feed stay the same. */
  private past: { engine: Engine; at: number; path: string; seq: number | null } | null = null;
  /** Requests under way (invoke), so the past engine's snapshot is released only between them. */
  private inFlight = 0;
  readonly clock: Clock;
  readonly clockFrozen: boolean;
  readonly reader: Reader;
  readonly engineOptions: SessionOptions['engineOptions'];
  readonly shell: ShellHooks;
  readonly readonlyOnly: boolean;
  /** The pacing of this session's long writes (SessionOptions.runPacing). */
  readonly runPacing: RunPacing | undefined;
  readonly credential: AgentCredential | null;
  private llm: LlmEndpoints | undefined;

  constructor(opts: SessionOptions = {}) {
    this.clock = opts.clock ?? systemClock;
    this.clockFrozen = opts.clock !== undefined && opts.clock !== systemClock;
    this.credential = opts.credential ?? null;
    this.reader = { owner: this.credential ? credentialOwner(this.credential, opts.reader?.owner) : (opts.reader?.owner ?? 'workbench'), session_ref: opts.reader?.session_ref ?? null };
    this.engineOptions = opts.engineOptions;
    this.shell = opts.shell ?? {};
    this.llm = opts.llmEndpoints;
    this.readonlyOnly = opts.readonly ?? false;
    this.runPacing = opts.runPacing;
  }

  /** The server-side LLM endpoints; requests can only pick among these by name. */
  llmEndpoints(): LlmEndpoints {
    this.llm ??= loadLlmEndpoints();
    return this.llm;
  }

  static withFrozenClock(now: number | undefined, opts: SessionOptions = {}): ApiSession {
    return new ApiSession({ ...opts, ...(now === undefined ? {} : { clock: fixedClock(now) }) });
  }

  /** Opens `path` as the current store; `convert` (only `mnemo init`) may turn a non-store file into one. */
  open(path: string, opts: { create?: boolean; readonly?: boolean; convert?: boolean } = {}): Engine {
    const readonly = this.readonlyOnly || (opts.readonly ?? false);
    // Every row kind core journals, so any door can undo any change, whichever modules it loaded.
    const engine = Engine.open(path, { ...this.engineOptions, journalFollowUps: beliefJournalFollowUps, clock: this.clock, create: !readonly && (opts.create ?? false), readonly, convert: !readonly && (opts.convert ?? false) });
    this.dropPast();
    this.current?.close();
    this.current = engine;
    return engine;
  }

  /**
   * The engine a read handler uses for `at`: the current one when `at` is absent, or one on the
   * store as it stood at that instant (Engine.openAsOf; read-only, its clock stopped then). An
   * instant at or after the last change is the store as it is now, so the current engine serves it.
   * The last past engine is kept for the next call at the same instant until the store changes.
   */
  readingAt(at: number | undefined): EngineReader {
    const live = this.engine();
    if (at === undefined) return live;
    const seq = live.store.feedPosition()?.seq ?? null;
    const kept = this.past;
    if (kept && kept.at === at && kept.path === live.path && kept.seq === seq && kept.engine.store.resumeSnapshot()) {
      return kept.engine;
    }
    this.dropPast();
    const engine = Engine.openAsOf(live.path, at, { ...this.engineOptions, clock: this.clock, embedder: live.embedder });
    if (engine.store.history?.live) {
      engine.close();
      return live;
    }
    this.past = { engine, at, path: live.path, seq };
    return engine;
  }

  /** Counts a request in (invoke); requestEnded counts it out. */
  requestStarted(): void {
    this.inFlight++;
  }

  /**
   * After a request: once none is under way, the past engine's read snapshot is let go, so it does
   * not pin the WAL between requests (MemoryStore.releaseSnapshot; docs/store-format.md).
   */
  requestEnded(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (this.inFlight === 0) this.past?.engine.store.releaseSnapshot();
  }

  private dropPast(): void {
    this.past?.engine.close();
    this.past = null;
  }

  /** Adopts an engine opened elsewhere (tests, the library API). */
  adopt(engine: Engine): void {
    this.dropPast();
    if (this.current && this.current !== engine) this.current.close();
    this.current = engine;
  }

  get hasEngine(): boolean {
    return this.current !== null;
  }

  engine(): Engine {
    if (!this.current) throw new MnemoError('not_found', 'no store is open; open one with store.open (File → Open Store…)');
    return this.current;
  }

  /**
   * The current engine as a read-only handler sees it: its store is the port's read side, so a
   * handler that only reads cannot write by mistake (core/engine/engine.ts, EngineReader).
   */
  reading(): EngineReader {
    return this.engine();
  }

  close(): void {
    this.dropPast();
    this.current?.close();
    this.current = null;
  }
}
