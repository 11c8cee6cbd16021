/**
 * `mnemo mcp --http` as a real process: it prints the URL it listens on (stderr), an SDK client
 * remembers and recalls through it, it ends on SIGTERM, and it refuses to start where it would
 * expose a store without a token, or beyond loopback without being told to; the conformance
 * suite's fixture tool exists only with --conformance-fixtures, which needs --anonymous.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startMcpHttpChild, type McpHttpChild } from '../../support/mcp-http-child.js';
import { runCli } from '../helpers/cli.js';
import { connectHttp, rawPost, INITIALIZE } from '../helpers/mcp-http.js';
import { dataOf } from '../helpers/mcp.js';
import { freshStorePath } from '../helpers/agents.js';

const REPO = process.cwd();
const children: McpHttpChild[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) await c.stop();
});

describe('mnemo mcp --http (process)', () => {
  it('--anonymous on loopback: warns, prints its URL, serves remember/recall without a token', async () => {
    const server = await startMcpHttpChild(REPO, ['mcp', freshStorePath(), '--http', '--anonymous', 'tester@1', '--now', '1750000000']);
    children.push(server);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(server.stderr()).toMatch(/warning: requests without a token are served as tester@1/);
    const c = await connectHttp(server.url, null);
    const id = dataOf(await c.call('remember', { content: 'the release train leaves on thursdays' })).id;
    expect(dataOf(await c.call('recall', { query: 'release train' })).results.map((r: { id: string }) => r.id)).toContain(id);
    await c.close();
    await server.stop();
    expect(server.child.exitCode).toBe(0);
  });

  it('--conformance-fixtures with --anonymous: warns and lists the suite\'s fixture tool; without the flag it is absent', async () => {
    const server = await startMcpHttpChild(REPO, ['mcp', freshStorePath(), '--http', '--anonymous', 'conformance@suite', '--conformance-fixtures']);
    children.push(server);
    expect(server.stderr()).toMatch(/warning: --conformance-fixtures adds the MCP conformance suite's test tool json_schema_2020_12_tool/);
    const c = await connectHttp(server.url, null);
    const fixture = (await c.client.listTools()).tools.find((t) => t.name === 'json_schema_2020_12_tool');
    expect(fixture?.inputSchema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', additionalProperties: false, $defs: { address: { type: 'object' } } });
    await c.close();
    const plain = await startMcpHttpChild(REPO, ['mcp', freshStorePath(), '--http', '--anonymous', 'tester@1']);
    children.push(plain);
    const p = await connectHttp(plain.url, null);
    expect((await p.client.listTools()).tools.map((t) => t.name)).not.toContain('json_schema_2020_12_tool');
    await p.close();
  });

  it('without --anonymous a request without a token gets 401', async () => {
    const server = await startMcpHttpChild(REPO, ['mcp', freshStorePath(), '--http']);
    children.push(server);
    expect((await rawPost(server.url, INITIALIZE)).status).toBe(401);
  });

  it('refuses --anonymous beyond loopback, a non-loopback host without --allow-remote, and HTTP flags without --http', async () => {
    // These refusals come before anything listens, so the CLI runs in-process.
    const mnemo = async (args: string[]) => {
      const r = await runCli(args);
      return { status: r.code, stderr: r.stderr };
    };
    const anon = await mnemo(['mcp', freshStorePath(), '--http', '--host', '0.0.0.0', '--allow-remote', '--anonymous', 'tester@1']);
    expect(anon.status).toBe(2);
    expect(anon.stderr).toMatch(/--anonymous serves without a token, so it is allowed only on a loopback address/);
    const fixtures = await mnemo(['mcp', freshStorePath(), '--http', '--conformance-fixtures']);
    expect(fixtures.status).toBe(2);
    expect(fixtures.stderr).toMatch(/--conformance-fixtures is only for the MCP conformance suite: use it together with --anonymous on a loopback address/);
    const remoteFixtures = await mnemo(['mcp', freshStorePath(), '--http', '--host', '0.0.0.0', '--allow-remote', '--conformance-fixtures']);
    expect(remoteFixtures.status).toBe(2);
    expect(remoteFixtures.stderr).toMatch(/--conformance-fixtures is only for the MCP conformance suite/);
    const remote = await mnemo(['mcp', freshStorePath(), '--http', '--host', '0.0.0.0']);
    expect(remote.status).toBe(2);
    expect(remote.stderr).toMatch(/not a loopback address: serving beyond this machine needs --allow-remote/);
    const stray = await mnemo(['mcp', freshStorePath(), '--owner', 'coder@1', '--port', '4000']);
    expect(stray.status).toBe(2);
    expect(stray.stderr).toMatch(/--port applies only with --http/);
    const owner = await mnemo(['mcp', freshStorePath(), '--http', '--owner', 'coder@1']);
    expect(owner.status).toBe(2);
    expect(owner.stderr).toMatch(/--owner does not apply over HTTP/);
  });

  it('--allow-remote on a wildcard address serves with a warning about TLS', async () => {
    const server = await startMcpHttpChild(REPO, ['mcp', freshStorePath(), '--http', '--host', '0.0.0.0', '--allow-remote']);
    children.push(server);
    expect(server.stderr()).toMatch(/warning: mnemo mcp is reachable beyond this machine on 0\.0\.0\.0; .*TLS reverse proxy/);
    const port = new URL(server.url).port;
    expect((await rawPost(`http://127.0.0.1:${port}/mcp`, INITIALIZE)).status).toBe(401);
  });
});
