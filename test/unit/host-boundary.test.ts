/**
 * The thread that answers people and agents never runs engine work: in the desktop app's main
 * process and on the engine host's side of every server, no engine, store, session or handler
 * module is even loaded. The lint rules `electron-no-engine` and `host-door-no-engine` check each
 * import; this follows every run-time import from the entry points to the end (type-only imports
 * load nothing at run time), so a module allowed there cannot pull the engine in behind them.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

interface Cruised {
  modules: { source: string; dependencies: { resolved: string; coreModule: boolean; dependencyTypes: string[] }[] }[];
}

/** Every module of this repository that `entries` load at run time. */
function runtimeClosure(entries: string[]): Set<string> {
  const out = execFileSync(process.execPath, [join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs'), ...entries, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const cruised = JSON.parse(out) as Cruised;
  const bySource = new Map(cruised.modules.map((m) => [m.source, m]));
  const seen = new Set<string>();
  const todo = [...entries];
  while (todo.length) {
    const source = todo.pop()!;
    if (seen.has(source)) continue;
    seen.add(source);
    for (const d of bySource.get(source)?.dependencies ?? []) {
      if (d.coreModule || d.resolved.includes('node_modules') || d.dependencyTypes.includes('type-only')) continue;
      todo.push(d.resolved);
    }
  }
  return seen;
}

/** What is engine work: opening stores, running handlers, holding sessions and indexes. */
const ENGINE = /^core\/(engine\/(?!job-signals\.ts$)|store\/|api\/(service|context)\.ts$|api\/handlers\/|recall\/(?!lab\/names\.ts$|profile-schema\.ts$|ranking-metrics\.ts$)|embed\/|demo\/|agent\/|review\/|host\/(engine-worker|live-refresh|agent-session)\.ts$)/;

describe('the answering thread loads no engine', () => {
  it('the desktop main process and the engine host door load, at run time, no engine, store, session or handler module', () => {
    const loaded = runtimeClosure(['electron/main.ts', 'electron/ipc.ts', 'core/host/engine-host.ts']);
    expect(loaded.has('core/host/engine-host.ts')).toBe(true);
    expect([...loaded].filter((m) => ENGINE.test(m))).toEqual([]);
  }, 120_000);
});
