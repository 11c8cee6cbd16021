/** Owners over MCP, on reads: what agent A can reach of agent B's memories through recall and spread. */
import { afterEach, describe, expect, it } from 'vitest';
import { freshStorePath } from '../helpers/agents.js';
import { dataOf, mcpAgent } from '../helpers/mcp.js';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});
const mcpFor = (path: string, owner: string) => mcpAgent(path, owner, cleanup);
const ids = (r: { results: { id: string }[] }) => r.results.map((x) => x.id);

describe('owners over MCP: reads', () => {
  it('recall defaults to the own role plus unowned; "*" and a named role read others; recall counts the cross-owner read', async () => {
    const path = freshStorePath();
    const { mcp: a } = await mcpFor(path, 'alice@1');
    const { mcp: b } = await mcpFor(path, 'bob@1');
    const { mcp: shared } = await mcpFor(path, '');
    const mine = dataOf(await a.call('remember', { content: 'the kiln fires at 1200 degrees' })).id;
    const theirs = dataOf(await b.call('remember', { content: 'the kiln needs a new thermocouple' })).id;
    const common = dataOf(await shared.call('remember', { content: 'the kiln room key is at reception' })).id;
    expect(new Set(ids(dataOf(await a.call('recall', { query: 'kiln', k: 10 }))))).toEqual(new Set([mine, common]));
    expect(new Set(ids(dataOf(await a.call('recall', { query: 'kiln', k: 10, owner: '*' }))))).toEqual(new Set([mine, theirs, common]));
    expect(new Set(ids(dataOf(await a.call('search', { query: 'kiln', k: 10, owner: 'bob' }))))).toEqual(new Set([theirs, common]));
    expect(dataOf(await a.call('stats')).cross_owner_recalls).toBe(2);
    expect(new Set(ids(dataOf(await shared.call('recall', { query: 'kiln', k: 10 }))))).toEqual(new Set([common]));
  });

  it('A cannot reach B\'s memories through spread, even over an edge A drew to them', async () => {
    const path = freshStorePath();
    const { mcp: a } = await mcpFor(path, 'alice');
    const { mcp: b } = await mcpFor(path, 'bob');
    const seed = dataOf(await a.call('remember', { content: 'quarterly planning offsite agenda draft' })).id;
    const far = dataOf(await a.call('remember', { content: 'zebra crossing near the parking garage' })).id;
    const foreign = dataOf(await b.call('remember', { content: 'violin lessons on wednesday evenings' })).id;
    // alice: seed -causes-> foreign (allowed: the source is hers); bob: foreign -causes-> far (his source).
    dataOf(await a.call('associate', { a_id: seed, b_id: foreign, relation: 'causes' }));
    dataOf(await b.call('associate', { a_id: foreign, b_id: far, relation: 'causes' }));
    type Hit = { id: string; components: { source: string; spread: number } };
    const own = dataOf(await a.call('recall', { query: 'quarterly planning offsite agenda', k: 10, hops: 2 }));
    expect(ids(own)).toContain(seed);
    expect(ids(own)).not.toContain(foreign);
    // alice's far memory may rank on its own (every dense candidate counts), but gets no activation relayed through bob's node.
    const farHit = own.results.find((r: Hit) => r.id === far) as Hit | undefined;
    expect(farHit?.components.spread ?? 0).toBe(0);
    // The edge does carry activation when the reader may see bob's memory: the gate is the owner policy, not a missing edge.
    const everyone = dataOf(await a.call('recall', { query: 'quarterly planning offsite agenda', k: 10, hops: 2, owner: '*' }));
    expect((everyone.results.find((r: Hit) => r.id === foreign) as Hit).components.spread).toBeGreaterThan(0);
    expect((everyone.results.find((r: Hit) => r.id === far) as Hit).components.spread).toBeGreaterThan(0);
  });
});
