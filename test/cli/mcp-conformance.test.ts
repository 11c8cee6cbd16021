/**
 * Issue 18's acceptance, with the official tools (Node 22, installed by .ci/run into .cache/node22;
 * skipped with that reason when absent):
 * - the MCP conformance suite's server scenarios against `mnemo mcp --http --anonymous
 *   --conformance-fixtures`: every scenario that tests mnemo's server passes, json-schema-2020-12
 *   among them (support/mcp-conformance.ts says which those are);
 * - the MCP Inspector CLI lists the tools and calls remember / recall over HTTP with a bearer token.
 */
import { execFile } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { node22Tools, type Node22Tools } from '../../support/node22-tools.js';
import { CONFORMANCE_SERVER_ARGS, formatResults, runConformance } from '../../support/mcp-conformance.js';
import { startMcpHttpChild, type McpHttpChild } from '../../support/mcp-http-child.js';
import { issueCredential } from '../../core/agent/credentials.js';
import { fixedClock } from '../../core/clock.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { freshStorePath, T0 } from '../helpers/agents.js';

const REPO = process.cwd();
const { tools, missing } = node22Tools(REPO);

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const s of stops.splice(0)) await s();
});

/** The Inspector CLI's JSON answer to one method (async: the server answering it may live in this process). */
function inspector(t: Node22Tools, url: string, token: string, args: string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(t.node, [t.inspector, '--cli', url, '--transport', 'http', '--header', `Authorization: Bearer ${token}`, ...args], { env: t.env, timeout: 120_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`inspector failed: ${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

describe('official MCP tools against mnemo mcp --http', () => {
  it('conformance suite: every scenario that applies to mnemo passes, and the required ones are among them', async (ctx) => {
    if (!tools) return ctx.skip(missing);
    const server: McpHttpChild = await startMcpHttpChild(REPO, ['mcp', freshStorePath(), ...CONFORMANCE_SERVER_ARGS]);
    stops.push(() => server.stop());
    const { results, output } = await runConformance(tools, server.url);
    console.log(formatResults(results));
    expect(results.length, output).toBeGreaterThanOrEqual(30);
    const passing = results.filter((r) => r.failed === 0).map((r) => r.scenario);
    // The scenarios issue 18 names, then the others that test mnemo's server.
    expect(passing).toEqual(expect.arrayContaining(['server-initialize', 'ping', 'tools-list', 'json-schema-2020-12', 'dns-rebinding-protection']));
    expect(passing).toEqual(expect.arrayContaining(['logging-set-level', 'resources-list', 'server-sse-multiple-streams']));
    expect(results.filter((r) => r.applicability.applies && r.failed > 0)).toEqual([]);
  });

  it('Inspector CLI: lists the tools, remembers and recalls with a bearer token (and is refused without one)', async (ctx) => {
    if (!tools) return ctx.skip(missing);
    // A token issued as `mnemo agents add` issues it, for the real server process.
    const path = freshStorePath();
    const store = MemoryStore.open(path, { create: true, clock: fixedClock(T0) });
    const { token } = issueCredential(store, { owner: 'inspector@1' }, fixedClock(T0));
    store.close();
    const server: McpHttpChild = await startMcpHttpChild(REPO, ['mcp', path, '--http']);
    stops.push(() => server.stop());
    const listed = (await inspector(tools, server.url, token, ['--method', 'tools/list'])) as { tools: { name: string }[] };
    expect(listed.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['remember', 'recall']));
    const remembered = (await inspector(tools, server.url, token, ['--method', 'tools/call', '--tool-name', 'remember', '--tool-arg', 'content=the inspector wrote this note about ferry schedules'])) as { structuredContent: { id: string } };
    const recalled = (await inspector(tools, server.url, token, ['--method', 'tools/call', '--tool-name', 'recall', '--tool-arg', 'query=ferry schedules'])) as { structuredContent: { results: { id: string; owner: string }[] } };
    const hit = recalled.structuredContent.results.find((r) => r.id === remembered.structuredContent.id);
    expect(hit?.owner).toBe('inspector@1');
    await expect(inspector(tools, server.url, 'wrong-token', ['--method', 'tools/list'])).rejects.toThrow(/401|nauthorized|invalid_token|token/i);
  });
});
