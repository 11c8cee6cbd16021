/**
 * The extension key of a derived index: the engine creates the Derived wrapper on first use (so it
 * follows the store from then on) and disposes it when it closes (unsubscribing it from the store,
 * writing a due snapshot, and releasing what the index holds). The key's name is also the index's
 * name in the index sidecar.
 */
import { Derived, type DerivedIndex } from '../store/derived/derived.js';
import { extensionKey, type Engine, type ExtensionKey } from './engine.js';

export function derivedIndexKey<T extends DerivedIndex>(name: string, createIndex: (engine: Engine) => T): ExtensionKey<Derived<T>> {
  return extensionKey(
    name,
    (engine) => new Derived(engine.store, createIndex(engine), { name, snapshots: engine.indexSnapshots, fresh: () => createIndex(engine) }),
    (derived) => derived.dispose(),
  );
}
