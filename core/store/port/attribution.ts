/**
 * Which agent credential the current call runs for. Access events and journalled changes written
 * inside `runAttributed` record its id (the credential_id columns), so the audit and the fleet can
 * say which credential made each access and each change.
 *
 * Why an async context rather than a parameter: writes happen in a dozen operations at several
 * layers (remember, update, forget, link, reflection, intent firing, recall's access logging), and
 * one engine may serve several sessions at once (an HTTP server), so a field on the store would
 * attribute one session's write to another. The context follows each call through its awaits and
 * nothing else.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<string>();

/** Runs fn with `credentialId` as the attribution of every access and change it writes (null: none). */
export function runAttributed<T>(credentialId: string | null, fn: () => T): T {
  return credentialId === null ? fn() : current.run(credentialId, fn);
}

/** The credential the running call is attributed to, or null (the workbench, the CLI, a stdio agent). */
export function currentCredentialId(): string | null {
  return current.getStore() ?? null;
}
