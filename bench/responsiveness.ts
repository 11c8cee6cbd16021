/**
 * `npm run bench -- responsiveness [--size 100000] [--phases explain,plan,commit,undo] [--agents 8] [--think-ms 0] [--quiet-s 10] [--skip-browser] [--skip-mcp] [--repo DIR] [--json]`
 *
 * Whether people and agents wait while the engine works (issue #37). On cold copies of the demo
 * store (no index snapshots beside them, as for a store another tool made or a fresh copy):
 * - browser mode (`mnemo serve`): the first explain, a reflection plan, the commit of the whole
 *   plan and the undo of that commit, one after another; during each, `store.info` polled every
 *   50 ms, the memory list's first page every second, and the job's progress every 250 ms
 *   (bench/lib/responsiveness-browser.ts);
 * - MCP over HTTP (`mnemo mcp --http`): eight sessions calling `recall` in a loop while one more
 *   session runs `reflect` (bench/lib/responsiveness-mcp.ts).
 * The servers are the compiled CLI of this checkout, or of --repo (an earlier commit's checkout,
 * built), so the same benchmark measures before and after. It reports, per phase, the latencies
 * (p50, p99, max) and the server's resident memory (at the end and at its peak); the targets are
 * store.info p99 ≤ 100 ms and max ≤ 300 ms, memory.list max ≤ 1 s, an agent's recall p99 ≤ 150 ms
 * and max ≤ 300 ms. With --json the last line is one JSON object with these numbers.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { demoStoreCopy } from './lib/demo-store.js';
import { PHASES, runBrowserPhases, type BrowserFigures, type Phase } from './lib/responsiveness-browser.js';
import { runMcpPhase, type McpFigures } from './lib/responsiveness-mcp.js';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    phases: { type: 'string', default: PHASES.join(',') },
    agents: { type: 'string', default: '8' },
    'think-ms': { type: 'string', default: '0' },
    'quiet-s': { type: 'string', default: '10' },
    'skip-browser': { type: 'boolean', default: false },
    'skip-mcp': { type: 'boolean', default: false },
    repo: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const json = values.json === true;
const log = (s: string) => (json ? process.stderr : process.stdout).write(`${s}\n`);
const NOW = 1_780_000_000;
const size = Number(values.size);
const repo = resolve(values.repo ?? process.cwd());
const phases = values.phases!.split(',').map((p) => p.trim()) as Phase[];
for (const p of phases) if (!PHASES.includes(p)) throw new Error(`unknown phase ${JSON.stringify(p)}; phases are ${PHASES.join(', ')}`);
const load = () => loadavg().map((l) => Math.round(l * 100) / 100);

function commitOf(dir: string): string {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return basename(dir);
  }
}

/** A copy of the cached demo store with nothing derived beside it: every index is built on first use. */
function coldCopy(): string {
  const db = demoStoreCopy(size, NOW, log);
  for (const f of readdirSync(dirname(db))) if (f.startsWith(`${basename(db)}.mnemo-index`)) rmSync(join(dirname(db), f), { recursive: true, force: true });
  return db;
}

const loadAtStart = load();
log(`responsiveness: ${size.toLocaleString('en')} memories, servers from ${repo} (${commitOf(repo)}), load average ${loadAtStart.join(' ')} on ${cpus().length} CPUs`);
let browser: BrowserFigures | null = null;
let mcp: McpFigures | null = null;
if (!values['skip-browser']) {
  const db = coldCopy();
  log('browser mode (mnemo serve):');
  try {
    browser = await runBrowserPhases(repo, db, { now: NOW, phases, log, query: 'why did the payments deploy fail in production' });
  } finally {
    rmSync(dirname(db), { recursive: true, force: true });
  }
}
if (!values['skip-mcp']) {
  const db = coldCopy();
  log(`MCP over HTTP (mnemo mcp --http): ${values.agents} agents recall in a loop while one more reflects:`);
  try {
    mcp = await runMcpPhase(repo, db, { now: NOW, agents: Number(values.agents), thinkMs: Number(values['think-ms']), quietSeconds: Number(values['quiet-s']), log });
  } finally {
    rmSync(dirname(db), { recursive: true, force: true });
  }
}

const worst = (pick: (p: BrowserFigures['phases'][number]) => number | null) => (browser ? Math.max(...browser.phases.map((p) => pick(p) ?? 0)) : null);
const summary = {
  store_info_p99_ms: worst((p) => p.store_info.p99_ms),
  store_info_max_ms: worst((p) => p.store_info.max_ms),
  memory_list_max_ms: worst((p) => p.memory_list.max_ms),
  agent_recall_p99_ms: mcp?.during_reflect.p99_ms ?? null,
  agent_recall_max_ms: mcp?.during_reflect.max_ms ?? null,
  serve_rss_peak_mb: browser?.rss_mb_peak ?? null,
};
const targets = { store_info_p99_ms: 100, store_info_max_ms: 300, memory_list_max_ms: 1000, agent_recall_p99_ms: 150, agent_recall_max_ms: 300 };
const met = Object.fromEntries(Object.entries(targets).map(([k, t]) => [k, summary[k as keyof typeof summary] === null ? null : summary[k as keyof typeof summary]! <= t]));
log(`worst over the phases: store.info p99 ${summary.store_info_p99_ms} ms, max ${summary.store_info_max_ms} ms; memory.list max ${summary.memory_list_max_ms} ms; agent recall p99 ${summary.agent_recall_p99_ms} ms, max ${summary.agent_recall_max_ms} ms; mnemo serve RSS peak ${summary.serve_rss_peak_mb} MB`);
const result = {
  bench: 'responsiveness',
  size,
  repo: commitOf(repo),
  cpus: cpus().length,
  load_average: { start: loadAtStart, end: load() },
  summary,
  targets,
  met,
  browser,
  mcp,
};
if (json) console.log(JSON.stringify(result));
