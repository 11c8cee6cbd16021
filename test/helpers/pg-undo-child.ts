/**
 * Child process of the PostgreSQL concurrency test: undoes (or redoes) one change of a store with
 * no lock timeout, and prints how it ended as one JSON line ({ ok } or { code }).
 */
import { fixedClock } from '../../core/clock.js';
import { MnemoError } from '../../core/errors.js';
import { PgStore } from '../../core/store/pg/pg-store.js';

const [url, mode, changeId, now] = process.argv.slice(2);
const store = PgStore.open(url!, { clock: fixedClock(Number(now)) });
try {
  if (mode === 'undo') store.journal.undo(Number(changeId));
  else store.journal.redo(Number(changeId));
  process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
} catch (err) {
  process.stdout.write(`${JSON.stringify(err instanceof MnemoError ? { code: err.code, message: err.message } : { error: String(err) })}\n`);
} finally {
  store.close();
}
