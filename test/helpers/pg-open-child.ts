/**
 * Child process of the PostgreSQL store-creation test: opens a store with `create` (as `mnemo mcp`
 * or an agent's library does on a new store), and prints how it ended as one JSON line
 * ({ ok, memories } or { code, message }).
 */
import { fixedClock } from '../../core/clock.js';
import { MnemoError } from '../../core/errors.js';
import { PgStore } from '../../core/store/pg/pg-store.js';
import { countMemories } from '../../core/store/queries/memory-lookups.js';

const [url, now] = process.argv.slice(2);
try {
  const store = PgStore.open(url!, { create: true, clock: fixedClock(Number(now)) });
  process.stdout.write(`${JSON.stringify({ ok: true, memories: countMemories(store) })}\n`);
  store.close();
} catch (err) {
  process.stdout.write(`${JSON.stringify(err instanceof MnemoError ? { code: err.code, message: err.message } : { error: String(err) })}\n`);
}
