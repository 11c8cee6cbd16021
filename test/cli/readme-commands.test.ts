/**
 * The README's command table is true (issue 41 item 8, issue 38): every command it lists exists
 * (`mnemo <command> --help` answers with its usage), and every option it names for a command is one
 * the command's usage offers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const README = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

interface Listed {
  command: string;
  options: string[];
  row: string;
}

/** The rows of the table under "## The `mnemo` command": each `mnemo …` form in the first column, with the options it names. */
export function readmeCommands(readme: string): Listed[] {
  const section = readme.split(/^## /m).find((s) => s.startsWith('The `mnemo` command'));
  if (!section) throw new Error('README has no "The `mnemo` command" section');
  const out: Listed[] = [];
  for (const line of section.split('\n')) {
    if (!line.startsWith('| `mnemo ')) continue;
    const first = line.split(/(?<!\\)\|/)[1]!;
    // One cell may hold several forms: `mnemo history <db>` / `mnemo undo <db> …`.
    for (const form of first.matchAll(/`mnemo ([^`]+)`/g)) {
      const words = form[1]!.replace(/\\\|/g, '|').trim();
      const head = words.split(/\s+/)[0]!;
      const options = [...words.matchAll(/--[a-z][a-z0-9-]*/g)].map((m) => m[0]);
      for (const command of head.split('|')) out.push({ command, options, row: line.slice(0, 80) });
    }
    // Options named in the first column outside the backticks (`(or --simulated-log …)`) belong to the row's first command.
    const loose = first.replace(/`[^`]*`/g, '');
    const extra = [...loose.matchAll(/--[a-z][a-z0-9-]*/g)].map((m) => m[0]);
    if (extra.length && out.length) out[out.length - 1]!.options.push(...extra);
  }
  return out;
}

describe('README command table', () => {
  const listed = readmeCommands(README);

  it('lists the commands (the table was found and read)', () => {
    const names = new Set(listed.map((l) => l.command));
    expect(names.size).toBeGreaterThan(25);
    for (const n of ['init', 'recall', 'search', 'explain', 'serve', 'mcp', 'copy', 'undo']) expect(names).toContain(n);
  });

  for (const l of listed) {
    it(`mnemo ${l.command} --help answers, and offers ${l.options.join(' ') || 'no option named'}`, async () => {
      const r = await runCli([l.command, '--help']);
      expect(r.code, `${l.row}: ${r.stderr}`).toBe(0);
      const help = `${r.stdout}\n${r.stderr}`;
      expect(help).toContain(`mnemo ${l.command}`);
      for (const o of l.options) expect(help, `${l.row}: the README names ${o}`).toContain(o);
    });
  }

  it('a command the CLI does not have fails --help (so the check above can fail)', async () => {
    const r = await runCli(['no-such-command', '--help']);
    expect(r.code).not.toBe(0);
  });
});
