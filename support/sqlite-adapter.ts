/**
 * The SQLite adapter behind an engine, for tests that reach past the port into the adapter's own
 * modules (the journal's images, change runs, the ingest marker, tombstones by content). The
 * engine itself only knows the port (Engine.store is a StoreWriter); these tests are about the
 * SQLite adapter, so they say so, and fail clearly if the engine runs on another one.
 */
import type { StoreReader } from '../core/store/port/port.js';
import { MemoryStore } from '../core/store/sqlite/sqlite-store.js';

export function sqliteAdapterOf(engine: { readonly store: StoreReader }): MemoryStore {
  const store = engine.store;
  // By name, not instanceof: a test that resets its modules (vi.resetModules) holds a second copy of the class.
  if (store.constructor.name !== MemoryStore.name) throw new Error(`this test needs the SQLite adapter, and the engine runs on ${store.constructor.name}`);
  return store as MemoryStore;
}
