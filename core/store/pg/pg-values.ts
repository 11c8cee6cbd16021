/**
 * Values between a copy's rows and PostgreSQL, exactly. Parameters go as text in arrays (one array
 * per column, unnested by the INSERT), written here rather than by `pg`, because `pg` writes a
 * number with `String(n)`, which turns −0 into "0"; integers go as decimal text so 64 bits survive;
 * blobs as bytea's hex form. Results come back from `pg` as text for bigint (decimal), a number
 * for double precision (parsed from PostgreSQL's shortest exact text) and bytes for bytea.
 */
import { MnemoError } from '../../errors.js';
import type { StorageClass } from '../copy/store-tables.js';
import type { CopyValue } from '../copy/copy-endpoint.js';

/** One value as PostgreSQL's text input for its column type (null stays null). */
export function toPgText(value: CopyValue, cls: StorageClass): string | null {
  if (value === null) return null;
  switch (cls) {
    case 'integer':
      return (value as bigint).toString();
    case 'real':
      return Object.is(value, -0) ? '-0' : String(value as number);
    case 'text':
      return value as string;
    case 'blob':
      return `\\x${Buffer.from(value as Uint8Array).toString('hex')}`;
  }
}

/** One value read from PostgreSQL, in the copy's type for its storage class. */
export function fromPg(value: unknown, cls: StorageClass, where: string): CopyValue {
  if (value === null || value === undefined) return null;
  if (cls === 'integer' && (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint')) return BigInt(value);
  if (cls === 'real' && typeof value === 'number') return value;
  if (cls === 'text' && typeof value === 'string') return value;
  if (cls === 'blob' && value instanceof Uint8Array) return value;
  throw new MnemoError('internal', `PostgreSQL returned ${typeof value} for ${where}, a ${cls} column`);
}

/** The array type an unnest parameter is cast to, per storage class. */
export const PG_ARRAY_TYPES: Record<StorageClass, string> = {
  integer: 'bigint[]',
  real: 'double precision[]',
  text: 'text[]',
  blob: 'bytea[]',
};
