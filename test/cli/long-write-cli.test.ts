/**
 * `mnemo undo`, `mnemo redo` and `mnemo reflect --apply` run their long write through
 * cli/long-write.ts: progress on stderr, and Ctrl-C cancels the job so the store is left as it was
 * (exit 130). Driven in process, with the SIGINT delivered to this process's listeners, so the
 * undo can be slowed to many short batches (the command's own sessions use the default pacing).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import { asLongWrite, cancelledJob } from '../../cli/long-write.js';
import { NOW, plannedStore } from '../../support/long-writes.js';
import { dumpStore } from '../helpers/store-dump.js';

let session: ApiSession | null = null;
afterEach(() => {
  session?.close();
  session = null;
});

/** Every table but the change feed's log, which keeps the writes and their take-back (test/store/long-write-cancel.test.ts). */
function dumpWithoutFeed(path: string) {
  const { mnemo_feed: _feed, sqlite_sequence: _seq, ...rest } = dumpStore(path);
  return rest;
}

describe('a long write from the CLI', () => {
  it('says where it is on stderr, and the first Ctrl-C cancels it, leaving the store as it was', { timeout: 120_000 }, async () => {
    const { path, plan } = await plannedStore(1000);
    session = ApiSession.withFrozenClock(NOW, { runPacing: { maxBatchItems: 10, pauseMs: 20 } });
    session.open(path);
    const changeId = (await call(session, 'reflect.apply', { plan })).change_id!;
    session.close();
    const before = dumpWithoutFeed(path);
    // Slow enough (about 180 batches, 40 ms apart) that the undo is still running at the first progress read, a second in, on any machine.
    session = ApiSession.withFrozenClock(NOW, { runPacing: { maxBatchItems: 5, pauseMs: 40 } });
    session.open(path);
    const s = session;

    const listeners = process.listenerCount('SIGINT');
    const said: string[] = [];
    const undoing = asLongWrite(s, `undo of change #${changeId}`, (l) => said.push(l), () => call(s, 'journal.undo', { change_id: changeId })).then(
      () => null,
      (e: unknown) => e,
    );
    // Once it has said where it is (a line a second), press Ctrl-C.
    const t0 = Date.now();
    while (!said.some((l) => /^undo of change #\d+: restoring the rows it changed [\d,]+ of [\d,]+ rows \(\d+ %\)/.test(l))) {
      if (Date.now() - t0 > 60_000) throw new Error(`no progress line in 60 s; said: ${JSON.stringify(said)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(process.listenerCount('SIGINT')).toBe(listeners + 1);
    process.emit('SIGINT');
    const err = await undoing;
    expect(cancelledJob(err)).toBe(true);
    expect(said).toContain('cancelling: taking back what was written, so the store is left as it was (Ctrl-C again to quit at once)');
    // The job is over and the listener gone: a later Ctrl-C is the shell's again.
    expect(process.listenerCount('SIGINT')).toBe(listeners);
    expect((await call(s, 'journal.history', {})).find((c) => c.id === changeId)?.state).toBe('applied');
    s.close();
    session = null;
    expect(dumpWithoutFeed(path)).toEqual(before);
  });
});
