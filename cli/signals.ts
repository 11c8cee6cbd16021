/** Waiting for the process to be asked to stop, shared by the commands that run a server. */

/** Resolves when the process is asked to stop (Ctrl-C or a service manager). */
export function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/**
 * While a long job runs in a one-shot command: the first Ctrl-C (or SIGTERM) calls `cancel` (the
 * job stops and takes back what it wrote), a second one leaves at once with 130 (the next open of
 * the store finishes or takes back what was under way, as after a crash). Returns the remover.
 */
export function onInterrupt(cancel: () => void, say: (line: string) => void): () => void {
  let asked = false;
  const handler = () => {
    if (asked) {
      say('stopped at once; the next open of the store finishes taking back what was under way');
      process.exit(130);
    }
    asked = true;
    say('cancelling: taking back what was written, so the store is left as it was (Ctrl-C again to quit at once)');
    cancel();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
