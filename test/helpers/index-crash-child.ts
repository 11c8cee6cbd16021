/**
 * Child process for the index crash tests (test/store/index-crash.test.ts). It gets to a named
 * point inside the work under test, prints "inside <mode>" (a synchronous write: stdout on a pipe
 * is synchronous on Linux) and then blocks its thread until the parent kills it with SIGKILL, so
 * the kill lands exactly there, never by a race against a sleep:
 *
 * - `catch-up <db> <now> <events>`: reads every index, prints "ready", waits for "go" on stdin (the
 *   parent writes many changes meanwhile), then catches up and stops after `events` of the feed's
 *   changes have been applied to every index (the list's text search in the sidecar included);
 * - `build <db> <now>`: fills the list's text search in the sidecar, then builds the recall indexes
 *   in steps (as the workbench's recall does) and stops inside the keyword index's build, while
 *   the snapshots of the indexes built before it are written a piece per turn beside it;
 * - `snapshot <db> <now>`: reads the keyword index (patched past its snapshot enough to be due for a
 *   new one) and runs the snapshot writes a piece at a time, stopping once a new generation's file
 *   has bytes in it and is neither sealed nor committed.
 */
import { createInterface } from 'node:readline';
import { writeSync } from 'node:fs';
import { textFilter } from '../../core/api/handlers/memory.js';
import { prepareRecallIndexes } from '../../core/recall/pipeline.js';
import { profileFor } from '../../core/recall/profile.js';
import { keywordIndex } from '../../core/recall/mnemo/stages.js';
import { indexesOf, openIndexed, uncommittedSnapshotBytes } from '../../support/derived-indexes.js';

const [mode, db, nowArg, eventsArg] = process.argv.slice(2);
const now = Number(nowArg);

/** Says where it is, then never returns: the parent's SIGKILL ends the process here. */
function stopHere(): never {
  writeSync(1, `inside ${mode}\n`);
  const forever = new Int32Array(new SharedArrayBuffer(4));
  for (;;) Atomics.wait(forever, 0, 0);
}

function fail(message: string): never {
  writeSync(2, `${message}\n`);
  process.exit(2);
}

async function catchUp(): Promise<void> {
  const { engine } = openIndexed(db!, now);
  indexesOf(engine);
  const stopAfter = Number(eventsArg);
  let seen = 0;
  // Registered after every index's own listener, so each event has reached all of them.
  engine.store.onChange(() => {
    if (++seen >= stopAfter) stopHere();
  });
  writeSync(1, 'ready\n');
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'go') break;
  }
  indexesOf(engine); // the first index read catches up with what the parent wrote
  fail(`caught up with ${seen} changes, fewer than ${stopAfter}`);
}

async function build(): Promise<void> {
  let midKeyword = false;
  const { engine } = openIndexed(db!, now, {
    onBuild: (e) => {
      if (e.index === 'recall.mnemo.bm25.porter' && e.phase === 'progress') midKeyword = e.done! > 0 && e.done! < e.total!;
    },
  });
  textFilter(engine, { text: 'deploy' });
  await prepareRecallIndexes(engine, profileFor('mnemo'), async () => {
    if (midKeyword) stopHere();
    await new Promise<void>((resolve) => setImmediate(resolve));
  });
  fail('the keyword index was built without a step in between');
}

function snapshot(): void {
  const queue: (() => void)[] = [];
  // A snapshot due through patches is first put off (retryLater) to see whether the feed settles: both run from the queue here.
  const later = (fn: () => void) => {
    queue.push(fn);
    return () => queue.splice(queue.indexOf(fn), 1);
  };
  const { engine } = openIndexed(db!, now, { defer: later, retryLater: later });
  keywordIndex(engine, true);
  while (queue.length > 0) {
    queue.shift()!();
    if (uncommittedSnapshotBytes(db!) > 0) stopHere();
  }
  fail('no snapshot write was under way');
}

if (mode === 'catch-up') await catchUp();
else if (mode === 'build') await build();
else if (mode === 'snapshot') snapshot();
else fail(`unknown mode ${mode}`);
