/**
 * A store's redaction policy (model/redaction.ts) at the door of every write that carries text an
 * agent or an import supplies: memory.add and memory.update (the CLI, the workbench, the library),
 * the MCP tools remember and update_memory, imports, and belief observations. On by default for
 * the built-in secret patterns; the operator sees the patterns, adds their own, turns the optional
 * ones on, or turns the policy off, per store (`mnemo_meta`: `redaction_policy`). Every replacement
 * is counted per kind in `redaction_counts`, inside the change that writes it (an undo of the write
 * takes its count back with it). Only new writes are redacted: what a store already holds, and so
 * what recall returns from it, stays as it is (erasing is core/erase).
 *
 * An operator's own patterns run under RE2 (the re2-wasm package: Google's RE2 built to
 * WebAssembly, so it needs no native build in Node, Electron or a browser): RE2 matches in time
 * linear in the text whatever the pattern, so no pattern can make a write hang, which a
 * backtracking engine cannot promise for patterns nobody reviewed. A pattern RE2 cannot compile
 * (a look-around, a back-reference) is refused at the door, naming why.
 */
import { createRequire } from 'node:module';
import { badInput } from '../errors.js';
import type { AccessRecord, Memory, MemoryRef } from '../model/memory.js';
import {
  BUILT_IN_PATTERNS,
  compileBuiltIn,
  DEFAULT_REDACTION_POLICY,
  redactionPolicySchema,
  redactText,
  totalOf,
  type CompiledPattern,
  type CustomPattern,
  type RedactionCounts,
  type RedactionPolicy,
} from '../model/redaction.js';
import type { StoreReader, StoreWriter } from '../store/port/port.js';

export const REDACTION_POLICY_KEY = 'redaction_policy';
export const REDACTION_COUNTS_KEY = 'redaction_counts';

interface Re2Class {
  new (pattern: string, flags: string): { replace(text: string, replacer: () => string): string };
}

let re2: Re2Class | null = null;
/** RE2, loaded when a store first has a pattern of its own (its WebAssembly takes a moment to start). */
function loadRe2(): Re2Class {
  re2 ??= (createRequire(import.meta.url)('re2-wasm') as { RE2: Re2Class }).RE2;
  return re2;
}

/** An operator's pattern, compiled with RE2; a bad_input naming the pattern when RE2 refuses it. */
export function compileCustom(p: CustomPattern): CompiledPattern {
  let re: InstanceType<Re2Class>;
  try {
    re = new (loadRe2())(p.pattern, 'gu');
  } catch (err) {
    throw badInput(`pattern ${JSON.stringify(p.pattern)} (${p.kind}) cannot be used: ${(err as Error).message.replace(/^.*?: /, '')}. Patterns run under RE2: no look-around and no back-references`, {
      field: 'custom.pattern',
      kind: p.kind,
    });
  }
  return { kind: p.kind, replace: (text, replacer) => re.replace(text, replacer) };
}

/** The store's policy: its own, or the default (on, built-in secrets only). */
export function redactionPolicy(store: StoreReader): RedactionPolicy {
  const raw = store.getMeta(REDACTION_POLICY_KEY);
  if (raw === null) return DEFAULT_REDACTION_POLICY;
  try {
    const parsed = redactionPolicySchema.safeParse(JSON.parse(raw));
    if (parsed.success) return parsed.data;
  } catch {
    // fall through: an unreadable policy is the default, said once
  }
  store.warn('redaction-policy', `the store's redaction policy (mnemo_meta ${REDACTION_POLICY_KEY}) cannot be read; the default applies (built-in secret patterns on)`);
  return DEFAULT_REDACTION_POLICY;
}

const compiledByPolicy = new Map<string, CompiledPattern[]>();

/** The patterns a policy applies, in order: the built-in ones it has on, then its own. */
export function patternsOf(policy: RedactionPolicy): CompiledPattern[] {
  if (!policy.enabled) return [];
  const key = JSON.stringify(policy);
  let compiled = compiledByPolicy.get(key);
  if (!compiled) {
    compiled = [...BUILT_IN_PATTERNS.filter((p) => !p.optional || policy.optional.includes(p.kind)).map(compileBuiltIn), ...policy.custom.map(compileCustom)];
    // A few stores per process; a policy edited many times leaves old entries behind, so keep it small.
    if (compiledByPolicy.size > 64) compiledByPolicy.clear();
    compiledByPolicy.set(key, compiled);
  }
  return compiled;
}

