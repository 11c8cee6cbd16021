/**
 * Runs the official MCP conformance suite's server scenarios against a `mnemo mcp --http` URL and
 * reads back each scenario's checks. Many scenarios call tools, prompts or resources that only the
 * suite's own reference server has (test_simple_text, test://static-text, …); APPLICABILITY says,
 * for each scenario, whether it tests mnemo's server or the suite's fixtures, and why. It is the
 * table docs/agents-http.md shows. The server runs with --conformance-fixtures (CONFORMANCE_SERVER_ARGS),
 * which adds the one suite tool whose scenario tests mnemo's server: json-schema-2020-12 checks how
 * tools/list renders an input schema, which needs a tool with `$defs`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Node22Tools } from './node22-tools.js';

/** `mnemo` arguments after the store path: anonymous (the suite sends no token) with the fixtures. */
export const CONFORMANCE_SERVER_ARGS = ['--http', '--anonymous', 'conformance@suite', '--conformance-fixtures'];

export interface Applicability {
  applies: boolean;
  why: string;
}

const SUITE_TOOL = (tool: string) => ({ applies: false, why: `calls the suite's own tool ${tool}; mnemo's tools are its memory tools` });
const SUITE_PROMPT = (prompt: string) => ({ applies: false, why: `gets the suite's own prompt ${prompt}; mnemo offers no prompts` });
const SUITE_RESOURCE = (what: string) => ({ applies: false, why: `reads the suite's own ${what}; mnemo's resources are mnemo://memories/recent and mnemo://todos/open` });

export const APPLICABILITY: Record<string, Applicability> = {
  'server-initialize': { applies: true, why: 'the initialize handshake' },
  'logging-set-level': { applies: true, why: 'mnemo declares the logging capability' },
  ping: { applies: true, why: 'ping' },
  'tools-list': { applies: true, why: 'every tool has a name, description and input schema' },
  'resources-list': { applies: true, why: 'mnemo lists its two resources' },
  'server-sse-multiple-streams': { applies: true, why: 'concurrent POST streams in one session' },
  'dns-rebinding-protection': { applies: true, why: 'a foreign Host/Origin is refused, the server\'s own is answered' },
  'tools-call-error': { applies: false, why: 'calls the suite\'s test_error_handling; it passes only because calling an unknown tool is an error result' },
  'tools-call-simple-text': { applies: false, why: 'calls the suite\'s test_simple_text; it passes only because the "tool not found" error result is text' },
  'completion-complete': { applies: false, why: 'completes an argument of the suite\'s prompt test_prompt_with_arguments; mnemo offers no prompts or completions' },
  'tools-call-image': SUITE_TOOL('test_image_content'),
  'tools-call-audio': SUITE_TOOL('test_audio_content'),
  'tools-call-embedded-resource': SUITE_TOOL('test_embedded_resource'),
  'tools-call-mixed-content': SUITE_TOOL('test_multiple_content_types'),
  'tools-call-with-logging': SUITE_TOOL('test_tool_with_logging'),
  'tools-call-with-progress': SUITE_TOOL('test_tool_with_progress'),
  'tools-call-sampling': SUITE_TOOL('test_sampling'),
  'tools-call-elicitation': SUITE_TOOL('test_elicitation'),
  'elicitation-sep1034-defaults': SUITE_TOOL('test_elicitation_sep1034_defaults'),
  'elicitation-sep1330-enums': SUITE_TOOL('test_elicitation_sep1330_enums'),
  'json-schema-2020-12': { applies: true, why: 'tools/list keeps 2020-12 keywords ($schema, $defs, additionalProperties: false); the tool it inspects, json_schema_2020_12_tool, is served with --conformance-fixtures because none of mnemo\'s own tools has $defs' },
  'server-sse-polling': { applies: false, why: 'calls the suite\'s test_reconnection tool, which closes its stream mid-call; mnemo\'s streams are resumable (Last-Event-ID), tested in test/cli/mcp-http.test.ts' },
  'resources-read-text': SUITE_RESOURCE('test://static-text'),
  'resources-read-binary': SUITE_RESOURCE('test://static-binary'),
  'resources-templates-read': SUITE_RESOURCE('resource template test://template/{id}/data'),
  'resources-subscribe': { applies: false, why: 'subscribes to the suite\'s test://watched-resource; mnemo does not offer resource subscriptions' },
  'resources-unsubscribe': { applies: false, why: 'unsubscribes from the suite\'s test://watched-resource; mnemo does not offer resource subscriptions' },
  'prompts-list': { applies: false, why: 'mnemo offers no prompts, so it does not declare the prompts capability and prompts/list is "method not found"' },
  'prompts-get-simple': SUITE_PROMPT('test_simple_prompt'),
  'prompts-get-with-args': SUITE_PROMPT('test_prompt_with_arguments'),
  'prompts-get-embedded-resource': SUITE_PROMPT('test_prompt_with_embedded_resource'),
  'prompts-get-with-image': SUITE_PROMPT('test_prompt_with_image'),
};

