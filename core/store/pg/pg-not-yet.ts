/**
 * What the PostgreSQL adapter does not do yet (issue #17 is built in slices): each such method of
 * the port throws a typed `unsupported` error naming itself, never an answer that is silently
 * wrong (an empty list, a null position) that the engine would take at its word.
 */
import { MnemoError } from '../../errors.js';

/** The error a port method not yet implemented on PostgreSQL throws. */
export function notOnPostgresYet(method: string): MnemoError {
  return new MnemoError('unsupported', `${method} is not implemented on PostgreSQL yet; use a SQLite store for it (mnemo copy moves a store between the two)`, {
    method,
    backend: 'postgres',
  });
}

/**
 * A whole group of port methods that all throw `notOnPostgresYet`. The names are given as a record
 * over the group's keys, so the compiler checks the list is the group's, complete and no more.
 */
export function notYetGroup<T extends object>(group: string, methods: Record<keyof T, true>): T {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(methods)) {
    out[name] = () => {
      throw notOnPostgresYet(`${group}.${name}`);
    };
  }
  return out as T;
}
