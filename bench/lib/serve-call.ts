/**
 * A call to a `mnemo serve` child's API (`POST /api/<method>` with its token), answered with the
 * envelope as sent. node:http rather than fetch: fetch gives up on an answer after 300 s, and a
 * commit at 100k takes longer.
 */
import { request } from 'node:http';

export type Envelope = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };

export function serveCaller(port: number, token: string): (method: string, input: unknown) => Promise<Envelope> {
  return (method, input) =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify(input);
      const req = request({ host: '127.0.0.1', port, path: `/api/${method}`, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-mnemo-token': token } }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(parts).toString('utf8')) as Envelope);
          } catch (err) {
            reject(err as Error);
          }
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
}
