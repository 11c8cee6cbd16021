/** Where a command writes; tests capture it, the real CLI uses the process streams. */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** Reads all of standard input (for `-` arguments). */
  readStdin?(): Promise<string>;
  /** True once the reader of standard output went away (`mnemo export … | head`). */
  outputClosed?(): boolean;
}

/** Exit status when output was cut short by a closed pipe: 128 + SIGPIPE, as the shell reports for `cat big | head`. */
export const CLOSED_PIPE_EXIT = 141;

let stdoutClosed = false;
let stdoutWatched = false;

/**
 * A reader that stops early (`| head`) closes the pipe, and the next write fails with EPIPE. That is
 * the reader's choice, not a failure: the rest of the output is dropped quietly, the command
 * finishes (a write it was making still commits or rolls back whole), and main exits with 141.
 */
function watchStdout(): void {
  if (stdoutWatched) return;
  stdoutWatched = true;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') {
      stdoutClosed = true;
      // Output still queued when the command returned fails only now, after main set the status.
      if (!process.exitCode) process.exitCode = CLOSED_PIPE_EXIT;
      return;
    }
    process.stderr.write(`mnemo: cannot write the output: ${err.message}\n`);
    process.exitCode = 1;
  });
  // `2>&1 | head` closes standard error too; there is nobody left to tell.
  process.stderr.on('error', () => undefined);
}

/** The failed write's error is recorded on the stream at once; its 'error' event only comes a tick later. */
function stdoutPipeClosed(): boolean {
  if (!stdoutClosed && (process.stdout.errored as NodeJS.ErrnoException | null)?.code === 'EPIPE') stdoutClosed = true;
  return stdoutClosed;
}

export const processIO: CliIO = {
  out: (t) => {
    watchStdout();
    if (!stdoutPipeClosed()) process.stdout.write(t.endsWith('\n') ? t : `${t}\n`);
  },
  err: (t) => {
    watchStdout();
    process.stderr.write(t.endsWith('\n') ? t : `${t}\n`);
  },
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  outputClosed: stdoutPipeClosed,
};
