/**
 * Caps on the open connections of the MCP HTTP endpoint, per client address and in total. Opening
 * a socket needs no token: before, 19,990 idle sockets made a legitimate `initialize` time out at
 * 15 s (issue 36). Now a socket past a cap is answered at once, an HTTP 503 with a reason and
 * `Retry-After`, and closed; unless a socket that has carried no authenticated request for the grace
 * period (a squatter, or a client that went away) can make room: the oldest such is closed, with
 * the same answer, and the newcomer stays. Sockets that carried an authenticated request are never
 * closed for a newcomer: an agent's keep-alive connection outlives any flood of anonymous ones.
 *
 * A client is its address: behind one address (loopback, a proxy) every client shares the
 * per-client cap. Time comes from the server's injected clock.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Clock } from '../../core/clock.js';

export interface ConnectionCaps {
  /** Open connections in all. */
  maxConnections: number;
  /** Open connections from one client address. */
  maxPerClient: number;
  /** How long a connection may stay without an authenticated request before a newcomer may take its place. */
  graceSeconds: number;
}

/**
 * Fifty agents, each with a stream open and a few calls in flight, use some two hundred; a cap of a
 * thousand is far from a legitimate fleet on one machine and far below what exhausts the process.
 */
export const DEFAULT_CONNECTION_CAPS: ConnectionCaps = { maxConnections: 1024, maxPerClient: 512, graceSeconds: 10 };

interface Tracked {
  address: string;
  openedAt: number;
  served: boolean;
}

const refusal = (reason: string, retryAfter: number): string => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: reason } });
  return `HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: ${retryAfter}\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
};

/** `::ffff:127.0.0.1` and `127.0.0.1` are one client. */
const addressOf = (socket: Socket) => (socket.remoteAddress ?? '?').replace(/^::ffff:/, '');

export class ConnectionGate {
  private readonly sockets = new Map<Socket, Tracked>();
  private readonly perAddress = new Map<string, number>();
  /** Sockets answered 503 and being closed: a request arriving on one is not served. */
  private readonly refused = new WeakSet<Socket>();

  constructor(
    private readonly caps: ConnectionCaps,
    private readonly clock: Clock,
  ) {}

  attach(server: Server): void {
    server.on('connection', (socket: Socket) => this.admit(socket));
  }

  /** Connections open now (for status and tests). */
  get open(): number {
    return this.sockets.size;
  }

  /** An authenticated request arrived on this socket: it is a client's, never closed for a newcomer. */
  markServed(socket: Socket): void {
    const t = this.sockets.get(socket);
    if (t) t.served = true;
  }

  /** Whether the socket was refused (its request must not be served). */
  isRefused(socket: Socket): boolean {
    return this.refused.has(socket);
  }

  private admit(socket: Socket): void {
    const address = addressOf(socket);
    const fromClient = this.perAddress.get(address) ?? 0;
    if (fromClient >= this.caps.maxPerClient && !this.makeRoom(address)) {
      return this.refuse(socket, `too many open connections from ${address} (the limit is ${this.caps.maxPerClient}); close idle ones, or raise --max-connections-per-client`);
    }
    if (this.sockets.size >= this.caps.maxConnections && !this.makeRoom(null)) {
      return this.refuse(socket, `too many open connections to this server (the limit is ${this.caps.maxConnections}); try again shortly, or raise --max-connections`);
    }
    this.sockets.set(socket, { address, openedAt: this.clock.now(), served: false });
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    socket.once('close', () => this.forget(socket));
  }

  /** Closes the oldest connection (of `address`, or any) that has carried no authenticated request for the grace period; whether one was. */
  private makeRoom(address: string | null): boolean {
    const cutoff = this.clock.now() - this.caps.graceSeconds;
    let oldest: [Socket, Tracked] | null = null;
    for (const entry of this.sockets) {
      const t = entry[1];
      if (t.served || t.openedAt > cutoff || (address !== null && t.address !== address)) continue;
      if (!oldest || t.openedAt < oldest[1].openedAt) oldest = entry;
    }
    if (!oldest) return false;
    const [socket] = oldest;
    this.forget(socket);
    this.refuse(socket, 'this connection carried no authenticated request and the server needed its place; connect again to make a request');
    return true;
  }

  private refuse(socket: Socket, reason: string): void {
    this.refused.add(socket);
    socket.on('error', () => {});
    socket.end(refusal(reason, 5));
    // A client that keeps the socket open after the answer is not waited for.
    setTimeout(() => socket.destroy(), 1000).unref();
  }

  private forget(socket: Socket): void {
    const t = this.sockets.get(socket);
    if (!t) return;
    this.sockets.delete(socket);
    const n = (this.perAddress.get(t.address) ?? 1) - 1;
    if (n > 0) this.perAddress.set(t.address, n);
    else this.perAddress.delete(t.address);
  }
}
