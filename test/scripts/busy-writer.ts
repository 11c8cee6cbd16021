// Child process for the time-travel e2e: a busy agent beside the workbench. It first makes the
// changes the test looks for (adds a memory, rewrites one memory's content, and, as a program that
// is not Mnemo, links two memories with a raw SQL insert), reports them on stdout as one JSON
// line, then keeps adding a memory every `interval` ms until it is killed.
// argv: <db> <id to rewrite> <new content> <foreign link src> <foreign link dst> <interval ms>
import Database from 'better-sqlite3';
import { Engine } from '../../core/engine/engine.js';
import { addMemory, updateMemory } from '../../core/engine/memory-ops.js';

const [path, rewriteId, newContent, linkSrc, linkDst, intervalArg] = process.argv.slice(2);
const engine = Engine.open(path!, { busyTimeoutMs: 5000 });
const added = await addMemory(engine, { content: 'Added later by the busy agent: rotate the staging certificates', tags: ['busy-agent'] });
await updateMemory(engine, rewriteId!, { content: newContent! });
// A foreign writer (a nooa agent, say) knows nothing of Mnemo's journal: only the change feed sees it.
const raw = new Database(path!, { timeout: 5000 });
raw.prepare('INSERT INTO memory_edges (src, dst, type, weight, created_at) VALUES (?, ?, ?, 1.0, ?)').run(linkSrc, linkDst, 'supports', Date.now() / 1000);
raw.close();
process.stdout.write(`${JSON.stringify({ added: added.id })}\n`);

let n = 0;
const timer = setInterval(() => {
  n++;
  addMemory(engine, { content: `busy agent note ${n}: the nightly deploy finished`, tags: ['busy-agent'] }).then(
    (m) => process.stdout.write(`${JSON.stringify({ note: m.id, n })}\n`),
    (err: unknown) => process.stderr.write(`note ${n}: ${(err as Error).message}\n`),
  );
}, Number(intervalArg ?? 300));
process.on('SIGTERM', () => {
  clearInterval(timer);
  engine.close();
  process.exit(0);
});
