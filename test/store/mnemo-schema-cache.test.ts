/**
 * Whether a store has mnemo's tables is asked several times by each recall, so the answer is kept
 * per connection while SQLite's schema cookie stands still (migrations.ts hasMnemoSchema). These
 * check that the kept answer never outlives the schema it was found in: another connection's DDL
 * moves it, and a rolled-back DDL, whose cookie number later DDL reuses, leaves nothing behind.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasMnemoSchema } from '../../core/store/sqlite/migrations.js';
import { tempDir } from '../../support/fixture.js';

const open: Database.Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function connection(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  open.push(db);
  return db;
}

describe('hasMnemoSchema kept by schema cookie', () => {
  it('sees mnemo_meta another connection creates after a first answer', () => {
    const path = join(tempDir('mnemo-schema-cache'), 'store.sqlite');
    const reader = connection(path);
    const writer = connection(path);
    writer.exec('CREATE TABLE memories (id TEXT PRIMARY KEY)');
    expect(hasMnemoSchema(reader)).toBe(false);
    expect(hasMnemoSchema(reader)).toBe(false);
    writer.exec('CREATE TABLE mnemo_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    expect(hasMnemoSchema(reader)).toBe(true);
    writer.exec('DROP TABLE mnemo_meta');
    expect(hasMnemoSchema(reader)).toBe(false);
  });

  it('keeps nothing a rolled-back transaction found, though later DDL reuses its cookie', () => {
    const path = join(tempDir('mnemo-schema-cache'), 'store.sqlite');
    const db = connection(path);
    db.exec('CREATE TABLE memories (id TEXT PRIMARY KEY)');
    expect(hasMnemoSchema(db)).toBe(false);
    const cookieBefore = db.pragma('schema_version', { simple: true }) as number;
    const rolledBack = new Error('rolled back');
    expect(() =>
      db.transaction(() => {
        db.exec('CREATE TABLE mnemo_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
        expect(hasMnemoSchema(db)).toBe(true);
        throw rolledBack;
      })(),
    ).toThrow(rolledBack);
    expect(db.pragma('schema_version', { simple: true })).toBe(cookieBefore);
    // No ask between the rollback and the next DDL: nothing may overwrite what the transaction saw.
    db.exec('CREATE TABLE other (x)');
    expect(db.pragma('schema_version', { simple: true })).toBe(cookieBefore + 1);
    expect(hasMnemoSchema(db)).toBe(false);
  });
});
