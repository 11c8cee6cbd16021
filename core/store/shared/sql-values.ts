/**
 * Values as the shared queries read them back, whichever backend answered. PostgreSQL's `pg` gives a
 * bigint (a count, a rowid, a sum) as decimal text where SQLite gives a number; the engine works on
 * numbers, and a value past 2^53 would lose digits, so it is refused rather than rounded.
 */
import { MnemoError } from '../../errors.js';

export function intOf(value: unknown, where: string): number {
  const n = typeof value === 'string' ? Number(value) : typeof value === 'bigint' ? Number(value) : value;
  if (typeof n === 'number' && Number.isSafeInteger(n)) return n;
  throw new MnemoError('internal', `the store returned ${JSON.stringify(String(value)).slice(0, 40)} for ${where}, which is not an integer a number holds exactly`);
}

/** The same, keeping null. */
export function intOrNull(value: unknown, where: string): number | null {
  return value === null || value === undefined ? null : intOf(value, where);
}
