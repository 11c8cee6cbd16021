/**
 * `mnemo`: dispatches to a subcommand, turns typed errors into messages and exit codes
 * (2 = bad usage or input, 1 = runtime failure), and never prints a stack trace.
 */
import { exitCodeFor, toErrorShape, type ErrorCode } from '../core/errors.js';
import { clockFor, parseCommandArgs, parseNow, type Command } from './command.js';
import { COMMAND_LIST, loadCommands } from './commands/index.js';
import { CLOSED_PIPE_EXIT, processIO, type CliIO } from './io.js';

async function help(): Promise<string> {
  const commands = await loadCommands();
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'mnemo: a nooa-compatible memory engine for AI agents',
    '',
    'usage: mnemo <command> [args] [--json] [--now <epoch seconds>]',
    '',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run "mnemo <command> --help" for a command\'s arguments.',
  ].join('\n');
}

export async function main(argv: string[], io: CliIO = processIO): Promise<number> {
  const code = await dispatch(argv, io);
  // Output cut short by a reader that stopped early: said by the status, never by a stack trace.
  return code === 0 && io.outputClosed?.() ? CLOSED_PIPE_EXIT : code;
}

async function dispatch(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(await help());
    return name ? 0 : 2;
  }
  if (name === '--version') {
    io.out('mnemo 0.1.0');
    return 0;
  }
  // Only the command asked for is loaded: a one-shot command pays for its own modules alone.
  const listed = COMMAND_LIST.find((c) => c.name === name);
  if (!listed) {
    io.err(`mnemo: unknown command ${JSON.stringify(name)}\n\n${await help()}`);
    return 2;
  }
  const cmd: Command = await listed.load();
  let json = rest.includes('--json');
  try {
    const { values, positionals } = parseCommandArgs(cmd, rest);
    if (values['help']) {
      io.out(`usage: ${cmd.usage}\n\n${cmd.summary}`);
      return 0;
    }
    json = values['json'] === true;
    const now = cmd.timed ? parseNow(values['now']) : undefined;
    const code = await cmd.run({ io, json, clock: clockFor(now), now, values, positionals });
    return typeof code === 'number' ? code : 0;
  } catch (err) {
    const shape = toErrorShape(err);
    if (json) io.out(JSON.stringify({ error: shape }));
    io.err(`mnemo ${cmd.name}: ${shape.message}`);
    return exitCodeFor(shape.code as ErrorCode);
  }
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (invokedDirectly) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`mnemo: internal error: ${(err as Error).message}\n`);
      process.exitCode = 1;
    },
  );
}
