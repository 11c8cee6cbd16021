/**
 * One agent's turn through its own credential, for tests and screenshots that need a store whose
 * accesses and changes are attributed: a memory remembered (a change) and a recall (accesses).
 */
import { AgentMemory } from '../core/agent/agent-memory.js';
import type { AgentCredential } from '../core/agent/credentials.js';
import type { Clock } from '../core/clock.js';
import { AgentApiSession } from '../core/host/agent-session.js';

export async function agentTurn(path: string, credential: AgentCredential, content: string, query: string, clock: Clock): Promise<void> {
  const session = new AgentApiSession({ clock, credential });
  session.open(path);
  const agent = new AgentMemory(session, { workspaceRoot: null });
  try {
    await agent.remember({ content });
    await agent.recall(query);
  } finally {
    agent.close();
  }
}
