/**
 * Installs a minimal change feed (table, epoch, triggers on `memories` and `memory_edges`) in a
 * store file, for tests and benches of the persisted indexes until the store installs its own
 * feed. Not called by the engine.
 */
import { randomUUID } from 'node:crypto';
import { connectionOf } from './connection.js';
import type { StoreWriter } from './port.js';

export function installFeedForTests(store: StoreWriter): void {
  store.ensureMnemo();
  const db = connectionOf(store);
  db.exec(`
    CREATE TABLE IF NOT EXISTS mnemo_feed (seq INTEGER PRIMARY KEY AUTOINCREMENT, memory_id TEXT NOT NULL);
    CREATE TRIGGER IF NOT EXISTS mnemo_feed_mem_ins AFTER INSERT ON memories BEGIN INSERT INTO mnemo_feed(memory_id) VALUES (NEW.id); END;
    CREATE TRIGGER IF NOT EXISTS mnemo_feed_mem_upd AFTER UPDATE ON memories BEGIN INSERT INTO mnemo_feed(memory_id) VALUES (NEW.id); END;
    CREATE TRIGGER IF NOT EXISTS mnemo_feed_mem_del AFTER DELETE ON memories BEGIN INSERT INTO mnemo_feed(memory_id) VALUES (OLD.id); END;
    CREATE TRIGGER IF NOT EXISTS mnemo_feed_edge_ins AFTER INSERT ON memory_edges BEGIN INSERT INTO mnemo_feed(memory_id) VALUES (NEW.src); INSERT INTO mnemo_feed(memory_id) VALUES (NEW.dst); END;
    CREATE TRIGGER IF NOT EXISTS mnemo_feed_edge_del AFTER DELETE ON memory_edges BEGIN INSERT INTO mnemo_feed(memory_id) VALUES (OLD.src); INSERT INTO mnemo_feed(memory_id) VALUES (OLD.dst); END;
  `);
  db.prepare("INSERT OR IGNORE INTO mnemo_meta(key, value) VALUES ('feed_epoch', ?)").run(randomUUID());
}
