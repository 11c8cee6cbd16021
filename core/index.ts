/**
 * The library API for TypeScript agents: `import { openStore } from 'mnemo'`.
 *
 *   const memory = openStore('.mnemo/memory.sqlite', { owner: 'planner@01', session: 'run-42' });
 *   const { id } = await memory.remember({ content: 'Deploys go through scripts/deploy.sh', tags: ['deploy'] });
 *   const hits = await memory.recall('how do I deploy?');
 *
 * The returned AgentMemory is the same object the MCP server serves (see docs/agents.md).
 */
import { AgentMemory as AgentMemoryOf, type AgentMemoryOptions } from './agent/agent-memory.js';
import { AgentApiSession } from './host/agent-session.js';
import { makeIdentity } from './model/identity.js';
import type { Clock } from './clock.js';
import type { Embedder } from './embed/embedder.js';
import type { AgentCredential } from './model/agent-credential.js';

export interface OpenStoreOptions extends AgentMemoryOptions {
  /** The agent's identity, `role[@instance]`; omitted or `""` writes unowned (shared) memories. */
  owner?: string;
  /** Lands on every access as `session_ref` (a run id, a chat id). */
  session?: string | null;
  /** Time source (default: the system clock); a fixed clock makes runs replayable. */
  clock?: Clock;
  /** Create the file when it does not exist (default true, as the reference does). */
  create?: boolean;
  /** Embedder (default: the nooa-compatible hashing embedder, 256 dimensions). */
  embedder?: Embedder;
  onWarning?: (message: string) => void;
  /** A verified agent credential (core/agent/credentials.ts): the agent acts as its owner, within its scopes. */
  credential?: AgentCredential;
}

/** Opens (or creates) a store as one agent. Close it with `memory.close()`. */
export function openStore(path: string, opts: OpenStoreOptions = {}): AgentMemory {
  // A credential fixes the owner; an explicit owner that differs is refused by the session.
  const who = opts.credential && opts.owner === undefined ? { session_ref: makeIdentity(undefined, opts.session).session_ref } : makeIdentity(opts.owner, opts.session);
  const session = new AgentApiSession({
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.credential ? { credential: opts.credential } : {}),
    reader: who,
    engineOptions: {
      ...(opts.embedder ? { embedder: opts.embedder } : {}),
      ...(opts.onWarning ? { onWarning: opts.onWarning } : {}),
    },
  });
  session.open(path, { create: opts.create ?? true });
  return new AgentMemoryOf(session, opts);
}

/** An agent's memory as the library API opens it: its session is an API session, which doors can call too. */
export type AgentMemory = AgentMemoryOf<AgentApiSession>;
export const AgentMemory = AgentMemoryOf;
export type { AgentMemoryOptions, RememberInput, UpdateInput, RecallOptions, RecalledMemory, InjectionResult, Importance } from './agent/agent-memory.js';
export type { RememberResult, WritePolicy } from './agent/remember.js';
export type { MemoryStats } from './agent/stats.js';
export type { ReflectionOutcome, ReflectionReport } from './agent/reflect.js';
export type { AgentCredential, CredentialScope, IssuedCredential } from './agent/credentials.js';
export { issueCredential, verifyCredentialToken, listCredentials, revokeCredentials } from './agent/credentials.js';
export type { ReferenceHost, ResolvedRef } from './agent/references.js';
export { parseRef, renderRef } from './agent/references.js';
export type { SpontaneousConfig, TurnContext, Cadence, OpenTodosMode } from './agent/inject.js';
export { DEFAULT_SPONTANEOUS } from './agent/inject.js';
export type { DueContext, Firing } from './prospective/scheduler.js';
export { due, cueAppears } from './prospective/scheduler.js';
export type { FiredIntent } from './prospective/intents.js';
export type { IntentView, TodoView, IntentState } from './prospective/views.js';
export type { TriggerSpecInput, TriggerKind } from './prospective/triggers.js';
export type { Memory, MemoryRef, AccessRecord, Edge } from './model/memory.js';
export type { MemoryType, EdgeType, TodoStatus, AccessChannel } from './model/enums.js';
export { MnemoError, type ErrorCode } from './errors.js';
export { fixedClock, systemClock, type Clock } from './clock.js';
export type { Embedder } from './embed/embedder.js';
