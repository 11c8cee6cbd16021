/**
 * Opt-in embedder for real models behind an OpenAI-compatible `/embeddings` endpoint (OpenAI,
 * vLLM, Ollama, LiteLLM, NIM …). Nothing is downloaded: the model runs wherever the endpoint is.
 * Vectors are L2-normalised like nooa's litellm backend, so cosine is a dot product.
 */
import { z } from 'zod';
import { MnemoError } from '../errors.js';
import { normalizeF32, type Embedder } from './embedder.js';

export interface OpenAIEmbedderOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Expected dimension; when set it is sent as `dimensions` and checked on every reply. */
  dim: number;
  batchSize?: number;
  timeoutMs?: number;
}

const replySchema = z.object({
  data: z.array(z.object({ index: z.number().int(), embedding: z.array(z.number()) })),
});

export class OpenAIEmbedder implements Embedder {
  readonly name: string;
  readonly dim: number;
  private readonly opts: Required<Omit<OpenAIEmbedderOptions, 'apiKey'>> & { apiKey?: string };

  constructor(opts: OpenAIEmbedderOptions) {
    this.opts = { batchSize: 64, timeoutMs: 60_000, ...opts };
    this.dim = opts.dim;
    this.name = `openai:${opts.model}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.opts.batchSize) out.push(...(await this.batch(texts.slice(i, i + this.opts.batchSize))));
    return out;
  }

  private async batch(texts: string[]): Promise<Float32Array[]> {
    const url = `${this.opts.baseUrl.replace(/\/+$/, '')}/embeddings`;
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}) },
        body: JSON.stringify({ model: this.opts.model, input: texts, dimensions: this.dim }),
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
    } catch (err) {
      throw new MnemoError('internal', `embedding endpoint ${url} is unreachable: ${(err as Error).message}`);
    }
    if (!res.ok) throw new MnemoError('internal', `embedding endpoint ${url} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    const parsed = replySchema.safeParse(await res.json().catch(() => null));
    if (!parsed.success) throw new MnemoError('internal', `embedding endpoint ${url} sent a reply without data[].embedding`);
    const vectors: Float32Array[] = new Array(texts.length);
    for (const item of parsed.data.data) {
      if (item.embedding.length !== this.dim) {
        throw new MnemoError('bad_input', `embedding endpoint returned ${item.embedding.length} dimensions, but the store uses ${this.dim}; set the matching dimension`);
      }
      vectors[item.index] = normalizeF32(Float32Array.from(item.embedding));
    }
    if (vectors.some((v) => v === undefined)) throw new MnemoError('internal', `embedding endpoint ${url} skipped some inputs`);
    return vectors;
  }
}

/** Reads `MNEMO_EMBED_URL`, `MNEMO_EMBED_MODEL`, `MNEMO_EMBED_KEY`, `MNEMO_EMBED_DIM`; null when unset. */
export function embedderFromEnv(env: NodeJS.ProcessEnv = process.env): OpenAIEmbedder | null {
  const baseUrl = env['MNEMO_EMBED_URL'];
  if (!baseUrl) return null;
  const model = env['MNEMO_EMBED_MODEL'];
  const dim = Number(env['MNEMO_EMBED_DIM']);
  if (!model || !Number.isInteger(dim) || dim <= 0) {
    throw new MnemoError('bad_input', 'MNEMO_EMBED_URL is set, so MNEMO_EMBED_MODEL and MNEMO_EMBED_DIM (a positive integer) must be set too');
  }
  return new OpenAIEmbedder({ baseUrl, model, dim, ...(env['MNEMO_EMBED_KEY'] ? { apiKey: env['MNEMO_EMBED_KEY'] } : {}) });
}
