/**
 * How long browser mode and MCP over HTTP keep an idle connection open.
 *
 * A recall on a PostgreSQL store holds the process's event loop while its synchronous bridge waits
 * on the server: seconds, under load. Node closes a connection that has been idle past
 * keepAliveTimeout (5 s by default) in its timers, which run before it reads what arrived in the
 * meantime. A request sent on that connection during the stall was dropped: ECONNRESET, "fetch
 * failed" on a client that does not retry (three of them in a PostgreSQL fleet run). A minute
 * outlasts any stall seen, and the clients are few (loopback by default).
 */
import type { Server } from 'node:http';

export const KEEP_ALIVE_MS = 65_000;

export function keepIdleConnections(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // Node wants the headers timeout above the idle one, or a slow client's request would be cut at the old limit.
  server.headersTimeout = KEEP_ALIVE_MS + 5_000;
}
