/**
 * A second Mnemo process writing the same store (support/history-writers.ts): each IPC message is
 * one scripted operation, answered with {ok, id} or {ok: false, error} once it has committed.
 *
 * argv: <db>
 */
import { MemoryStore } from '../core/store/sqlite/sqlite-store.js';
import { applyMnemoOp, wallClock, type WriterOp } from './history-writers.js';

const store = MemoryStore.open(process.argv[2]!, { clock: wallClock, onWarning: () => {} });
process.on('message', (op: WriterOp) => {
  try {
    process.send!({ ok: true, id: applyMnemoOp(store, op) });
  } catch (err) {
    process.send!({ ok: false, error: (err as Error).message });
  }
});
process.on('disconnect', () => {
  store.close();
  process.exit(0);
});
