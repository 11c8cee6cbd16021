/**
 * `node --import tsx scripts/mcp-conformance.ts`: the official MCP conformance suite's server
 * scenarios against `mnemo mcp --http --anonymous --conformance-fixtures` on a fresh store, each printed with its result
 * and whether it applies to mnemo. Exits 1 when an applicable scenario fails, 2 when the Node 22
 * tools are not installed (.ci/run installs them into .cache/node22).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { node22Tools } from '../support/node22-tools.js';
import { CONFORMANCE_SERVER_ARGS, formatResults, runConformance } from '../support/mcp-conformance.js';
import { startMcpHttpChild } from '../support/mcp-http-child.js';

const repo = process.cwd();
const { tools, missing } = node22Tools(repo);
if (!tools) {
  console.error(missing);
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'mnemo-conformance-store-'));
const server = await startMcpHttpChild(repo, ['mcp', join(dir, 'memory.sqlite'), ...CONFORMANCE_SERVER_ARGS]);
const failed = await runConformance(tools, server.url)
  .then(({ results }) => {
    console.log(formatResults(results));
    return results.length === 0 || results.some((r) => r.applicability.applies && r.failed > 0);
  })
  .finally(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });
process.exit(failed ? 1 : 0);
