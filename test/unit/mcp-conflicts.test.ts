/**
 * Conflicts over MCP, within each agent's owner scope: an agent flags a contradiction with
 * `associate` (contradicts + note) and it shows up in the queue (its own tool and the workbench's
 * API); it supersedes one side, recall leaves it out unless asked, and results carry superseded_by;
 * another role can neither see nor settle the pair; a curator's undo restores the ranking.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import { freshStorePath } from '../helpers/agents.js';
import { dataOf, mcpAgent, textOf } from '../helpers/mcp.js';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const mcpFor = (path: string, owner: string) => mcpAgent(path, owner, cleanup);

describe('conflicts over MCP', () => {
  it('an agent flags a contradiction with a note, settles it in its scope, and recall knows; another role cannot touch it; undo restores', async () => {
    const path = freshStorePath();
    const { mcp } = await mcpFor(path, 'alice@1');
    const { mcp: bob } = await mcpFor(path, 'bob@1');
    const old = dataOf(await mcp.call('remember', { content: 'The staging cluster runs on Kubernetes 1.27 in eu-west.' }));
    const fresh = dataOf(await mcp.call('remember', { content: 'Staging moved to the managed cluster in us-east last week.' }));

    const flagged = dataOf(await mcp.call('associate', { a_id: fresh.id, b_id: old.id, relation: 'contradicts', note: 'staging was migrated' }));
    expect(flagged).toMatchObject({ src: fresh.id, dst: old.id, relation: 'contradicts', changed: true });
    const note = await mcp.call('associate', { a_id: fresh.id, b_id: old.id, relation: 'supports', note: 'no' });
    expect(note.isError).toBe(true);
    expect(textOf(note)).toContain('a note flags a contradiction');

    const queue = dataOf(await mcp.call('conflicts', {}));
    expect(queue.total).toBe(1);
    expect(queue.items[0]).toMatchObject({ kind: 'contradicts', ids: [fresh.id, old.id], note: { note: 'staging was migrated', owner: 'alice@1' } });
    expect(textOf(await mcp.call('conflicts', {}))).toContain('flagged: staging was migrated');
    // The curator's queue (the workbench's API) shows the agent's flag too.
    const curator = new ApiSession();
    curator.open(path);
    cleanup.push(() => curator.close());
    expect((await call(curator, 'review.conflicts', {})).items.map((i) => i.ids)).toEqual([[fresh.id, old.id]]);

    // Bob (another role) sees neither memory, so neither the pair nor a way to settle it.
    expect(dataOf(await bob.call('conflicts', {})).total).toBe(0);
    const refused = await bob.call('resolve_conflict', { action: 'supersede', current: fresh.id, superseded: old.id });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/no memory .* in scope "bob"/);

    const before = dataOf(await mcp.call('recall', { query: 'staging cluster', k: 5 })).results.map((r: { id: string }) => r.id);
    expect(before).toContain(old.id);
    const res = dataOf(await mcp.call('resolve_conflict', { action: 'supersede', current: fresh.id, superseded: old.id }));
    expect(res).toMatchObject({ do: 'supersede', ids: [old.id, fresh.id] });
    expect(res.change_id).toBeGreaterThan(0);
    expect(dataOf(await mcp.call('conflicts', {})).total).toBe(0);

    const after = dataOf(await mcp.call('recall', { query: 'staging cluster', k: 5 })).results;
    expect(after.map((r: { id: string }) => r.id)).not.toContain(old.id);
    const marked = await mcp.call('recall', { query: 'staging cluster', k: 5, include_superseded: true });
    const row = dataOf(marked).results.find((r: { id: string }) => r.id === old.id);
    expect(row.superseded_by).toBe(fresh.id);
    expect(textOf(marked)).toContain(`SUPERSEDED by ${fresh.id.slice(0, 8)}`);

    await call(curator, 'journal.undo', { change_id: res.change_id });
    const undone = dataOf(await mcp.call('recall', { query: 'staging cluster', k: 5 })).results.map((r: { id: string }) => r.id);
    expect(undone).toContain(old.id);
    expect(dataOf(await mcp.call('conflicts', {})).total).toBe(1);
  });

  it("an agent settles its role's pairs (nooa's write rule: the role owns them), never another role's", async () => {
    const path = freshStorePath();
    const { mcp: alice } = await mcpFor(path, 'alice@1');
    const { mcp: other } = await mcpFor(path, 'alice@2');
    const mine = dataOf(await alice.call('remember', { content: 'The release train leaves on Tuesdays.' }));
    const theirs = dataOf(await other.call('remember', { content: 'The release train leaves on Thursdays.' }));
    const { mcp: bob } = await mcpFor(path, 'bob@1');
    const bobs = dataOf(await bob.call('remember', { content: 'The release train leaves on Mondays.' }));
    // Seen with owner "*", bob's memory is still not alice's to settle.
    expect(dataOf(await alice.call('conflicts', { owner: '*' })).items.some((i: { ids: string[] }) => i.ids.includes(bobs.id))).toBe(true);
    const refused = await alice.call('resolve_conflict', { action: 'both_hold', a_id: mine.id, b_id: bobs.id });
    expect(refused.isError).toBe(true);
    const r = await alice.call('resolve_conflict', { action: 'supersede', current: mine.id, superseded: theirs.id });
    expect(r.isError ?? false, textOf(r)).toBe(false);
    expect(dataOf(r)).toMatchObject({ do: 'supersede', ids: [theirs.id, mine.id] });
  });
});

