/**
 * The extension key of a derived index: the engine creates the Derived wrapper on first use (so it
 * follows the store from then on) and disposes it when it closes (unsubscribing it from the store
 * and releasing what the index holds).
 */
import { Derived, type DerivedIndex } from '../store/derived.js';
import { extensionKey, type ExtensionKey } from './engine.js';

export function derivedIndexKey<T extends DerivedIndex>(name: string, createIndex: () => T): ExtensionKey<Derived<T>> {
  return extensionKey(
    name,
    (engine) => new Derived(engine.store, createIndex()),
    (derived) => derived.dispose(),
  );
}
