/**
 * A minimal OpenAI-compatible chat client for the generative reflection ops. Base URL, model and
 * key come from the call's options or the environment (MNEMO_LLM_BASE_URL, MNEMO_LLM_MODEL,
 * MNEMO_LLM_API_KEY; OPENAI_BASE_URL / OPENAI_API_KEY as fallbacks). The key is never written
 * into a plan. Uses the fetch that ships with Node, so no client library is needed.
 */
import { badInput, MnemoError } from '../errors.js';

export interface LlmConfig {
  base_url: string;
  model: string;
  api_key: string | null;
  timeout_ms: number;
}

export interface LlmConfigInput {
  base_url?: string | undefined;
  model?: string | undefined;
  api_key?: string | undefined;
  timeout_ms?: number | undefined;
}

export function resolveLlmConfig(input: LlmConfigInput = {}, env: NodeJS.ProcessEnv = process.env): LlmConfig {
  const base = input.base_url ?? env['MNEMO_LLM_BASE_URL'] ?? env['OPENAI_BASE_URL'];
  const model = input.model ?? env['MNEMO_LLM_MODEL'];
  if (!base) throw badInput('generative reflection needs an OpenAI-compatible endpoint: pass base_url or set MNEMO_LLM_BASE_URL', { field: 'base_url' });
  if (!model) throw badInput('generative reflection needs a model name: pass model or set MNEMO_LLM_MODEL', { field: 'model' });
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw badInput(`base_url ${JSON.stringify(base)} is not a URL (expected e.g. http://127.0.0.1:8000/v1)`, { field: 'base_url' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badInput(`base_url must be http or https, got ${url.protocol}`, { field: 'base_url' });
  return {
    base_url: base.replace(/\/+$/, ''),
    model,
    api_key: input.api_key ?? env['MNEMO_LLM_API_KEY'] ?? env['OPENAI_API_KEY'] ?? null,
    timeout_ms: input.timeout_ms ?? 60_000,
  };
}

export interface ChatResult {
  content: string;
  prompt_tokens: number;
  completion_tokens: number;
}

/** One chat completion with a single user message; throws on transport or protocol failure. */
export async function chatOnce(cfg: LlmConfig, prompt: string): Promise<ChatResult> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (cfg.api_key) headers['authorization'] = `Bearer ${cfg.api_key}`;
  const res = await fetch(`${cfg.base_url}/chat/completions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ model: cfg.model, messages: [{ role: 'user', content: prompt }], temperature: 0 }),
    signal: AbortSignal.timeout(cfg.timeout_ms),
  });
  const text = await res.text();
  if (!res.ok) throw new MnemoError('internal', `the model endpoint answered HTTP ${res.status}: ${text.slice(0, 200)}`);
  let body: { choices?: { message?: { content?: unknown } }[]; usage?: { prompt_tokens?: number; completion_tokens?: number } };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new MnemoError('internal', `the model endpoint did not return JSON: ${text.slice(0, 200)}`);
  }
  const content = body.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new MnemoError('internal', 'the model endpoint returned no message content');
  return {
    content,
    prompt_tokens: body.usage?.prompt_tokens ?? Math.ceil(prompt.length / 4),
    completion_tokens: body.usage?.completion_tokens ?? Math.ceil(content.length / 4),
  };
}

/** The reference's `_extract_json`: from the first `{` to the last `}`; throws when there is none. */
export function extractJson(text: string): unknown {
  const a = text.indexOf('{');
  const b = text.lastIndexOf('}');
  if (a < 0 || b <= a) throw new Error('no JSON object in the reply');
  return JSON.parse(text.slice(a, b + 1)) as unknown;
}