/** What a write redacted: per kind, and in all; empty when nothing was. */
export interface Redacted {
  counts: RedactionCounts;
  total: number;
}

/** Text fields of a memory an agent or an import supplies (the ring's queries too: an import carries them). */
type RedactableFields = Partial<Pick<Memory, 'content' | 'title' | 'tags' | 'entities' | 'place_or_task' | 'source_task_ref' | 'chat_turn_ref' | 'related_files' | 'references' | 'access_log'>>;

/**
 * A copy of `fields` with every match of the store's policy replaced, and the counts. Fields that
 * are absent stay absent; nothing else is touched.
 */
export function redactFields<T extends RedactableFields>(store: StoreReader, fields: T): { fields: T; redacted: Redacted } {
  const patterns = patternsOf(redactionPolicy(store));
  const counts: RedactionCounts = {};
  if (patterns.length === 0) return { fields, redacted: { counts, total: 0 } };
  const text = (s: string) => redactText(s, patterns, counts);
  const maybe = (s: string | null | undefined) => (typeof s === 'string' ? text(s) : s);
  const out: T = { ...fields };
  if (fields.content !== undefined) out.content = text(fields.content);
  if (fields.title !== undefined) out.title = maybe(fields.title) ?? null;
  if (fields.place_or_task !== undefined) out.place_or_task = maybe(fields.place_or_task) ?? null;
  if (fields.source_task_ref !== undefined) out.source_task_ref = maybe(fields.source_task_ref) ?? null;
  if (fields.chat_turn_ref !== undefined) out.chat_turn_ref = maybe(fields.chat_turn_ref) ?? null;
  if (fields.tags) out.tags = fields.tags.map(text);
  if (fields.entities) out.entities = fields.entities.map(text);
  if (fields.related_files) out.related_files = fields.related_files.map(text);
  if (fields.references) out.references = fields.references.map((r: MemoryRef) => ({ ...r, key: text(r.key), preview: maybe(r.preview) ?? null }));
  if (fields.access_log) out.access_log = fields.access_log.map((a: AccessRecord) => (a.query === null ? a : { ...a, query: text(a.query) }));
  return { fields: out, redacted: { counts, total: totalOf(counts) } };
}

/** One text (a belief observation's value, evidence or source), with the counts added to `counts`. */
export function redactOne(store: StoreReader, s: string, counts: RedactionCounts): string {
  const patterns = patternsOf(redactionPolicy(store));
  return patterns.length ? redactText(s, patterns, counts) : s;
}

/** Adds a write's replacements to the store's count; call inside the change that writes them (it is journalled with it). */
export function recordRedactions(store: StoreWriter, counts: RedactionCounts): void {
  if (totalOf(counts) === 0) return;
  const now = redactionCounts(store);
  for (const [kind, n] of Object.entries(counts)) now[kind] = (now[kind] ?? 0) + n;
  store.journal.capture(`meta:${REDACTION_COUNTS_KEY}`);
  store.setMeta(REDACTION_COUNTS_KEY, JSON.stringify(now));
}

/** How many replacements the store's writes made, by kind. */
export function redactionCounts(store: StoreReader): RedactionCounts {
  const raw = store.getMeta(REDACTION_COUNTS_KEY);
  if (!raw) return {};
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (parsed && typeof parsed === 'object') return Object.fromEntries(Object.entries(parsed).filter(([, n]) => typeof n === 'number' && Number.isFinite(n))) as RedactionCounts;
  } catch {
    // an unreadable count starts again from nothing
  }
  return {};
}

/** Checks and stores a policy (every custom pattern compiled first: a bad one refuses the whole policy). */
export function setRedactionPolicy(store: StoreWriter, policy: RedactionPolicy): RedactionPolicy {
  const checked = redactionPolicySchema.parse(policy);
  const kinds = new Set<string>();
  for (const p of checked.custom) {
    if (kinds.has(p.kind)) throw badInput(`two patterns of kind ${JSON.stringify(p.kind)}; give each its own kind`, { field: 'custom.kind' });
    kinds.add(p.kind);
    compileCustom(p);
  }
  store.change(`redaction policy: ${checked.enabled ? 'on' : 'off'}`, 'store.redaction', () => {
    store.journal.capture(`meta:${REDACTION_POLICY_KEY}`);
    store.setMeta(REDACTION_POLICY_KEY, JSON.stringify(checked));
  });
  return checked;
}
