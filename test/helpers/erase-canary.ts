/**
 * The canary of the erase tests (test/store/erase-canary.test.ts on SQLite, pg-erase-canary.test.ts
 * on PostgreSQL): one made-up word sent down every path a memory's text takes (added, recalled
 * with it in the query, found by the list's text search, merged, archived and restored, noted as a
 * belief observation's value and evidence, forgotten, and carried by the journal, the change feed
 * and the index snapshots written at close), beside memories that never hold it. The tests count
 * where it is before the erase (every place, or the test proves nothing) and that it is nowhere after.
 */
import { ApiSession } from '../../core/api/context.js';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import { call } from '../../core/api/service.js';
import type { EraseReceipt } from '../../core/erase/erase.js';
import type { Clock } from '../../core/clock.js';
import { MnemoError } from '../../core/errors.js';

/** A word no tokenizer splits and nothing else in a store contains. */
export const CANARY = 'quokkacanary7c1d';

/** A clock the story moves forward between steps, so time travel has instants to stand at. */
export function steppingClock(start: number): Clock & { step(seconds?: number): number } {
  let t = start;
  return {
    now: () => t,
    step(seconds = 10) {
      t += seconds;
      return t;
    },
  };
}

export interface CanaryStory {
  /** The memory that carries the canary and is forgotten (gone, with traces left). */
  forgotten: string;
  /** Its copy, merged into it: archived, still there. */
  merged: string;
  /** Recalled with the canary in the query: its ring holds the query, its content never held it. */
  recalled: string;
  /** Clean memories; `edited` was updated after the canary's story, its undo must keep working. */
  clean: string[];
  edited: string;
  /** The edit's change, undone after the erase. */
  editChange: number;
  /** An instant after the merge and before the forget (time travel shows the merged memory there). */
  beforeForget: number;
}

/** Runs the story through the API (the doors' own path) on an open session. */
export async function writeCanaryStory(session: ApiSession, clock: ReturnType<typeof steppingClock>): Promise<CanaryStory> {
  const add = async (input: Record<string, unknown>) => {
    clock.step();
    return (await call(session, 'memory.add', input)).id;
  };
  const forgotten = await add({ content: `the deploy key is ${CANARY} for the prod cluster`, title: `key ${CANARY}`, tags: [CANARY, 'deploy'], owner: 'agent1' });
  const merged = await add({ content: `copy: the deploy key is ${CANARY} for prod`, owner: 'agent1' });
  const recalled = await add({ content: 'the deploy pipeline runs at noon', tags: ['deploy'], owner: 'agent1' });
  const clean = [
    await add({ content: 'the staging cluster lives in eu-west', owner: 'agent1' }),
    await add({ content: 'rotate the on-call roster on mondays', owner: 'agent2' }),
    await add({ content: 'the office plant needs water on fridays' }),
  ];
  const edited = await add({ content: 'lunch is at one', owner: 'agent2' });
  clock.step();
  await call(session, 'recall.run', { query: `what is the deploy key ${CANARY}`, k: 5 });
  clock.step();
  await call(session, 'memory.list', { text: CANARY });
  clock.step();
  await call(session, 'memory.merge', { ids: [forgotten, merged], survivor: forgotten });
  clock.step();
  await call(session, 'memory.archive', { ids: [forgotten] });
  clock.step();
  await call(session, 'memory.restore', { ids: [forgotten] });
  clock.step();
  await call(session, 'beliefs.observe', { observation: { entity: 'prod', attribute: 'deploy_key', value: CANARY, t: clock.now(), reliability: 0.9, evidence: `saw ${CANARY} in the chat`, memory_id: forgotten } });
  await call(session, 'beliefs.observe', { observation: { entity: 'prod', attribute: 'region', value: 'eu', t: clock.now(), reliability: 0.8, evidence: `the region is eu, not ${CANARY}` } });
  await call(session, 'beliefs.observe', { observation: { entity: 'staging', attribute: 'region', value: 'eu-west', t: clock.now(), reliability: 0.8, evidence: 'staging is in eu-west' } });
  const beforeForget = clock.step();
  clock.step();
  await call(session, 'memory.forget', { ids: [forgotten] });
  clock.step();
  const edit = await call(session, 'memory.update', { id: edited, patch: { content: 'lunch is at half past one' } });
  clock.step();
  return { forgotten, merged, recalled, clean, edited, editChange: edit.change_id!, beforeForget };
}

