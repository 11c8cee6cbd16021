/**
 * Issue 13 item 3: generative reflection talks only to LLM endpoints configured on the server
 * side. A request (API, HTTP, Electron IPC) that names a `base_url`, `api_key` or `model` is
 * refused before anything is sent, so the server's key and the store's memories never reach a host
 * the caller chose; a request may only pick a configured endpoint by name.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { invoke } from '../../core/api/service.js';
import { LlmEndpoints, loadLlmEndpoints } from '../../core/reflect/llm-endpoints.js';
import { handleInvoke } from '../../electron/ipc.js';
import { inProcessDoor } from '../helpers/in-process-door.js';
import { runCli } from '../helpers/cli.js';
import { expected, fixtureCopy, tempDir } from '../../support/fixture.js';

// The IPC adapter is exercised with electron mocked, as the shell's own tests do (it only needs types).
vi.mock('electron', () => ({}));

const NOW: number = expected().now;
const SECRET = 'sk-test-server-secret';
const ourFrame = { senderFrame: { url: 'app://mnemo/index.html#/reflection', parent: null } } as never;

/** A fake OpenAI-compatible endpoint that records every request it gets. */
let fake: Server;
let fakeUrl = '';
const seen: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];
beforeAll(async () => {
  fake = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, body });
      const content = '{"insights": []}';
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    });
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  fakeUrl = `http://127.0.0.1:${(fake.address() as { port: number }).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((r) => fake.close(() => r()));
});

const LLM_VARS = ['MNEMO_LLM_URL', 'MNEMO_LLM_MODEL', 'MNEMO_LLM_KEY', 'MNEMO_LLM_CONFIG', 'OPENAI_BASE_URL', 'OPENAI_API_KEY'];
let savedEnv: Record<string, string | undefined> = {};
beforeEach(() => {
  seen.length = 0;
  savedEnv = Object.fromEntries(LLM_VARS.map((k) => [k, process.env[k]]));
  for (const k of LLM_VARS) delete process.env[k];
  // The server has a key of its own in its environment, as in the report.
  process.env['OPENAI_API_KEY'] = SECRET;
});
afterEach(() => {
  for (const k of LLM_VARS) {
    if (savedEnv[k] === undefined) delete process.env[k];
    else process.env[k] = savedEnv[k];
  }
});

function sessionOn(opts: ConstructorParameters<typeof ApiSession>[0] = {}): ApiSession {
  const s = ApiSession.withFrozenClock(NOW, opts);
  s.open(fixtureCopy(), { readonly: true });
  return s;
}

const abstractPlan = (generative: Record<string, unknown>) => ({ generative: { ops: ['abstract'], max_calls: 1, ...generative } });

describe('a request cannot choose where generative reflection sends data', () => {
  it('refuses generative.base_url with a typed bad_input naming the field and the fix; the endpoint it named sees nothing', async () => {
    const session = sessionOn();
    try {
      const r = await invoke(session, 'reflect.plan', abstractPlan({ base_url: fakeUrl, model: 'stub' }));
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.code).toBe('bad_input');
      expect(r.error.message).toMatch(/generative\.base_url is not accepted/);
      expect(r.error.message).toMatch(/generative\.endpoint/);
      expect((r.error.details?.['issues'] as { path: string }[]).map((i) => i.path)).toContain('generative.base_url');
      expect(seen).toHaveLength(0);
    } finally {
      session.close();
    }
  });

  it('refuses generative.api_key and generative.model the same way (review.plan too)', async () => {
    const session = sessionOn();
    try {
      for (const [method, extra, field] of [
        ['reflect.plan', { api_key: 'sk-caller' }, 'api_key'],
        ['review.plan', { model: 'gpt-x' }, 'model'],
        ['review.plan', { base_url: fakeUrl }, 'base_url'],
      ] as const) {
        const r = await invoke(session, method, abstractPlan(extra));
        expect(r).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringContaining(`generative.${field} is not accepted`) } });
      }
      expect(seen).toHaveLength(0);
    } finally {
      session.close();
    }
  });

  it('over Electron IPC (electron mocked): the page cannot point the engine at its own URL', async () => {
    const session = sessionOn();
    const door = inProcessDoor(session);
    try {
      const r = await handleInvoke(ourFrame, 'review.plan', abstractPlan({ base_url: fakeUrl, model: 'stub' }), { door: () => door });
      expect(r).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringContaining('generative.base_url is not accepted') } });
      expect(seen).toHaveLength(0);
    } finally {
      door.close();
      session.close();
    }
  });

  it('over HTTP (browser mode): refused with the same envelope, nothing sent', async () => {
    const { serveStore } = await import('../../cli/commands/serve.js');
    const { TOKEN_HEADER } = await import('../../server/security.js');
    const { server, session } = await serveStore({ now: NOW, io: { out: () => undefined, err: () => undefined } }, fixtureCopy(), { dir: tempDir() });
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/api/reflect.plan`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [TOKEN_HEADER]: server.token, host: `127.0.0.1:${server.port}` },
        body: JSON.stringify(abstractPlan({ base_url: fakeUrl, model: 'stub' })),
      });
      const body = (await res.json()) as { ok: boolean; error?: { code: string; message: string } };
      expect(body).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringContaining('generative.base_url is not accepted') } });
      expect(seen).toHaveLength(0);
    } finally {
      await server.close();
      session.close();
    }
  });
});

