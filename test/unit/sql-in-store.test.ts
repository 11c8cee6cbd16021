/**
 * House rule: SQL lives only in core/store/. Every other module asks the store a question by name
 * (a function with typed rows), so a schema change touches one folder and a reader can find every
 * query about a table in one place. This test reads the shipped sources (core/, cli/, server/),
 * looks at every string literal and every database call, and names each piece of SQL found
 * outside core/store/ that is not on the allow-list below.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const SCANNED = ['core', 'cli', 'server'];
const STORE_DIR = 'core/store/';

/**
 * Files allowed to speak SQL outside the store, each with why and the only tables its SQL may name
 * (so an exception cannot quietly start reading the store's own tables). Keep this list short.
 */
// None today: the keyword index's FTS5 tokenizer, the last one, lives in core/store/derived/fts-tokenizer.ts.
const ALLOWED: Record<string, { reason: string; tables: string[] }> = {};

/** Table names a statement mentions (after FROM, INTO, UPDATE, JOIN, TABLE, INDEX … ON). */
function tablesNamed(sql: string): string[] {
  return [...sql.matchAll(/\b(?:FROM|INTO|UPDATE|JOIN|TABLE|ON)\s+([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);
}

/** A statement, as it starts in a string: SELECT … FROM, INSERT INTO, UPDATE … SET, DELETE FROM, DDL, PRAGMA. */
const SQL_STATEMENT =
  /\bSELECT\b[\s\S]*?\bFROM\b|\bINSERT\s+(?:OR\s+[A-Z]+\s+)?INTO\b|\bUPDATE\s+\w+\s+SET\b|\bDELETE\s+FROM\b|\b(?:CREATE|DROP)\s+(?:VIRTUAL\s+|UNIQUE\s+|TEMP\s+)?(?:TABLE|INDEX|TRIGGER|VIEW)\b|\bPRAGMA\s+\w/;

/** Methods that run SQL on a better-sqlite3 database (exec only when called on a database, not a RegExp). */
const DB_METHODS = new Set(['prepare', 'pragma', 'exec']);

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') out.push(...sourceFiles(path));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      out.push(path);
    }
  }
  return out;
}

/** Every piece of SQL in one file's source: a line number and what was found there. */
function sqlFindings(fileName: string, text: string): { line: number; what: string; sql?: string }[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: { line: number; what: string; sql?: string }[] = [];
  const at = (node: ts.Node) => file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (SQL_STATEMENT.test(node.text)) found.push({ line: at(node), what: `SQL string: ${node.text.slice(0, 60)}`, sql: node.text });
    } else if (ts.isTemplateExpression(node)) {
      // The literal parts joined, so "SELECT ${cols} FROM" is seen as one statement.
      const literal = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
      if (SQL_STATEMENT.test(literal)) found.push({ line: at(node), what: `SQL template: ${literal.slice(0, 60)}`, sql: literal });
    } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const receiver = node.expression.expression.getText(file);
      const onDatabase = method !== 'exec' || /(^|\.)(db|database)$/i.test(receiver);
      if (DB_METHODS.has(method) && onDatabase) found.push({ line: at(node), what: `database call: ${receiver}.${method}(…)` });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('SQL lives only in core/store/', () => {
  it('finds SQL strings and database calls (the detector itself)', () => {
    const sample = [
      "const a = db.prepare('SELECT id FROM memories WHERE archived = 0');",
      'const b = `INSERT OR IGNORE INTO memory_edges(src) VALUES (?)`;',
      "const c = 'UPDATE memories SET archived = 1';",
      'const d = `DELETE FROM ${table}`;',
      'store.db.pragma("synchronous = OFF");',
      'store.db.exec(sql);',
      'const e = `SELECT ${cols} FROM memories`;',
    ].join('\n');
    expect(sqlFindings('sample.ts', sample).map((f) => f.line)).toEqual([1, 1, 2, 3, 4, 5, 6, 7]);
    const prose = [
      '// PRAGMA data_version moves when another connection commits',
      "const m = RING.exec(data);",
      "const help = 'select the memories you want, then delete them from the list';",
      "const label = 'Update settings';",
    ].join('\n');
    expect(sqlFindings('prose.ts', prose)).toEqual([]);
    expect(tablesNamed('SELECT t.type FROM memory_edges AS t JOIN memories m ON m.id = t.id')).toEqual(['memory_edges', 'memories', 'm']);
    expect(tablesNamed('CREATE VIRTUAL TABLE tokv USING fts5vocab(tok)')).toEqual(['tokv']);
  });

  it('no module outside core/store/ speaks SQL, except the allow-listed ones', () => {
    const offenders: string[] = [];
    const allowedSeen = new Set<string>();
    for (const path of SCANNED.flatMap(sourceFiles)) {
      const rel = relative(ROOT, join(ROOT, path)).split(sep).join('/');
      if (rel.startsWith(STORE_DIR)) continue;
      const findings = sqlFindings(rel, readFileSync(join(ROOT, rel), 'utf8'));
      if (findings.length === 0) continue;
      const allowed = ALLOWED[rel];
      if (allowed) {
        allowedSeen.add(rel);
        for (const f of findings) {
          const foreign = tablesNamed(f.sql ?? '').filter((t) => !allowed.tables.includes(t));
          if (foreign.length > 0) offenders.push(`${rel}:${f.line} names ${foreign.join(', ')}, beyond its own tables (${allowed.tables.join(', ')})`);
        }
        continue;
      }
      for (const f of findings) offenders.push(`${rel}:${f.line} ${f.what}`);
    }
    expect(offenders, 'move these into a function of core/store/ and call it').toEqual([]);
    // An entry that no longer speaks SQL should leave the list, so the list stays honest.
    expect([...allowedSeen].sort()).toEqual(Object.keys(ALLOWED).sort());
  });
});
