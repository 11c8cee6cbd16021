/**
 * Which file paths an API caller may name (store.open, fleet.open). In-process callers (the CLI,
 * the library, tests) may name any path; Electron takes paths only from its own dialogs, never from
 * the page; browser mode confines them to the store `mnemo serve` was started with and the folders
 * it named (--root, --fleet). A refusal reads the same whether the path exists outside or not, and
 * never says what it is, so the API cannot be used to probe the file system.
 */
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { MnemoError } from '../errors.js';

export type PathPolicy =
  | { kind: 'any' }
  | { kind: 'dialog' }
  | { kind: 'confined'; /** Folders whose stores may be opened. */ roots: string[]; /** Single stores that may be (re)opened. */ files: string[] };

export const ANY_PATH: PathPolicy = { kind: 'any' };

function realOrNull(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

function within(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** A browser-mode policy; roots and files are resolved to their real paths once, at start. */
export function confinedTo(roots: string[], files: string[]): PathPolicy {
  const real = (xs: string[]) => xs.map((x) => realOrNull(resolve(x))).filter((x): x is string => x !== null);
  return { kind: 'confined', roots: real(roots), files: real(files) };
}

function allowedText(policy: Extract<PathPolicy, { kind: 'confined' }>): string {
  const parts = [
    ...(policy.files.length ? [`the store it was started with (${policy.files.join(', ')})`] : []),
    ...(policy.roots.length ? [`stores inside ${policy.roots.join(', ')}`] : []),
  ];
  return parts.length ? parts.join(' and ') : 'the store it was started with';
}

/**
 * The real path a caller may open as a store or fleet folder, or a permission error. `what` names
 * the thing for the message ("store", "fleet folder").
 */
export function permittedPath(policy: PathPolicy, requested: string, what: 'store' | 'fleet folder'): string {
  if (policy.kind === 'any') return requested;
  if (policy.kind === 'dialog') {
    throw new MnemoError(
      'permission',
      what === 'store'
        ? 'this app opens stores only through its file dialog (File → Open Store…), never from a path the page sends'
        : 'this app opens fleet folders only through its folder dialog (File → Open Folder of Stores…)',
    );
  }
  const base = policy.roots[0] ?? (policy.files[0] ? dirname(policy.files[0]) : process.cwd());
  const real = realOrNull(resolve(base, requested));
  const allowed =
    real !== null &&
    (what === 'store' ? policy.files.includes(real) || policy.roots.some((r) => within(r, real)) : policy.roots.some((r) => within(r, real)));
  if (!allowed) {
    // One message for "outside", "missing" and "a symlink that leads out": nothing about the path leaks.
    throw new MnemoError('permission', `browser mode opens only ${allowedText(policy)}; ${JSON.stringify(requested)} is not one of them (start mnemo serve with --root <folder> to allow a folder of stores)`, {
      field: what === 'store' ? 'path' : 'folder',
    });
  }
  return real;
}
