/**
 * The LLM endpoints a server may use for generative reflection, configured only where the operator
 * sits: a JSON config file (`--llm-config FILE` or MNEMO_LLM_CONFIG), the environment
 * (MNEMO_LLM_URL, MNEMO_LLM_MODEL, MNEMO_LLM_KEY; fallbacks OPENAI_BASE_URL, OPENAI_API_KEY) and CLI
 * flags. A request picks one of them by name and can never supply a URL or a key: otherwise any
 * caller of the API (a page over IPC, a browser-mode client) could have the server send its own key
 * and the store's memories to a host of the caller's choosing.
 *
 * Config file:
 *   { "default": "local",
 *     "endpoints": { "local": { "base_url": "http://127.0.0.1:8000/v1", "model": "qwen" },
 *                    "openai": { "base_url": "https://api.openai.com/v1", "model": "gpt-4o-mini", "api_key_env": "OPENAI_API_KEY" } } }
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { badInput } from '../errors.js';
import { describeIssues } from '../model/schemas.js';
import { endpointName } from './endpoint-name.js';
import type { LlmConfig } from './llm.js';

/** The name given to the endpoint built from the environment and CLI flags. */
export const ENV_ENDPOINT = 'default';
const DEFAULT_TIMEOUT_MS = 60_000;

const httpUrl = z
  .string()
  .url()
  .refine((u) => /^https?:$/.test(new URL(u).protocol), 'base_url must be http or https');

const configFile = z
  .object({
    default: endpointName.optional(),
    endpoints: z.record(
      endpointName,
      z
        .object({
          base_url: httpUrl,
          model: z.string().min(1).max(200),
          /** A key written in the file itself (prefer api_key_env). */
          api_key: z.string().min(1).optional(),
          /** The name of an environment variable holding the key, so the file holds no secret. */
          api_key_env: z.string().min(1).max(200).optional(),
          timeout_ms: z.number().int().min(1000).max(600_000).optional(),
        })
        .strict(),
    ),
  })
  .strict();

/** What a caller may learn about an endpoint: its name and model, never its URL or key. */
export interface EndpointSummary {
  name: string;
  model: string;
  default: boolean;
}

export class LlmEndpoints {
  private constructor(
    private readonly byName: ReadonlyMap<string, LlmConfig>,
    readonly defaultName: string | null,
  ) {}

  static none(): LlmEndpoints {
    return new LlmEndpoints(new Map(), null);
  }

  /** A fixed set; the default is the first unless named (null: a request must name one). */
  static of(endpoints: Record<string, LlmConfig>, defaultName?: string | null): LlmEndpoints {
    const names = Object.keys(endpoints);
    return new LlmEndpoints(new Map(Object.entries(endpoints)), defaultName === undefined ? (names[0] ?? null) : defaultName);
  }

  /** The endpoints as plain data (keys included), to build the same set in another thread of this process: LlmEndpoints.of(p.endpoints, p.default). */
  plain(): { endpoints: Record<string, LlmConfig>; default: string | null } {
    return { endpoints: Object.fromEntries(this.byName), default: this.defaultName };
  }

  summaries(): EndpointSummary[] {
    return [...this.byName].map(([name, cfg]) => ({ name, model: cfg.model, default: name === this.defaultName }));
  }

  /** The endpoint a request named (or the default); a typed error that lists the choices otherwise. */
  get(name: string | undefined, field = 'generative.endpoint'): LlmConfig {
    const chosen = name ?? this.defaultName;
    if (chosen === null) {
      throw badInput(
        'generative reflection needs an LLM endpoint configured on the server: set MNEMO_LLM_URL and MNEMO_LLM_MODEL, or start it with --llm-config FILE (or MNEMO_LLM_CONFIG); a request can only name one of those',
        { field },
      );
    }
    const cfg = this.byName.get(chosen);
    if (!cfg) {
      const known = [...this.byName.keys()];
      throw badInput(`no LLM endpoint named ${JSON.stringify(chosen)} is configured on this server; configured: ${known.length ? known.join(', ') : '(none)'}`, { field, known });
    }
    return cfg;
  }
}

export interface EndpointSources {
  env?: NodeJS.ProcessEnv;
  /** A config file path; defaults to MNEMO_LLM_CONFIG. */
  configPath?: string | undefined;
  /** CLI flags of the operator's own command (they override the environment). */
  flags?: { base_url?: string | undefined; model?: string | undefined };
}

function readConfig(path: string, env: NodeJS.ProcessEnv): { endpoints: Map<string, LlmConfig>; default: string | null } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw badInput(`cannot read the LLM config ${path}: ${(err as Error).message}`, { field: 'llm-config' });
  }
  const parsed = configFile.safeParse(raw);
  if (!parsed.success) throw badInput(`the LLM config ${path} is invalid: ${describeIssues(parsed.error)}`, { field: 'llm-config' });
  const endpoints = new Map<string, LlmConfig>();
  for (const [name, e] of Object.entries(parsed.data.endpoints)) {
    const key = e.api_key ?? (e.api_key_env ? env[e.api_key_env] : undefined) ?? null;
    endpoints.set(name, { base_url: e.base_url.replace(/\/+$/, ''), model: e.model, api_key: key || null, timeout_ms: e.timeout_ms ?? DEFAULT_TIMEOUT_MS });
  }
  const def = parsed.data.default ?? null;
  if (def !== null && !endpoints.has(def)) throw badInput(`the LLM config ${path} names default ${JSON.stringify(def)}, which is not one of its endpoints`, { field: 'llm-config' });
  return { endpoints, default: def };
}

function envEndpoint(src: EndpointSources, env: NodeJS.ProcessEnv): LlmConfig | null {
  const base = src.flags?.base_url ?? env['MNEMO_LLM_URL'] ?? env['OPENAI_BASE_URL'];
  const model = src.flags?.model ?? env['MNEMO_LLM_MODEL'];
  if (!base && !model) return null;
  if (!base) throw badInput('MNEMO_LLM_MODEL (or --llm-model) is set without an endpoint: set MNEMO_LLM_URL (or --llm-url) too', { field: 'llm-url' });
  if (!model) throw badInput('MNEMO_LLM_URL (or --llm-url) is set without a model: set MNEMO_LLM_MODEL (or --llm-model) too', { field: 'llm-model' });
  const url = httpUrl.safeParse(base);
  if (!url.success) throw badInput(`the LLM endpoint ${JSON.stringify(base)} is not an http(s) URL (expected e.g. http://127.0.0.1:8000/v1)`, { field: 'llm-url' });
  return { base_url: base.replace(/\/+$/, ''), model, api_key: env['MNEMO_LLM_KEY'] || env['OPENAI_API_KEY'] || null, timeout_ms: DEFAULT_TIMEOUT_MS };
}

/** Builds the server's endpoints from its config file, environment and flags; throws on a bad config. */
export function loadLlmEndpoints(src: EndpointSources = {}): LlmEndpoints {
  const env = src.env ?? process.env;
  const path = src.configPath ?? env['MNEMO_LLM_CONFIG'];
  const fromFile = path ? readConfig(path, env) : { endpoints: new Map<string, LlmConfig>(), default: null };
  const all = new Map(fromFile.endpoints);
  const fromEnv = envEndpoint(src, env);
  // The environment and flags are the operator's most direct say, so they win a name clash.
  if (fromEnv) all.set(ENV_ENDPOINT, fromEnv);
  const def = fromFile.default ?? (fromEnv ? ENV_ENDPOINT : all.size === 1 ? [...all.keys()][0]! : null);
  return LlmEndpoints.of(Object.fromEntries(all), def);
}
