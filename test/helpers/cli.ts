/** Runs the CLI in-process and captures what it prints. */
import { main } from '../../cli/main.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** The last stdout line parsed as JSON (for --json runs). */
  json: () => any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export async function runCli(argv: string[], stdin?: string): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    readStdin: async () => stdin ?? '',
  });
  const stdout = out.join('\n');
  return {
    code,
    stdout,
    stderr: err.join('\n'),
    json: () => JSON.parse(out[out.length - 1] ?? 'null'),
  };
}
