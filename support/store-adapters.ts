/**
 * The store adapters the port's contract suite runs against (test/store/store-port-contract.test.ts).
 * Each adapter makes fresh, empty stores and a second connection to the same store, as another
 * process would hold it: SQLite, and PostgreSQL (pg-store-adapter.ts).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../core/clock.js';
import type { StoreReader, StoreWriter } from '../core/store/port/port.js';
import { MemoryStore } from '../core/store/sqlite/sqlite-store.js';
import { tempDir } from './fixture.js';
import { pgAdapter } from './pg-store-adapter.js';

export interface StoreUnderTest {
  /** The store the suite writes through. */
  readonly store: StoreWriter;
  /** Another writable connection to the same store (another process's view of it). */
  openAnother(): StoreWriter;
  /** A read-only connection to the same store. */
  openReader(): StoreReader;
  /** Closes every connection this fixture opened and removes the store. */
  dispose(): void;
}

export interface StoreAdapter {
  readonly name: string;
  /** Why this adapter cannot run on this machine (no server installed), or null. */
  unavailable(): string | null;
  /** Starts what the adapter needs once per test file (a server); tearDown stops it. */
  setUp(): void;
  tearDown(): void;
  /** A new, empty store whose clock is `clock`. */
  fresh(clock: Clock): StoreUnderTest;
}

const sqlite: StoreAdapter = {
  name: 'sqlite',
  unavailable: () => null,
  setUp() {},
  tearDown() {},
  fresh(clock) {
    const dir = tempDir('mnemo-port-');
    const path = join(dir, 'store.sqlite');
    const opened: { close(): void }[] = [];
    const track = <S extends { close(): void }>(s: S): S => (opened.push(s), s);
    return {
      store: track(MemoryStore.open(path, { create: true, clock })),
      openAnother: () => track(MemoryStore.open(path, { clock })),
      openReader: () => track(MemoryStore.openReader(path, { clock })),
      dispose() {
        for (const s of opened.reverse()) s.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

export const STORE_ADAPTERS: readonly StoreAdapter[] = [sqlite, pgAdapter];