describe('configured endpoints, picked by name', () => {
  it('sends to the configured endpoint with its own key; the OPENAI_API_KEY goes only where the operator pointed it', async () => {
    const llmEndpoints = LlmEndpoints.of({ local: { base_url: fakeUrl, model: 'stub', api_key: 'sk-local', timeout_ms: 10_000 } });
    const session = sessionOn({ llmEndpoints });
    try {
      const r = await invoke(session, 'reflect.plan', abstractPlan({ endpoint: 'local', max_calls: 1 }));
      expect(r.ok).toBe(true);
      expect(seen.length).toBeGreaterThan(0);
      for (const s of seen) {
        expect(s.url).toBe('/v1/chat/completions');
        expect(s.headers['authorization']).toBe('Bearer sk-local');
        expect(JSON.stringify(s)).not.toContain(SECRET);
      }
    } finally {
      session.close();
    }
  });

  it('an unknown endpoint name is a bad_input that lists the configured names; none configured says how to configure one', async () => {
    const llmEndpoints = LlmEndpoints.of({ local: { base_url: fakeUrl, model: 'stub', api_key: null, timeout_ms: 10_000 } });
    const session = sessionOn({ llmEndpoints });
    const bare = sessionOn({ llmEndpoints: LlmEndpoints.none() });
    try {
      const r = await invoke(session, 'reflect.plan', abstractPlan({ endpoint: 'elsewhere' }));
      expect(r).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringMatching(/no LLM endpoint named "elsewhere".*configured: local/), details: { field: 'generative.endpoint' } } });
      const n = await invoke(bare, 'reflect.plan', abstractPlan({}));
      expect(n).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringMatching(/configured on the server.*MNEMO_LLM_URL.*--llm-config/) } });
      expect(seen).toHaveLength(0);
    } finally {
      session.close();
      bare.close();
    }
  });

  it('reflect.endpoints lists names and models, never a URL or a key', async () => {
    const llmEndpoints = LlmEndpoints.of({ local: { base_url: fakeUrl, model: 'stub', api_key: 'sk-local', timeout_ms: 10_000 }, big: { base_url: 'https://llm.example/v1', model: 'large', api_key: SECRET, timeout_ms: 10_000 } }, 'big');
    const session = sessionOn({ llmEndpoints });
    try {
      const r = await invoke(session, 'reflect.endpoints', {});
      expect(r).toEqual({ ok: true, value: { endpoints: [{ name: 'local', model: 'stub', default: false }, { name: 'big', model: 'large', default: true }] } });
      expect(JSON.stringify(r)).not.toMatch(/sk-|http/);
    } finally {
      session.close();
    }
  });

  it('loads endpoints from a config file (key from a named variable) and from MNEMO_LLM_*; refuses a bad file', () => {
    const dir = tempDir();
    const file = join(dir, 'llm.json');
    writeFileSync(file, JSON.stringify({ default: 'a', endpoints: { a: { base_url: `${fakeUrl}/`, model: 'm-a', api_key_env: 'MY_KEY' }, b: { base_url: fakeUrl, model: 'm-b' } } }));
    const fromFile = loadLlmEndpoints({ env: { MY_KEY: 'sk-from-var' }, configPath: file });
    expect(fromFile.get(undefined)).toEqual({ base_url: fakeUrl, model: 'm-a', api_key: 'sk-from-var', timeout_ms: 60_000 });
    expect(fromFile.get('b').api_key).toBeNull();
    const fromEnv = loadLlmEndpoints({ env: { MNEMO_LLM_URL: fakeUrl, MNEMO_LLM_MODEL: 'm', MNEMO_LLM_KEY: 'sk-env' } });
    expect(fromEnv.summaries()).toEqual([{ name: 'default', model: 'm', default: true }]);
    expect(fromEnv.get(undefined).api_key).toBe('sk-env');
    writeFileSync(file, JSON.stringify({ endpoints: { a: { base_url: 'file:///etc/passwd', model: 'm' } } }));
    expect(() => loadLlmEndpoints({ env: {}, configPath: file })).toThrow(/invalid/);
    expect(() => loadLlmEndpoints({ env: { MNEMO_LLM_URL: 'ftp://x', MNEMO_LLM_MODEL: 'm' } })).toThrow(/http/);
  });

  it('the CLI: --llm-url/--llm-model are the operator configuring its own side, and still work', async () => {
    const r = await runCli(['reflect', fixtureCopy(), '--dry-run', '--json', '--generative', 'abstract', '--llm-url', fakeUrl, '--llm-model', 'stub', '--now', String(NOW)]);
    expect(r.code, r.stderr).toBe(0);
    expect(seen.length).toBeGreaterThan(0);
    // The server's OPENAI_API_KEY goes to the operator's endpoint (its own configuration), never to a request's.
    expect(seen[0]!.headers['authorization']).toBe(`Bearer ${SECRET}`);
  });
});
