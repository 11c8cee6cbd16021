/**
 * The API session as an agent's session: the library API (core/index.ts) and the MCP server open
 * one per agent, and AgentMemory reaches recall through the service contract with it.
 */
import type { AgentRecallMethod, AgentSession } from '../agent/session.js';
import { ApiSession } from '../api/context.js';
import { call } from '../api/service.js';
import type { ExplainResult } from '../recall/types.js';
import type { EraseActor, EraseReceipt } from '../erase/erase.js';
import type { EraseSelector } from '../store/port/port.js';
import { runEraseJob } from '../api/handlers/shared/erase-job.js';

export class AgentApiSession extends ApiSession implements AgentSession {
  recall(method: AgentRecallMethod, input: Record<string, unknown>): Promise<ExplainResult> {
    return call(this, method, input);
  }

  async erase(selector: EraseSelector, actor: EraseActor): Promise<EraseReceipt> {
    return (await runEraseJob(this.engine(), selector, actor, false, this.runPacing)) as EraseReceipt;
  }
}
