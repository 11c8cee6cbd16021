/**
 * Engine errors in words for people. The envelope's `code` (`bad_input`, `not_found`, …) is for
 * programs; the UI shows a short heading in plain words and the engine's message as a sentence,
 * never a `code:` prefix.
 */

const HEADINGS: Record<string, string> = {
  bad_input: 'That input was not accepted',
  not_found: 'Not found',
  schema: 'This file cannot be used as a memory store',
  permission: 'Not allowed',
  conflict: 'The store changed in the meantime',
  busy: 'The engine is busy or unreachable',
  unsupported: 'This store cannot do that yet',
  internal: 'Something went wrong inside the workbench',
};

export interface PeopleMessage {
  heading: string;
  sentence: string;
}

/** A leading `code:` that a message may carry from an older engine or a nested error. */
const CODE_PREFIX = /^\s*(?:bad_input|not_found|schema|permission|conflict|busy|unsupported|internal|error)\s*:\s*/i;

/** Capitalised, prefix-free, ending with a full stop. */
export function asSentence(message: string): string {
  let s = message.trim();
  while (CODE_PREFIX.test(s)) s = s.replace(CODE_PREFIX, '');
  if (!s) return '';
  s = s[0]!.toUpperCase() + s.slice(1);
  return /[.!?)"”]$/.test(s) ? s : `${s}.`;
}

/** Turns whatever a failed call threw (an ApiError, an envelope's error, an Error, a string) into words. */
export function describeError(error: unknown): PeopleMessage {
  const e = (error ?? {}) as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const raw = typeof e.message === 'string' ? e.message : typeof error === 'string' ? error : String(error);
  return { heading: HEADINGS[code] ?? 'Something went wrong', sentence: asSentence(raw) };
}

/** "1 memory", "2 memories", "1,024 edges": the count with the noun agreeing, numbers grouped. */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? singular : pluralForm}`;
}
