/**
 * Acceptance: a full run over MCP with the SDK's own Client over stdio, against `mnemo mcp`
 * spawned as a real process. The accesses it made are then read back through the API method the
 * workbench's audit view uses (`access.list`), attributed to the MCP reader and its session, and
 * seen in browser mode's audit view itself.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import { freshStorePath } from '../helpers/agents.js';
import { dataOf, textOf } from '../helpers/mcp.js';
import { openWorkbench } from '../../support/workbench.js';

const OWNER = 'researcher@run7';
const SESSION = 'mcp-acceptance';
let db: string;
let client: Client;
let stderr = '';

async function tool(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

beforeAll(async () => {
  db = freshStorePath();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', join(process.cwd(), 'cli', 'main.ts'), 'mcp', db, '--owner', OWNER, '--session', SESSION],
    cwd: process.cwd(),
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  client = new Client({ name: 'acceptance', version: '1.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
});

describe('a full run over MCP (stdio)', () => {
  const ids: string[] = [];

  it('lists the tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['associate', 'conflicts', 'deref', 'erase', 'forget', 'intent_add', 'intents_due', 'recall', 'reflect', 'remember', 'resolve_conflict', 'search', 'stats', 'todo_close', 'todo_list', 'todo_open', 'update_memory'].sort(),
    );
    expect(stderr).toContain(`serving ${db} to ${OWNER} (session ${SESSION})`);
  });

  it('remembers three memories', async () => {
    for (const content of [
      'The ingestion service retries failed uploads three times with exponential backoff',
      'Upload failures above five percent page the on-call engineer',
      'The on-call rotation changes every monday at nine',
    ]) {
      const d = dataOf(await tool('remember', { content, tags: ['ops'] }));
      expect(d.reinforced).toBe(false);
      ids.push(d.id);
    }
  });

  it('recalls them, with components', async () => {
    const results = dataOf(await tool('recall', { query: 'upload failures retries on-call', k: 3 })).results as {
      id: string;
      rank: number;
      score: number;
      components: Record<string, unknown>;
    }[];
    expect(results.map((r) => r.id).sort()).toEqual([...ids].sort());
    for (const r of results) {
      expect(Object.keys(r.components).sort()).toEqual(['cos', 'imp', 'rec', 'rel', 'source', 'spread']);
      expect(typeof r.score).toBe('number');
    }
    expect(results.map((r) => r.rank)).toEqual([0, 1, 2]);
  });

  it('associates two of them', async () => {
    const d = dataOf(await tool('associate', { a_id: ids[1]!.slice(0, 8), b_id: ids[2]!.slice(0, 8), relation: 'causes' }));
    expect(d).toMatchObject({ src: ids[1], dst: ids[2], relation: 'causes', changed: true });
  });

  it('reflects', async () => {
    const r = await tool('reflect');
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(dataOf(r).report).toMatchObject({ merged: expect.any(Number), edges_added: expect.any(Number), rescored: expect.any(Number), pruned: expect.any(Number) });
    expect(textOf(r)).toMatch(/^reflected: merged \d+, edges added \d+, rescored \d+, pruned \d+$/);
  });

  it('the audit API shows those accesses attributed to the MCP reader and session', async () => {
    const session = new ApiSession({ reader: { owner: 'workbench' } });
    session.open(db, { readonly: true });
    try {
      const res = await call(session, 'access.list', { reader_owner: OWNER, channels: ['recalled'] });
      expect(res.events).toHaveLength(3);
      expect(new Set(res.events.map((e) => e.memory_id))).toEqual(new Set(ids));
      for (const e of res.events) {
        expect(e).toMatchObject({ reader_owner: OWNER, session_ref: SESSION, query: 'upload failures retries on-call', cross_owner: false });
        expect(e.components).toMatchObject({ source: expect.any(String), cos: expect.any(Number), spread: expect.any(Number) });
      }
      const detail = await call(session, 'memory.get', { id: ids[1]! });
      expect(detail.memory.access_log.at(-1)).toMatchObject({ channel: 'recalled', reader_owner: OWNER, session_ref: SESSION });
      expect(detail.outgoing).toMatchObject([{ id: ids[2], type: 'causes' }]);
    } finally {
      session.close();
    }
  });

  it('browser mode shows those accesses in the audit view, attributed to the MCP reader', async () => {
    const wb = await openWorkbench(db);
    try {
      await wb.go(`/audit?channel=recalled&reader=${encodeURIComponent(OWNER)}`);
      await wb.page.waitForFunction(() => document.querySelector('[data-testid=audit-total]')?.getAttribute('data-total') === '3', undefined, { timeout: 15_000 });
      const rows = wb.page.locator('[data-testid=access-row][data-origin=audit]');
      expect(await rows.count()).toBe(3);
      for (const text of await rows.allInnerTexts()) {
        expect(text).toContain(OWNER);
        expect(text).toContain('upload failures retries on-call');
      }
      expect(new Set(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-memory-id'))))).toEqual(new Set(ids));
      expect(wb.pageErrors).toEqual([]);
    } finally {
      await wb.close();
    }
  });
});
