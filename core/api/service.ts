/**
 * The service every door calls: `invoke(method, input)` validates the input with the method's zod
 * schema, runs the handler, and returns a result envelope. No stack trace ever leaves here.
 */
import { toErrorShape } from '../errors.js';
import { describeIssues } from '../model/schemas.js';
import { jsonShapeProblem, LIMITS } from '../model/limits.js';
import { runAttributed } from '../store/port/attribution.js';
import type { ApiSession } from './context.js';
import { assertMethodAllowed } from './credential-policy.js';
import { contract, isMethodName, METHOD_NAMES, type MethodName, type OutputOf } from './contract/index.js';
import type { Envelope } from './define.js';
import { handlerOf } from './handlers/load.js';

export async function invoke(session: ApiSession, method: string, input: unknown): Promise<Envelope<unknown>> {
  if (typeof method !== 'string' || !isMethodName(method)) {
    return { ok: false, error: { code: 'bad_input', message: `unknown method ${JSON.stringify(method)}; known methods: ${METHOD_NAMES.join(', ')}` } };
  }
  const spec = contract[method];
  // Depth first, without recursion: zod walks inputs recursively, and a value nested a few thousand
  // deep would overflow its stack. Sizes stay with each method's schema (a reflection plan is large).
  const shape = jsonShapeProblem(input, { maxDepth: LIMITS.maxDepth, maxObjectKeys: Infinity, maxArrayItems: Infinity });
  if (shape) return { ok: false, error: { code: 'bad_input', message: `invalid input for ${method}: ${shape}` } };
  const parsed = spec.input.safeParse(input ?? {});
  if (!parsed.success) {
    // The issues also travel structured, so a form can show each message at its field.
    const issues = parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
    return { ok: false, error: { code: 'bad_input', message: `invalid input for ${method}: ${describeIssues(parsed.error)}`, details: { issues } } };
  }
  session.requestStarted();
  try {
    assertMethodAllowed(session.credential, method);
    const found = handlerOf(method);
    const handler = typeof found === 'function' ? found : await found;
    // Accesses and changes this call writes record the session's credential (core/store/port/attribution.ts).
    const value = await runAttributed(session.credential?.id ?? null, () => handler(parsed.data, session));
    return { ok: true, value: value === undefined ? null : value };
  } catch (err) {
    return { ok: false, error: toErrorShape(err) };
  } finally {
    session.requestEnded();
  }
}

/** What else `call` can go through: a door that runs the service elsewhere (an engine host, core/host/engine-host.ts). */
export interface Invoker {
  invoke(method: string, input: unknown): Promise<Envelope<unknown>>;
}

/** Typed convenience for in-process callers (CLI, tests) and hosts: throws the typed error instead of returning it. */
export async function call<M extends MethodName>(target: ApiSession | Invoker, method: M, input: unknown): Promise<OutputOf<M>> {
  const res = 'invoke' in target ? await target.invoke(method, input) : await invoke(target, method, input);
  if (!res.ok) {
    const { MnemoError } = await import('../errors.js');
    throw new MnemoError(res.error.code as never, res.error.message, res.error.details);
  }
  return res.value as OutputOf<M>;
}
