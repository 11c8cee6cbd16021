/**
 * Every subcommand of `mnemo`, in the order `mnemo --help` lists them, each loaded only when it
 * runs: importing all of them (the MCP server, the HTTP server, PostgreSQL copy, the benchmarks)
 * cost a one-shot `mnemo explain` about a third of its CPU before it read anything.
 */
import type { Command } from '../command.js';

export interface ListedCommand {
  /** The name it is run by; the loaded Command carries the same one (a test checks). */
  name: string;
  load(): Promise<Command>;
}

export const COMMAND_LIST: readonly ListedCommand[] = [
  { name: 'init', load: async () => (await import('./init.js')).initCommand },
  { name: 'add', load: async () => (await import('./add.js')).addCommand },
  { name: 'show', load: async () => (await import('./show.js')).showCommand },
  { name: 'list', load: async () => (await import('./list.js')).listCommand },
  { name: 'graph', load: async () => (await import('./graph.js')).graphCommand },
  { name: 'link', load: async () => (await import('./link.js')).linkCommand },
  { name: 'archive', load: async () => (await import('./archive.js')).archiveCommand },
  { name: 'import', load: async () => (await import('./import-export.js')).importCommand },
  { name: 'export', load: async () => (await import('./import-export.js')).exportCommand },
  { name: 'demo', load: async () => (await import('./demo.js')).demoCommand },
  { name: 'mcp', load: async () => (await import('./mcp.js')).mcpCommand },
  { name: 'agents', load: async () => (await import('./agents.js')).agentsCommand },
  { name: 'reflect', load: async () => (await import('./reflect.js')).reflectCommand },
  { name: 'history', load: async () => (await import('./journal.js')).historyCommand },
  { name: 'diff', load: async () => (await import('./diff.js')).diffCommand },
  { name: 'undo', load: async () => (await import('./journal.js')).undoCommand },
  { name: 'redo', load: async () => (await import('./journal.js')).redoCommand },
  { name: 'feed', load: async () => (await import('./feed.js')).feedCommand },
  { name: 'copy', load: async () => (await import('./copy.js')).copyCommand },
  { name: 'pg', load: async () => (await import('./pg.js')).pgCommand },
  { name: 'merge', load: async () => (await import('./curate.js')).mergeCommand },
  { name: 'forget', load: async () => (await import('./curate.js')).forgetCommand },
  { name: 'erase', load: async () => (await import('./erase.js')).eraseCommand },
  { name: 'conflicts', load: async () => (await import('./conflicts.js')).conflictsCommand },
  { name: 'serve', load: async () => (await import('./serve.js')).serveCommand },
  { name: 'recall', load: async () => (await import('./recall.js')).recallCommand },
  { name: 'search', load: async () => (await import('./recall.js')).searchCommand },
  { name: 'explain', load: async () => (await import('./recall.js')).explainCommand },
  { name: 'replay', load: async () => (await import('./replay.js')).replayCommand },
  { name: 'profiles', load: async () => (await import('./profiles.js')).profilesCommand },
  { name: 'retention', load: async () => (await import('./retention.js')).retentionCommand },
  { name: 'prune', load: async () => (await import('./retention.js')).pruneCommand },
  { name: 'stats', load: async () => (await import('./stats.js')).statsCommand },
  { name: 'bench', load: async () => (await import('./bench.js')).benchCommand },
  { name: 'tune', load: async () => (await import('./tune.js')).tuneCommand },
  { name: 'beliefs', load: async () => (await import('./beliefs.js')).beliefsCommand },
];

/** Every command, loaded (`mnemo --help` lists their summaries). */
export function loadCommands(): Promise<Command[]> {
  return Promise.all(COMMAND_LIST.map((c) => c.load()));
}
