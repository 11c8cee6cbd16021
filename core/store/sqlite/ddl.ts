/**
 * nooa-memory v0.0.9's own schema (SCHEMA_VERSION 2 in `PRAGMA user_version`), kept verbatim so
 * nooa can still open every store we write. Our additions live in `mnemo_*` tables (migrations.ts).
 */
export const NOOA_SCHEMA_VERSION = 2;

export const NOOA_DDL = `
CREATE TABLE IF NOT EXISTS memories (
    id            TEXT PRIMARY KEY,
    type          TEXT NOT NULL,
    content       TEXT NOT NULL,
    importance    REAL NOT NULL DEFAULT 5.0,
    salience      REAL NOT NULL DEFAULT 0.0,
    strength      INTEGER NOT NULL DEFAULT 1,
    created_at    REAL NOT NULL,
    last_accessed REAL NOT NULL,
    access_count  INTEGER NOT NULL DEFAULT 0,
    archived      INTEGER NOT NULL DEFAULT 0,
    owner         TEXT NOT NULL DEFAULT '',
    status        TEXT,
    embedding     BLOB,
    data          TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_mem_type ON memories(type);
CREATE INDEX IF NOT EXISTS idx_mem_archived ON memories(archived);
CREATE TABLE IF NOT EXISTS memory_edges (
    src        TEXT NOT NULL,
    dst        TEXT NOT NULL,
    type       TEXT NOT NULL,
    weight     REAL NOT NULL DEFAULT 1.0,
    created_at REAL NOT NULL,
    PRIMARY KEY (src, dst, type)
);
CREATE INDEX IF NOT EXISTS idx_edge_src ON memory_edges(src);
CREATE INDEX IF NOT EXISTS idx_edge_dst ON memory_edges(dst);
CREATE TABLE IF NOT EXISTS maintenance_log (
    ts     REAL NOT NULL,
    kind   TEXT NOT NULL,
    report TEXT NOT NULL
);
`;

/** Indexes on the columns that v1 files lack; created after those columns are added. */
export const NOOA_V2_INDEXES = `
CREATE INDEX IF NOT EXISTS idx_mem_owner ON memories(owner);
CREATE INDEX IF NOT EXISTS idx_mem_status ON memories(status);
`;

