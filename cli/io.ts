/** Where a command writes; tests capture it, the real CLI uses the process streams. */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** Reads all of standard input (for `-` arguments). */
  readStdin?(): Promise<string>;
}

export const processIO: CliIO = {
  out: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
  err: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
};
