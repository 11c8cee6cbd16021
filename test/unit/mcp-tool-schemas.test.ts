/**
 * tools/list shows JSON Schema 2020-12 (SEP-1613: `$schema`, `$defs` and `additionalProperties`
 * survive), while the SDK keeps validating arguments against the same zod objects; the conformance
 * suite's fixture tool is listed only when asked for.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { McpServerOptions } from '../../cli/mcp/server.js';
import { JSON_SCHEMA_FIXTURE_TOOL } from '../../cli/mcp/conformance-fixtures.js';
import { agentOn, freshStorePath } from '../helpers/agents.js';
import { connectInProcess, dataOf, textOf, type McpHandle } from '../helpers/mcp.js';

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function connect(options: McpServerOptions = {}): Promise<McpHandle> {
  const agent = agentOn(freshStorePath(), 'alice@1');
  const mcp = await connectInProcess(agent, options);
  cleanup.push(() => agent.close(), () => mcp.close());
  return mcp;
}

describe('MCP tool schemas in JSON Schema 2020-12', () => {
  it('remember is listed with $schema 2020-12, additionalProperties false, and its fields', async () => {
    const mcp = await connect();
    const { tools } = await mcp.client.listTools();
    const remember = tools.find((t) => t.name === 'remember')!;
    expect(remember.inputSchema).toMatchObject({
      $schema: DRAFT_2020_12,
      type: 'object',
      required: ['content'],
      additionalProperties: false,
      properties: { content: { type: 'string', minLength: 1 }, importance: { default: 'MEDIUM' } },
    });
    expect(remember.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(tools.find((t) => t.name === 'forget')!.annotations).toMatchObject({ destructiveHint: true });
    for (const t of tools) expect(t.inputSchema, t.name).toMatchObject({ $schema: DRAFT_2020_12, additionalProperties: false });
  });

  it('arguments are still validated by the SDK: an unknown field is refused, a good call works', async () => {
    const mcp = await connect();
    const refused = await mcp.call('remember', { content: 'x', colour: 'blue' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/colour/);
    expect(dataOf(await mcp.call('remember', { content: 'the ferry leaves at nine' }))).toMatchObject({ reinforced: false });
  });

  it('the conformance fixture tool is not listed by default, and cannot be called', async () => {
    const mcp = await connect();
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).not.toContain(JSON_SCHEMA_FIXTURE_TOOL);
    const r = await mcp.call(JSON_SCHEMA_FIXTURE_TOOL, { name: 'x' });
    expect(r.isError).toBe(true);
  });

  it('with conformanceFixtures, the fixture lists $defs.address by $ref and echoes its arguments', async () => {
    const mcp = await connect({ conformanceFixtures: true });
    const { tools } = await mcp.client.listTools();
    const fixture = tools.find((t) => t.name === JSON_SCHEMA_FIXTURE_TOOL)!;
    expect(fixture.inputSchema).toMatchObject({
      $schema: DRAFT_2020_12,
      additionalProperties: false,
      properties: { address: { $ref: '#/$defs/address' } },
      $defs: { address: { type: 'object', additionalProperties: false, required: ['street', 'city'] } },
    });
    const args = { name: 'Ada', address: { street: '1 Quay Road', city: 'Dover' } };
    expect(dataOf(await mcp.call(JSON_SCHEMA_FIXTURE_TOOL, args))).toEqual({ received: args });
    expect((await mcp.call(JSON_SCHEMA_FIXTURE_TOOL, { name: 'Ada', address: { street: 'x', city: 'y', planet: 'z' } })).isError).toBe(true);
  });
});
