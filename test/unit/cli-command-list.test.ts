/**
 * `mnemo` loads only the command it runs (cli/commands/index.ts): the list it dispatches on names
 * each command once, in the help's order, under the name the loaded command itself carries.
 */
import { describe, expect, it } from 'vitest';
import { COMMAND_LIST, loadCommands } from '../../cli/commands/index.js';
import { main } from '../../cli/main.js';

describe('the lazily loaded command list', () => {
  it('names every command once, under the name its module gives it', async () => {
    const names = COMMAND_LIST.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    const loaded = await loadCommands();
    expect(loaded.map((c) => c.name)).toEqual(names);
    for (const c of loaded) expect(typeof c.run).toBe('function');
  });

  it('lists every command in the help and runs one it loaded on demand', async () => {
    const out: string[] = [];
    const io = { out: (s: string) => out.push(s), err: (s: string) => out.push(s) };
    expect(await main(['--help'], io)).toBe(0);
    for (const c of COMMAND_LIST) expect(out.join('\n')).toMatch(new RegExp(`^  ${c.name} +\\S`, 'm'));
    out.length = 0;
    expect(await main(['explain', '--help'], io)).toBe(0);
    expect(out.join('\n')).toMatch(/^usage: mnemo explain <db> <query>/);
  });
});