export interface ScenarioResult {
  scenario: string;
  passed: number;
  failed: number;
  warnings: number;
  /** The first failure's message, for the table. */
  failure: string | null;
  applicability: Applicability;
}

interface Check {
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

/** Scenario name from a results folder: `server-<scenario>-<ISO time>`. */
function scenarioOf(folder: string): string {
  return folder.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
}

export function readResults(dir: string): ScenarioResult[] {
  return readdirSync(dir)
    .filter((f) => f.startsWith('server-'))
    .map((folder) => {
      const checks = JSON.parse(readFileSync(join(dir, folder, 'checks.json'), 'utf8')) as Check[];
      const scenario = scenarioOf(folder);
      const failures = checks.filter((c) => c.status === 'FAILURE');
      return {
        scenario,
        passed: checks.filter((c) => c.status === 'SUCCESS').length,
        failed: failures.length,
        warnings: checks.filter((c) => c.status === 'WARNING').length,
        failure: failures[0]?.errorMessage ?? null,
        applicability: APPLICABILITY[scenario] ?? { applies: true, why: 'a scenario this table does not know yet: it counts until classified' },
      };
    })
    .sort((a, b) => a.scenario.localeCompare(b.scenario));
}

/** Runs every server scenario (`--suite all`) against `url` and returns the results. */
export async function runConformance(tools: Node22Tools, url: string): Promise<{ results: ScenarioResult[]; output: string }> {
  const out = mkdtempSync(join(tmpdir(), 'mnemo-conformance-'));
  try {
    const output = await new Promise<string>((resolve) => {
      // The suite exits non-zero when any scenario fails; the per-scenario results decide here.
      execFile(tools.node, [tools.conformance, 'server', '--url', url, '--suite', 'all', '-o', out], { env: tools.env, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 }, (_err, stdout, stderr) => resolve(`${stdout}${stderr}`));
    });
    return { results: readResults(out), output };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export function formatResults(results: readonly ScenarioResult[]): string {
  const lines = results.map((r) => {
    const verdict = r.failed === 0 ? 'pass' : 'FAIL';
    const role = r.applicability.applies ? 'applies' : 'n/a';
    const detail = r.failed > 0 && r.failure ? ` (${r.failure.slice(0, 120)})` : '';
    return `${verdict.padEnd(4)}  ${role.padEnd(7)}  ${r.scenario.padEnd(30)}  ${r.passed} passed, ${r.failed} failed, ${r.warnings} warnings${detail}\n      ${r.applicability.why}`;
  });
  const applicable = results.filter((r) => r.applicability.applies);
  const bad = applicable.filter((r) => r.failed > 0);
  lines.push(`${applicable.length - bad.length} of ${applicable.length} applicable scenarios pass; ${results.length - applicable.length} do not apply`);
  return lines.join('\n');
}
