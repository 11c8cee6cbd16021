/**
 * tools/list with JSON Schema 2020-12 input schemas. MCP says a tool's inputSchema is JSON Schema
 * 2020-12 and that servers must keep its keywords (SEP-1613), but the SDK converts zod to draft-07
 * (`$schema` says draft-07, definitions instead of `$defs`). So mnemo answers tools/list itself,
 * converting each tool's zod object with zod's own 2020-12 converter; strict objects come out with
 * `additionalProperties: false`. Calls are untouched: the SDK still validates arguments against
 * the same zod objects.
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type Tool, type ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDef } from './tools.js';

export type ListedTool = Pick<ToolDef, 'name' | 'title' | 'description' | 'input' | 'readOnly'>;

export function toolAnnotations(def: ListedTool): ToolAnnotations {
  return { readOnlyHint: def.readOnly === true, destructiveHint: def.name === 'forget' || def.name === 'erase' || def.name === 'reflect', openWorldHint: false };
}

/** The input schema as tools/list shows it: what a client may send (defaults make fields optional). */
export function listedInputSchema(input: z.ZodObject): Tool['inputSchema'] {
  return z.toJSONSchema(input, { target: 'draft-2020-12', io: 'input' }) as Tool['inputSchema'];
}

export function listedTool(def: ListedTool): Tool {
  return { name: def.name, title: def.title, description: def.description, inputSchema: listedInputSchema(def.input), annotations: toolAnnotations(def) };
}

/**
 * Replaces the SDK's tools/list answer with one in 2020-12. Call it after the tools are registered
 * (the SDK installs its own handler on the first registration; this one takes its place).
 */
export function listToolsIn2020_12(server: McpServer, defs: readonly ListedTool[]): void {
  const tools = defs.map(listedTool);
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
}
