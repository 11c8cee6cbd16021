/**
 * A TCP proxy on the loopback that delays every chunk by a fixed time each way, as a database on
 * the local network would (2 ms round trip: 1 ms each way). Its own process (started by
 * delay-proxy.ts), so the benchmark's clients never delay its timers.
 *
 * argv: <delay ms each way> <target: a Unix socket path, or host:port>
 * IPC out: { port } once it listens.
 */
import { connect, createServer, type Socket } from 'node:net';

const [delayArg, target] = process.argv.slice(2);
const delayMs = Number(delayArg);
const to = (): Socket => {
  const m = /^([^/][^:]*):(\d+)$/.exec(target!);
  return m ? connect({ host: m[1]!, port: Number(m[2]) }) : connect({ path: target! });
};

/**
 * Forwards `from` to `to` with each chunk held `delayMs`: every timer has the same duration, and
 * Node runs timers of one duration in the order they were set, so the bytes keep their order.
 */
function forward(from: Socket, dest: Socket): void {
  from.on('data', (chunk: Buffer) => {
    setTimeout(() => {
      if (!dest.destroyed) dest.write(chunk);
    }, delayMs);
  });
  from.on('end', () => setTimeout(() => dest.end(), delayMs));
  from.on('error', () => dest.destroy());
  from.on('close', () => setTimeout(() => dest.destroy(), delayMs + 1));
}

const server = createServer((client) => {
  client.setNoDelay(true);
  const upstream = to();
  upstream.setNoDelay?.(true);
  forward(client, upstream);
  forward(upstream, client);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
});
process.on('disconnect', () => process.exit(0));
