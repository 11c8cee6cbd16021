/**
 * Reads a request body up to a byte limit. A declared Content-Length over the limit is refused
 * before reading; a body that grows past it while streaming stops being read at once.
 */
import type { IncomingMessage } from 'node:http';

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export type BodyRead = { ok: true; text: string } | { ok: false; tooLarge: true; bytes: number };

export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    return Promise.resolve({ ok: false, tooLarge: true, bytes: declared });
  }
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let done = false;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        done = true;
        req.off('data', onData);
        // Keep draining without storing, so the 413 can still be written on this connection.
        req.resume();
        resolve({ ok: false, tooLarge: true, bytes: size });
        return;
      }
      parts.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => {
      if (!done) resolve({ ok: true, text: Buffer.concat(parts).toString('utf8') });
    });
    req.once('error', (err) => {
      if (!done) reject(err);
    });
  });
}
