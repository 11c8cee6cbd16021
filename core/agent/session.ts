/**
 * What an agent's memory needs from the session it runs in: who reads (logged on every access),
 * the open engine, and the service's recall methods (so recall does the access logging, as it does
 * for every other door). The API session provides it (core/host/agent-session.ts); the agent room
 * sits below the API and names only this port.
 */
import type { Engine } from '../engine/engine.js';
import type { AgentCredential } from '../model/agent-credential.js';
import type { ExplainResult } from '../recall/types.js';
import type { EraseActor, EraseReceipt } from '../erase/erase.js';
import type { EraseSelector } from '../store/port/port.js';

export type AgentRecallMethod = 'recall.run' | 'recall.search' | 'recall.explain';

export interface AgentSession {
  readonly reader: { readonly owner: string; readonly session_ref: string | null };
  /** The credential this session serves (its owner is `reader.owner`), or null for a local session. */
  readonly credential: AgentCredential | null;
  engine(): Engine;
  close(): void;
  /** Runs one of the service's recall methods with this session's reader; throws the typed error. */
  recall(method: AgentRecallMethod, input: Record<string, unknown>): Promise<ExplainResult>;
  /**
   * Runs an erase as the store's long write (one at a time per store, its progress where the
   * workbench looks for it), for `actor`: an agent held to its own memories.
   */
  erase(selector: EraseSelector, actor: EraseActor): Promise<EraseReceipt>;
}
