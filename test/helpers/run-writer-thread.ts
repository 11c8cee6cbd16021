/**
 * A worker thread that drives a long change as an engine host's jobs worker does: its own connection
 * writes the run's marker and marks the run live in this thread, then holds it. On 'commit' it
 * commits a row change (as a run's batch does); on 'end' the thread ends without clearing the
 * marker, as a worker that died part-way. `handsOver`: its marker says it will leave index snapshots.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { fixedClock } from '../../core/clock.js';
import { connectionOf } from '../../core/store/sqlite/connection.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { newMarker, setLiveRun, writeMarker } from '../../core/store/shared/run-marker.js';

const { path, now, changeId, handsOver } = workerData as { path: string; now: number; changeId: number; handsOver?: boolean };
const store = MemoryStore.open(path, { clock: fixedClock(now) });
store.transaction(() => writeMarker(store, newMarker(store, changeId, 'record', 'a long change in another thread', null, handsOver === true)));
setLiveRun(store, [changeId], true);
parentPort!.on('message', (m: string) => {
  if (m === 'commit') {
    // A batch that moves a count: one edge fewer.
    connectionOf(store).prepare('DELETE FROM memory_edges WHERE rowid = (SELECT min(rowid) FROM memory_edges)').run();
    parentPort!.postMessage('committed');
  } else if (m === 'end') {
    process.exit(0);
  }
});
parentPort!.postMessage('running');