/** How many times the canary (any case) occurs in some bytes. */
export function occurrences(bytes: Buffer): number {
  const hay = bytes.toString('latin1').toLowerCase();
  let n = 0;
  for (let at = hay.indexOf(CANARY); at >= 0; at = hay.indexOf(CANARY, at + 1)) n++;
  return n;
}

/** The typed error a call rejects with; fails when it resolves or throws anything else, or with another code. */
export async function rejectsWith(promise: Promise<unknown>, code: string): Promise<MnemoError> {
  try {
    await promise;
  } catch (err) {
    if (!(err instanceof MnemoError)) throw err;
    if (err.code !== code) throw new Error(`expected a ${code} error, got ${err.code}: ${err.message}`, { cause: err });
    return err;
  }
  throw new Error(`expected a ${code} error, but the call succeeded`);
}

/**
 * After the erase, on a session open on the store: every other memory is there, the erased ones
 * are not; what needs the erased content refuses to be undone and says why, and the erase itself
 * is never undone; time travel shows the erased memory as erased; the list's search and recall
 * work on what is left; and the edit made after the canary's story is undone as before.
 */
export async function expectTheRestWorks(session: ApiSession, story: CanaryStory, receipt: EraseReceipt): Promise<void> {
  for (const id of [story.recalled, story.edited, ...story.clean]) expect((await call(session, 'memory.get', { id })).memory.id).toBe(id);
  for (const id of [story.forgotten, story.merged]) await rejectsWith(call(session, 'memory.get', { id }), 'not_found');
  const history = await call(session, 'journal.history', { limit: 100 });
  const forget = history.find((c) => c.kind === 'memory.forget')!;
  const refused = await rejectsWith(call(session, 'journal.undo', { change_id: forget.id }), 'conflict');
  expect(refused.details).toMatchObject({ reason: 'erased', erased_by_change: receipt.change_id });
  expect(refused.message).toMatch(/erased at .* by operator/);
  await rejectsWith(call(session, 'journal.undo', { change_id: receipt.change_id }), 'conflict');
  const past = await call(session, 'memory.get', { id: story.forgotten, at: story.beforeForget });
  expect(past.memory.content).toMatch(/^\[erased at \d{4}-.+Z by operator\]$/);
  expect(past.memory.title).toBe('[erased]');
  const pastRecalled = await call(session, 'memory.get', { id: story.recalled, at: story.beforeForget });
  expect(pastRecalled.memory.access_log.some((a) => a.query?.includes('[erased]'))).toBe(true);
  expect(JSON.stringify(pastRecalled)).not.toContain(CANARY);
  expect((await call(session, 'memory.list', { text: CANARY })).total).toBe(0);
  expect((await call(session, 'memory.list', { text: 'deploy' })).rows.map((r) => r.id)).toContain(story.recalled);
  expect((await call(session, 'recall.explain', { query: 'deploy pipeline', k: 3 })).rows.map((r) => r.id)).toContain(story.recalled);
  const undone = await call(session, 'journal.undo', { change_id: story.editChange });
  expect(undone.state).toBe('undone');
  expect((await call(session, 'memory.get', { id: story.edited })).memory.content).toBe('lunch is at one');
}

/**
 * Every file under a folder (a store's: the store, its WAL and shm, the sidecar and its parts; a
 * cluster's table files) and the canary's count in its raw bytes. A running PostgreSQL removes
 * files of its own as it goes (a relcache file such as pg_internal.init, between the listing and
 * the read): a file gone by then holds no bytes, canary or not, and is left out.
 */
export function bytesByFile(dir: string): Record<string, number> {
  const out: Record<string, number> = {};
  const gone = (err: unknown) => (err as { code?: string }).code === 'ENOENT';
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      try {
        if (statSync(p).isDirectory()) walk(p);
        else out[relative(dir, p)] = occurrences(readFileSync(p));
      } catch (err) {
        if (!gone(err)) throw err;
      }
    }
  };
  walk(dir);
  return out;
}

export const holding = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));

