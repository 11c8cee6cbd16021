/** Every subcommand of `mnemo`, in the order `mnemo --help` lists them. */
import type { Command } from '../command.js';
import { addCommand } from './add.js';
import { agentsCommand } from './agents.js';
import { archiveCommand } from './archive.js';
import { eraseCommand } from './erase.js';
import { demoCommand } from './demo.js';
import { diffCommand } from './diff.js';
import { graphCommand } from './graph.js';
import { exportCommand, importCommand } from './import-export.js';
import { initCommand } from './init.js';
import { linkCommand } from './link.js';
import { listCommand } from './list.js';
import { mcpCommand } from './mcp.js';
import { showCommand } from './show.js';
import { reflectCommand } from './reflect.js';
import { historyCommand, redoCommand, undoCommand } from './journal.js';
import { feedCommand } from './feed.js';
import { copyCommand } from './copy.js';
import { pgCommand } from './pg.js';
import { forgetCommand, mergeCommand } from './curate.js';
import { serveCommand } from './serve.js';
import { explainCommand, recallCommand, searchCommand } from './recall.js';
import { replayCommand } from './replay.js';
import { profilesCommand } from './profiles.js';
import { pruneCommand, retentionCommand } from './retention.js';
import { statsCommand } from './stats.js';
import { benchCommand } from './bench.js';
import { beliefsCommand } from './beliefs.js';
import { conflictsCommand } from './conflicts.js';
import { tuneCommand } from './tune.js';

export const COMMANDS: Command[] = [
  initCommand,
  addCommand,
  showCommand,
  listCommand,
  graphCommand,
  linkCommand,
  archiveCommand,
  importCommand,
  exportCommand,
  demoCommand,
  mcpCommand,
  agentsCommand,
  reflectCommand,
  historyCommand,
  diffCommand,
  undoCommand,
  redoCommand,
  feedCommand,
  copyCommand,
  pgCommand,
  mergeCommand,
  forgetCommand,
  eraseCommand,
  conflictsCommand,
  serveCommand,
  recallCommand,
  searchCommand,
  explainCommand,
  replayCommand,
  profilesCommand,
  retentionCommand,
  pruneCommand,
  statsCommand,
  benchCommand,
  tuneCommand,
  beliefsCommand,
];
