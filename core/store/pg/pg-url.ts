/**
 * A PostgreSQL store is named by a URL: `postgres://user@host/db?schema=name` (or `postgresql://`;
 * a Unix socket as `?host=/dir`). One schema holds one store. The schema name is checked here, so
 * every SQL statement can quote it as an identifier and no name reaches the server unchecked.
 */
import { z } from 'zod';
import { badInput } from '../../errors.js';

/** Lower-case letters, digits and `_`, starting with a letter, at most 63 bytes (PostgreSQL's NAMEDATALEN − 1); not `pg_…`, which PostgreSQL reserves. */
const SCHEMA_NAME = z
  .string()
  .min(1)
  .max(63)
  .regex(/^[a-z][a-z0-9_]*$/, 'use lower-case letters, digits and _, starting with a letter')
  .refine((s) => !s.startsWith('pg_'), 'names starting with pg_ are reserved by PostgreSQL');

const PG_URL = z.string().max(2048).regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://');

export interface PgStoreUrl {
  /** What `pg` connects with: the URL without `schema`. */
  connection: string;
  /** The store's schema. */
  schema: string;
  /** The URL as given, its password replaced by `***`: safe to print. */
  shown: string;
  /** Set on a read replica's URL standing for its store (a past store read on a standby: pg-replica-past.ts). */
  standby?: boolean;
}

/** Whether a store argument names a PostgreSQL store rather than a SQLite file. */
export function isPgUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * The parts of a URL. WHATWG's URL refuses `postgres://user@/db?host=/dir` (a Unix socket: no host
 * in the authority), which libpq and `pg` accept, so the parts are taken apart here.
 */
const URL_PARTS = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)(\/[^?#]*)?(?:\?([^#]*))?$/i;

interface UrlParts {
  scheme: string;
  userinfo: string | null;
  host: string;
  path: string;
  query: URLSearchParams;
}

function partsOf(input: string): UrlParts | null {
  const m = URL_PARTS.exec(input);
  if (!m) return null;
  return { scheme: m[1]!, userinfo: m[2] ?? null, host: m[3]!, path: m[4] ?? '', query: new URLSearchParams(m[5] ?? '') };
}

function urlOf(p: UrlParts): string {
  const query = p.query.toString();
  return `${p.scheme}${p.userinfo !== null ? `${p.userinfo}@` : ''}${p.host}${p.path}${query ? `?${query}` : ''}`;
}

function redacted(p: UrlParts): string {
  const colon = p.userinfo?.indexOf(':') ?? -1;
  return urlOf(colon >= 0 ? { ...p, userinfo: `${p.userinfo!.slice(0, colon)}:***` } : p);
}

/** Parses and checks a store URL; a typed `bad_input` error names the input and how to fix it. */
export function parsePgStoreUrl(input: string): PgStoreUrl {
  const checked = PG_URL.safeParse(input);
  const parts = checked.success ? partsOf(input) : null;
  if (!parts) {
    const shown = input.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@').slice(0, 200);
    const why = checked.success ? 'it does not read as scheme://user@host/db?options' : checked.error.issues[0]!.message;
    throw badInput(`${JSON.stringify(shown)} is not a PostgreSQL URL (${why}); write postgres://user@host/db?schema=name`, { field: 'url' });
  }
  const shown = redacted(parts);
  const schema = parts.query.get('schema');
  if (schema === null || schema === '') {
    throw badInput(`${shown} names no schema: one schema holds one store; add ?schema=name (for example ${shown}${parts.query.size > 0 ? '&' : '?'}schema=mnemo)`, {
      field: 'url',
    });
  }
  const name = SCHEMA_NAME.safeParse(schema);
  if (!name.success) {
    throw badInput(`schema ${JSON.stringify(schema.slice(0, 100))} in ${shown}: ${name.error.issues[0]!.message} (at most 63 characters)`, { field: 'url', schema });
  }
  parts.query.delete('schema');
  return { connection: urlOf(parts), schema: name.data, shown };
}

/**
 * A read replica's URL with the store's schema: a standby holds the primary's schemas, so a
 * replica may be named without `?schema=` (it takes the store's), or with the same one; another
 * schema is refused, naming both.
 */
export function withSchemaOf(replica: string, store: string | PgStoreUrl): string {
  const schema = typeof store === 'string' ? parsePgStoreUrl(store).schema : store.schema;
  const checked = PG_URL.safeParse(replica);
  const parts = checked.success ? partsOf(replica) : null;
  if (!parts) {
    const shown = replica.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@').slice(0, 200);
    throw badInput(`replica ${JSON.stringify(shown)} is not a PostgreSQL URL; write postgres://user@host/db (the store's schema is implied)`, { field: 'replica' });
  }
  const given = parts.query.get('schema');
  if (given !== null && given !== '' && given !== schema) {
    throw badInput(`replica ${redacted(parts)} names schema ${JSON.stringify(given.slice(0, 100))}, but the store is schema ${schema}: a standby holds the primary's schemas; leave ?schema= out of the replica's URL`, {
      field: 'replica',
    });
  }
  parts.query.set('schema', schema);
  return urlOf(parts);
}

/** The same store's URL for another user (no password in it): what an agent connects with. */
export function storeUrlAs(url: PgStoreUrl, user: string): string {
  const parts = partsOf(url.connection)!;
  parts.query.set('schema', url.schema);
  return urlOf({ ...parts, userinfo: encodeURIComponent(user) });
}

/**
 * The server and database a store's URL names, for telling stores apart: no user, no password
 * (neither in the authority nor as a query option), no schema.
 */
export function serverOf(url: PgStoreUrl): string {
  const parts = partsOf(url.connection)!;
  for (const key of ['password', 'user', 'passfile']) parts.query.delete(key);
  parts.query.sort();
  return urlOf({ ...parts, userinfo: null });
}

/** A SQL identifier, double-quoted (names are checked before they get here; quotes are doubled anyway). */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
