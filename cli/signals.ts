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
