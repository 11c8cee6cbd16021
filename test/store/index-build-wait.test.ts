/**
 * Processes opening one store together build each index once: a process about to build an index
 * that another process is building waits for that one's snapshot and loads it (index_build in the
 * sidecar, DerivedSnapshot.awaitOthersBuild). Found at 100k memories on PostgreSQL, where eight
 * agents started together each built every index on two cores and their first requests timed out.
 * The other process is a real one (test/helpers/index-build-child.ts), held mid-build.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explain } from '../../core/recall/explain.js';
import { prepareRecallIndexes } from '../../core/recall/pipeline.js';
import { profileFor } from '../../core/recall/profile.js';
import { feedStore, openIndexed } from '../../support/derived-indexes.js';

const NOW = 1_780_000_000;
const CHILD = join(__dirname, '..', 'helpers', 'index-build-child.ts');
const QUERY = 'deploy database migration';

/** Starts the child and resolves once it is inside its first index's build, holding it there. */
function childMidBuild(path: string): Promise<{ child: ChildProcessWithoutNullStreams; output: () => string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, path, String(NOW)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out === 'building\n') resolve({ child, output: () => out, exited });
    });
    void exited.then((code) => reject(new Error(`the child ended (${code}) before it was building: ${out} ${err}`)));
  });
}

const settled = (p: Promise<unknown>) => Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 1500))]);

describe('one build per index across processes', () => {
  it('a process waits while another builds the index, then loads its snapshot instead of building', { timeout: 120_000 }, async () => {
    const path = feedStore(NOW, 2000);
    const { child, output, exited } = await childMidBuild(path);
    const here = openIndexed(path, NOW);
    const ready = prepareRecallIndexes(here.engine, profileFor('mnemo'));
    expect(await settled(ready)).toBe(false); // waiting on the child's build, not building
    expect(here.builds).toEqual([]);
    child.stdin.write('go\n');
    expect(await exited).toBe(0);
    expect(output()).toBe('building\ndone\n');
    await ready;
    expect(here.builds).toEqual([]); // every recall index loaded from the child's snapshots

    const fresh = openIndexed(path, NOW, { snapshots: false });
    expect(explain(here.engine, { query: QUERY, k: 10 }).rows).toEqual(explain(fresh.engine, { query: QUERY, k: 10 }).rows);
    fresh.engine.close();
    here.engine.close();
    expect(here.warnings).toEqual([]);
  });

  it('a builder that is killed holds nobody back: the waiting process builds the index itself', { timeout: 60_000 }, async () => {
    const path = feedStore(NOW, 2000);
    const { child, exited } = await childMidBuild(path);
    const here = openIndexed(path, NOW);
    const ready = prepareRecallIndexes(here.engine, profileFor('mnemo'));
    expect(await settled(ready)).toBe(false);
    child.kill('SIGKILL');
    await exited;
    await ready; // within the test's minute, though a live builder is waited on for two
    expect(here.builds.length).toBeGreaterThan(0);
    expect(explain(here.engine, { query: QUERY, k: 10 }).rows.length).toBeGreaterThan(0);
    here.engine.close();
  });
});
