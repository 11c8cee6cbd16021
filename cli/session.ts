/** Opens the store named on the command line inside an ApiSession, so the CLI goes through core/api. */
import { ApiSession } from '../core/api/context.js';
import type { LlmEndpoints } from '../core/reflect/llm-endpoints.js';
import type { CommandContext } from './command.js';
import { indexBuildReporter, indexKeepReporter } from './index-progress.js';

export function openSession(ctx: CommandContext, db: string, opts: { create?: boolean; readonly?: boolean; convert?: boolean; reader?: string; llmEndpoints?: LlmEndpoints } = {}): ApiSession {
  const session = new ApiSession({
    clock: ctx.clock,
    ...(opts.llmEndpoints ? { llmEndpoints: opts.llmEndpoints } : {}),
    reader: { owner: opts.reader ?? 'cli', session_ref: null },
    engineOptions: {
      onWarning: (m) => ctx.io.err(`warning: ${m}`),
      indexSnapshots: {
        onBuild: indexBuildReporter((line) => ctx.io.err(line)),
        onKeep: indexKeepReporter((line) => ctx.io.err(line)),
        // A one-shot command that opened the store read-only (explain, list, graph) keeps what it built beside it all the same.
        keepBesideReadOnly: true,
      },
    },
  });
  session.open(db, opts);
  return session;
}
