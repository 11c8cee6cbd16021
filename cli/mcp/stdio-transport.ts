/**
 * MCP over stdio with a size limit that answers instead of quitting. The SDK's stdio transport,
 * on a message over its 10 MB buffer, reports an error nobody sees and closes, so `mnemo mcp`
 * exited 0 without a word and the agent's call hung until its timeout. Here an oversized message
 * is skipped up to its newline, answered with a JSON-RPC "invalid request" error (with the
 * request's id when it can be read from the message's first or last bytes, so the caller's pending
 * call fails at once), reported on stderr, and the server goes on serving the next message.
 */
import type { Readable, Writable } from 'node:stream';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';

export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/** JSON-RPC 2.0: "The JSON sent is not a valid Request object". */
const INVALID_REQUEST = -32600;
const PARSE_ERROR = -32700;
/** How much of an oversized message's head and tail is kept to find its id. */
const EDGE_BYTES = 512;

const ID_AT_END = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")\s*\}\s*$/;
const ID_AT_START = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")/;

/** The top-level id of a cut message, when it sits first or last (where JSON-RPC writers put it). */
export function idOfCutMessage(head: string, tail: string): RequestId | null {
  const m = ID_AT_END.exec(tail) ?? ID_AT_START.exec(head);
  if (!m) return null;
  try {
    return JSON.parse(m[1]!) as RequestId;
  } catch {
    return null;
  }
}

export class LimitedStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private parts: Buffer[] = [];
  private size = 0;
  /** Inside an oversized message: its bytes are dropped until the next newline. */
  private skipping = false;
  private skippedBytes = 0;
  private head = '';
  private tail = Buffer.alloc(0);
  private started = false;

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    private readonly report: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
    private readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {}

  private readonly onData = (chunk: Buffer): void => {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, nl === -1 ? chunk.length : nl);
      if (this.skipping) this.skip(piece);
      else if (this.size + piece.length > this.maxBytes) {
        this.skipping = true;
        this.head = Buffer.concat([...this.parts, piece]).subarray(0, EDGE_BYTES).toString('utf8');
        this.skippedBytes = this.size;
        this.parts = [];
        this.size = 0;
        this.skip(piece);
      } else {
        this.parts.push(piece);
        this.size += piece.length;
      }
      if (nl === -1) return;
      this.endOfLine();
      start = nl + 1;
    }
  };

  private readonly onError = (error: Error): void => this.onerror?.(error);

  private skip(piece: Buffer): void {
    this.skippedBytes += piece.length;
    this.tail = Buffer.concat([this.tail, piece]);
    if (this.tail.length > EDGE_BYTES) this.tail = this.tail.subarray(this.tail.length - EDGE_BYTES);
  }

  private endOfLine(): void {
    if (this.skipping) {
      const id = idOfCutMessage(this.head, this.tail.toString('utf8'));
      const limitMb = this.maxBytes / (1024 * 1024);
      const message = `message too large: ${this.skippedBytes} bytes, over the ${limitMb} MB limit of one MCP message; it was not processed (send smaller arguments)`;
      this.report(`mnemo mcp: ${message}`);
      // Without a readable id the error goes out with none (JSON-RPC lets an error omit it).
      void this.send({ jsonrpc: '2.0', ...(id === null ? {} : { id }), error: { code: INVALID_REQUEST, message } });
      this.skipping = false;
      this.skippedBytes = 0;
      this.tail = Buffer.alloc(0);
      return;
    }
    const line = Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (err) {
      // A line that is not JSON-RPC is answered too (id unknown), never dropped in silence.
      this.report(`mnemo mcp: ignored a line that is not a JSON-RPC message: ${(err as Error).message.slice(0, 200)}`);
      void this.send({ jsonrpc: '2.0', error: { code: PARSE_ERROR, message: 'not a JSON-RPC message' } });
      return;
    }
    this.onmessage?.(message);
  }

  start(): Promise<void> {
    if (this.started) throw new Error('the stdio transport is already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(serializeMessage(message))) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  close(): Promise<void> {
    // Input ended inside an oversized message: still say so rather than end in silence.
    if (this.skipping) this.endOfLine();
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.parts = [];
    this.onclose?.();
    return Promise.resolve();
  }
}
