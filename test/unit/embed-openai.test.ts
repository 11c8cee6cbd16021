import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedderFromEnv, OpenAIEmbedder } from '../../core/embed/openai.js';

let server: Server;
let base = '';
let lastBody: { model?: string; input?: string[] } = {};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      lastBody = JSON.parse(body) as typeof lastBody;
      const input = lastBody.input ?? [];
      if (input.includes('fail')) {
        res.writeHead(500).end('boom');
        return;
      }
      const dim = input.includes('wrong-dim') ? 3 : 4;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: input.map((t, index) => ({ index, embedding: Array.from({ length: dim }, (_, j) => (j === t.length % dim ? 2 : 0)) })) }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/v1`;
});
afterAll(() => server.close());

describe('OpenAI-compatible embedder', () => {
  it('batches, normalises and keeps input order', async () => {
    const e = new OpenAIEmbedder({ baseUrl: base, model: 'm', dim: 4, batchSize: 2 });
    const vs = await e.embed(['a', 'bb', 'ccc']);
    expect(vs.map((v) => [...v])).toEqual([
      [0, 1, 0, 0],
      [0, 0, 1, 0],
      [0, 0, 0, 1],
    ]);
    expect(lastBody).toMatchObject({ model: 'm', input: ['ccc'] });
  });

  it('reports endpoint failures and dimension mismatches clearly', async () => {
    const e = new OpenAIEmbedder({ baseUrl: base, model: 'm', dim: 4 });
    await expect(e.embed(['fail'])).rejects.toThrow(/answered 500/);
    await expect(e.embed(['wrong-dim'])).rejects.toThrow(/3 dimensions, but the store uses 4/);
    await expect(new OpenAIEmbedder({ baseUrl: 'http://127.0.0.1:1', model: 'm', dim: 4 }).embed(['x'])).rejects.toThrow(/unreachable/);
  });

  it('is configured from the environment only when asked', () => {
    expect(embedderFromEnv({})).toBeNull();
    expect(() => embedderFromEnv({ MNEMO_EMBED_URL: base })).toThrow(/MNEMO_EMBED_MODEL/);
    expect(embedderFromEnv({ MNEMO_EMBED_URL: base, MNEMO_EMBED_MODEL: 'x', MNEMO_EMBED_DIM: '8' })!.dim).toBe(8);
  });
});
