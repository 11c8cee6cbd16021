/**
 * Text in byte order, as SQLite's BINARY collation and PostgreSQL's "C" compare it (UTF-8 bytes):
 * JS's own `<` compares UTF-16 code units, which order characters past U+FFFF differently.
 */
export const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));
