/**
 * The flooding agent of the mcp-load benchmark, in its own process (started with fork()), so its
 * client-side work does not slow the measured agents' own event loop: what the benchmark measures
 * is what the flood does to the server. It keeps one session for the whole run and floods once
 * per window it is sent.
 *
 * argv: <url> <token> <concurrency> [batch] (POSTs kept in flight at once on its one session; each a
 * JSON-RPC batch of `batch` recalls when it is over 1)
 * messages in: {kind:'go', seconds} (flood that long), {kind:'stop'}.
 * messages out: {kind:'ready'} once connected; {kind:'done', calls} after each flood.
 */
import { rng } from '../../core/demo/generate.js';
import { connectLoadClient, flood } from './mcp-load-client.js';

const [url, token, concurrencyArg, batchArg] = process.argv.slice(2);
process.on('disconnect', () => process.exit(0));

const client = await connectLoadClient(url!, token!, 'mnemo-load-flooder');
let round = 0;
process.on('message', async (m: { kind: 'go'; seconds: number } | { kind: 'stop' }) => {
  if (m.kind === 'stop') {
    await client.close();
    process.exit(0);
  }
  const until = performance.now() + m.seconds * 1000;
  round++;
  const calls = (await Promise.all(Array.from({ length: Number(concurrencyArg) }, (_, i) => flood(client, { until, rand: rng(round * 100 + i), batch: Number(batchArg ?? 1) })))).flat();
  process.send!({ kind: 'done', calls });
});
process.send!({ kind: 'ready' });
