/**
 * Generative ops through an OpenAI-compatible endpoint: a stub server on 127.0.0.1 answers with
 * canned replies (good, malformed, hallucinated ids, failures). Proposals land in the plan and only
 * reach the store through apply.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan } from '../../core/reflect/apply.js';
import type { LlmConfig } from '../../core/reflect/llm.js';
import { loadLlmEndpoints } from '../../core/reflect/llm-endpoints.js';
import { planReflection } from '../../core/reflect/plan.js';
import type { AbstractOp, EpisodeOp, ReconcileOp } from '../../core/reflect/types.js';
import { expected, fixtureCopy } from '../../support/fixture.js';
import { openAt } from '../../support/reflect.js';

const NOW: number = expected().now;
type Reply = string | ((prompt: string) => string) | { status: number };
let queue: Reply[] = [];
let prompts: string[] = [];
let server: Server;
let baseUrl = '';
const stubEndpoint = (): LlmConfig => ({ base_url: baseUrl, model: 'stub', api_key: null, timeout_ms: 60_000 });

function chat(content: string): string {
  return JSON.stringify({ choices: [{ message: { role: 'assistant', content } }], usage: { prompt_tokens: 100, completion_tokens: 20 } });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const prompt = (JSON.parse(body) as { messages: { content: string }[] }).messages[0]!.content;
      prompts.push(prompt);
      const next = queue.shift() ?? '{}';
      if (typeof next === 'object') {
        res.writeHead(next.status).end('upstream failure');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(chat(typeof next === 'function' ? next(prompt) : next));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address() as { port: number };
  baseUrl = `http://127.0.0.1:${addr.port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function idsIn(prompt: string): string[] {
  return [...prompt.matchAll(/id=([0-9a-f]+)/g)].map((m) => m[1]!);
}

describe('generative reflection', () => {
  it('reconcile archives only cluster ids, survives malformed replies with one retry, and applies', async () => {
    queue = [
      // cluster 1: malformed twice -> skipped (one retry)
      'sure! here is what I think',
      '{"redundant": tru',
      // cluster 2: a hallucinated id next to a real one
      (p) => `Result: {"redundant": true, "consolidated": "merged fact", "supersede": ["${idsIn(p)[1]}", "deadbeefdeadbeef"]}`,
      // cluster 3: an HTTP failure, then a good "not redundant" on the retry
      { status: 500 },
      '{"redundant": false, "consolidated": null, "supersede": []}',
    ];
    prompts = [];
    const engine = openAt(fixtureCopy(), NOW);
    const plan = await planReflection(engine, { generative: { ops: ['reconcile'], endpoint: stubEndpoint(), max_calls: 5 }, policy: { max_clusters_per_reflection: 3 } });
    const rec = plan.groups.find((g) => g.op === 'reconcile')!;
    expect(rec.ops).toHaveLength(1);
    const op = rec.ops[0] as ReconcileOp;
    expect(op.rejected_ids).toEqual(['deadbeefdeadbeef']);
    // The call behind the proposal travels with it, for review.
    expect(op.exchange).toEqual({ prompt: prompts[2], reply: expect.stringContaining('"consolidated": "merged fact"') });
    expect(op.archive).toHaveLength(1);
    expect(op.cluster).toContain(op.archive[0]);
    expect(op.consolidated.edges.every((e) => e.type === 'refines' && op.cluster.includes(e.target_id))).toBe(true);
    expect(plan.generative).toMatchObject({ calls: 5, retries: 2, failures: 1, model: 'stub' });
    expect(plan.report.reconciled).toBe(1);
    expect(plan.report.superseded).toBe(1);
    expect(prompts[0]).toMatch(/- id=[0-9a-f]+ age=\d+\.\dh type=\w+: /);
    // The store has not been touched by planning.
    expect(engine.store.exists(op.consolidated.id)).toBe(false);
    const res = await applyPlan(engine, plan);
    expect(res.skipped).toEqual([]);
    const created = engine.store.get(op.consolidated.id)!;
    expect(created.content).toBe('merged fact');
    expect(created.edges.filter((e) => e.type === 'refines')).toHaveLength(op.cluster.length);
    expect(engine.store.get(op.archive[0]!)!.archived).toBe(true);
    engine.close();
  });

  it('abstract proposes capped insights derived from the episode slice; the call budget is a hard cap', async () => {
    const insights = Array.from({ length: 7 }, (_, i) => ({ title: `Lesson ${i}`, content: `insight number ${i}`, tags: ['b', 'a'] }));
    queue = [JSON.stringify({ insights })];
    const engine = openAt(fixtureCopy(), NOW);
    const plan = await planReflection(engine, { generative: { ops: ['abstract'], endpoint: stubEndpoint() }, policy: { max_episodes_per_reflection: 4 } });
    const ops = plan.groups.find((g) => g.op === 'abstract')!.ops as AbstractOp[];
    expect(ops).toHaveLength(5);
    expect(ops[0]!.memory).toMatchObject({ type: 'reflection', importance: 6, tags: ['a', 'b'] });
    expect(ops[0]!.episodes).toHaveLength(4);
    expect(ops[0]!.memory.edges.every((e) => e.type === 'derived_from')).toBe(true);
    // Drop one insight: exactly the accepted four are created.
    const accepted = plan.groups.flatMap((g) => g.ops.map((o) => o.id)).filter((id) => id !== 'a3');
    await applyPlan(engine, plan, { accepted });
    expect(ops.map((o) => engine.store.exists(o.memory.id))).toEqual([true, true, false, true, true]);
    engine.close();

    queue = ['nope', 'still nope'];
    const e2 = openAt(fixtureCopy(), NOW);
    const p2 = await planReflection(e2, { generative: { ops: ['abstract', 'reconcile'], endpoint: stubEndpoint(), max_calls: 2 } });
    expect(p2.generative!.calls).toBe(2);
    expect(p2.generative!.capped).toMatch(/call budget/);
    expect(p2.report.created + p2.report.reconciled).toBe(0);
    e2.close();
  });

  it('the episode writer turns a transcript into one proposed episode, and an empty transcript costs no call', async () => {
    queue = ['{"noteworthy": true, "episode": "Deployed billing; health checks failed, rolled back."}'];
    prompts = [];
    const engine = openAt(fixtureCopy(), NOW);
    const plan = await planReflection(engine, { until: 'episode', generative: { ops: ['episode'], endpoint: stubEndpoint(), transcript: '- [ToolCall] make deploy billing\n- [ToolResult] health check failed' } });
    const ep = plan.groups[0]!.ops[0] as EpisodeOp;
    expect(ep.memory).toMatchObject({ type: 'episode', content: 'Deployed billing; health checks failed, rolled back.' });
    expect(prompts[0]).toContain('[ToolCall] make deploy billing');
    const empty = await planReflection(engine, { until: 'episode', generative: { ops: ['episode'], endpoint: stubEndpoint(), transcript: '  ' } });
    expect(empty.generative!.calls).toBe(0);
    engine.close();
  });

  it('names the missing endpoint configuration', () => {
    expect(() => loadLlmEndpoints({ env: {} }).get(undefined)).toThrow(/MNEMO_LLM_URL/);
  });
});
