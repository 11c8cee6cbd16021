/**
 * Tools that exist only for the official MCP conformance suite (`mnemo mcp --http
 * --conformance-fixtures`, loopback and --anonymous only). The suite's json-schema-2020-12 scenario
 * looks for a tool of its own name and checks that its listed input schema keeps 2020-12 keywords
 * (`$schema`, `$defs`, `additionalProperties`). mnemo's memory tools already list in 2020-12, but
 * none has a `$defs`; this fixture is what the scenario can inspect. It touches no memory: it
 * echoes its arguments.
 */
import { z } from 'zod';
import type { ToolDef } from './tools.js';

export const JSON_SCHEMA_FIXTURE_TOOL = 'json_schema_2020_12_tool';

// The id puts the address schema under `$defs` and refers to it with `$ref` in the listing.
const postalAddress = z
  .object({
    street: z.string().max(500),
    city: z.string().max(200),
    postcode: z.string().max(20).optional(),
  })
  .strict()
  .meta({ id: 'address', description: 'a postal address' });

const fixtureTool: ToolDef = {
  name: JSON_SCHEMA_FIXTURE_TOOL,
  title: 'JSON Schema 2020-12 fixture',
  description: 'Conformance fixture: echoes a name and an address. Its input schema uses $defs and additionalProperties: false.',
  readOnly: true,
  input: z.object({ name: z.string().max(200), address: postalAddress.optional() }).strict(),
  run: (_agent, args: unknown) => ({ text: `received ${JSON.stringify(args)}`, data: { received: args } }),
};

export const CONFORMANCE_FIXTURE_TOOLS: readonly ToolDef[] = [fixtureTool];
