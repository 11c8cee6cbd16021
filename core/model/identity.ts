/**
 * Who an agent is and what it may see: the reference's owner policy. Reads default to the agent's
 * own role (every instance of it) plus unowned memories; `*` means everyone; a role or
 * `role@instance` narrows to it. Writes to another role's memories are refused (assertWritable).
 */
import { parseOwnerScope, roleOf, validateOwner, type OwnerScope } from './owner.js';

export interface AgentIdentity {
  /** The writer identity, `role[@instance]`; `""` is the unowned/shared writer. */
  owner: string;
  /** Lands on every access this agent makes (`session_ref`). */
  session_ref: string | null;
}

export function makeIdentity(owner: string | undefined, session: string | null | undefined): AgentIdentity {
  return { owner: validateOwner(owner ?? '', 'owner'), session_ref: session ?? null };
}

/**
 * The read scope for a request. The unowned writer's own role is `""`, which sees unowned rows only
 * (ownerMatches and ownerClause both treat `""` that way).
 */
export function readScope(agentOwner: string, requested?: string | null): OwnerScope {
  if (requested === undefined || requested === null) return roleOf(agentOwner);
  return parseOwnerScope(requested, 'owner');
}
