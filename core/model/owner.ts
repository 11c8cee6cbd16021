/**
 * Owners are hierarchical `role[@instance]` strings; `""` is the unowned/shared writer.
 * Scopes decide visibility: null (everyone), a bare role (every instance of it plus legacy
 * bare-role rows), or an exact instance. Unowned rows are visible to every scope.
 */
import { badInput } from '../errors.js';

export type OwnerScope = string | null;

const FORBIDDEN = /[@%_]/;

export function roleOf(owner: string): string {
  const at = owner.indexOf('@');
  return at < 0 ? owner : owner.slice(0, at);
}

/** Returns a reason when `owner` is not a valid writer identity, else null. `""` is valid (unowned). */
export function ownerProblem(owner: string): string | null {
  if (owner === '') return null;
  const at = owner.indexOf('@');
  const role = at < 0 ? owner : owner.slice(0, at);
  const instance = at < 0 ? '' : owner.slice(at + 1);
  if (role === '') return 'must start with a role name';
  if (FORBIDDEN.test(role) || FORBIDDEN.test(instance)) return "must not contain '@', '%', or '_' inside the role or instance";
  if (at >= 0 && instance === '') return 'has an empty instance after "@"';
  if (/\s/.test(owner)) return 'must not contain whitespace';
  return null;
}

export function validateOwner(owner: string, field = 'owner'): string {
  const problem = ownerProblem(owner);
  if (problem) throw badInput(`${field} ${JSON.stringify(owner)} ${problem} (use "role" or "role@instance")`, { field });
  return owner;
}

/**
 * Parses a user-facing scope: absent or `*` means no filter, `role` a role scope,
 * `role@inst` an instance scope. Anything else is a clear error.
 */
export function parseOwnerScope(scope: string | null | undefined, field = 'owner'): OwnerScope {
  if (scope === undefined || scope === null || scope === '*') return null;
  if (scope === '') throw badInput(`${field} scope is empty; use "*", "role" or "role@instance"`, { field });
  const problem = ownerProblem(scope);
  if (problem) throw badInput(`${field} scope ${JSON.stringify(scope)} ${problem}; use "*", "role" or "role@instance"`, { field });
  return scope;
}

/**
 * Whether a row is visible in a scope. THE owner comparison: exact and case-sensitive, so `CODER@9`
 * is another role than `coder`. nooa's Python `owner_matches` compares exactly, but its SQL
 * candidate clause used `LIKE 'role@%'`, which SQLite applies ASCII case-insensitively; one rule
 * everywhere (SQL candidates, spread, deref, writes, reflection) means no door can disagree.
 * The SQL form is core/store/shared/owner-sql.ts.
 */
export function ownerMatches(rowOwner: string, scope: OwnerScope): boolean {
  if (scope === null) return true;
  if (rowOwner === '') return true;
  if (scope.includes('@')) return rowOwner === scope;
  return roleOf(rowOwner) === scope;
}

/** nooa's write rule (`_assert_writable`): unowned memories are writable by everyone, owned ones by the same role (exactly, as ownerMatches). */
export function ownerMayWrite(rowOwner: string, actorOwner: string): boolean {
  return rowOwner === '' || roleOf(rowOwner) === roleOf(actorOwner);
}

/** Reads from another role than the reader's own. Unowned rows and anonymous readers never count. */
export function isCrossOwner(readerOwner: string, rowOwner: string): boolean {
  return readerOwner !== '' && rowOwner !== '' && roleOf(readerOwner) !== roleOf(rowOwner);
}

/**
 * The owner fields of a memory-list filter (the store's ListFilter) for a scope: `""` selects
 * unowned rows exactly, null every owner.
 */
export function scopeFilter(scope: OwnerScope): { owner?: string; owners?: string[] } {
  if (scope === null) return {};
  if (scope === '') return { owners: [''] };
  return { owner: scope };
}
