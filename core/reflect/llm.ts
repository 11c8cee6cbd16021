/**
 * A minimal OpenAI-compatible chat client for the generative reflection ops. Which endpoint, model
 * and key it talks to is decided only on the server side (see llm-endpoints.ts): a request names a
 * configured endpoint and nothing else, so a caller can never send the server's key or the store's
 * memories to a URL of its choosing. The key is never written into a plan. Uses the fetch that
 * ships with Node, so no client library is needed.
 */
import { MnemoError } from '../errors.js';

export interface LlmConfig {
  base_url: string;
  model: string;
  api_key: string | null;
  timeout_ms: number;
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
