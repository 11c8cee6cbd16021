/**
 * `file:` references point into the agent's workspace and nowhere else. A stored reference may
 * have been written by another agent sharing the store, so resolving it must never become a way to
 * read outside the root: absolute paths, `..` that climbs out, and symlinks whose real target lies
 * outside are all refused. Containment is checked on the real (symlink-free) path, and the file is
 * then read through that real path, not the name the reference gave.
 *
 * With no root there is no file access at all. The default root is the process's working directory
 * only when that is a safe place to expose: never the file-system root and never the home folder
 * (or a folder above it), since an MCP host may well start the server there, and then
 * `file:proc/self/environ` or `file:.ssh/id_ed25519` would be one deref away.
 */
import { closeSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, relative, resolve, sep, win32 } from 'node:path';
import { badInput } from '../errors.js';

/** At most this many characters of a file are read before clipping (the reference's cap). */
export const MAX_FILE_CHARS = 4000;

export type ContainmentProblem = 'no_root' | 'absolute' | 'escapes' | 'symlink_escapes' | 'invalid';

/** Why file references are off, and how to turn them on. */
export const NO_ROOT_MESSAGE = 'file: references are off: no workspace root was given (start mnemo mcp with --root DIR, or pass workspaceRoot)';

function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

/** Whether `dir` is the file-system root, the home folder or a folder above it. */
export function isUnsafeRoot(dir: string, home: string): boolean {
  const d = realOr(dir);
  if (dirname(d) === d) return true;
  const h = realOr(home);
  return inside(d, h);
}

/** The default root: the working directory, unless it is unsafe to expose (then none). */
export function defaultWorkspaceRoot(cwd: string, home: string): string | null {
  return isUnsafeRoot(cwd, home) ? null : resolve(cwd);
}

/** A root the operator named: the file-system root is refused outright (it would expose everything). */
export function explicitWorkspaceRoot(dir: string, field = 'root'): string {
  const d = realOr(dir);
  if (dirname(d) === d) throw badInput(`--${field} ${dir} is the file-system root, which would let agents read any file (the environment through /proc, keys, passwords); name the project folder instead`, { field });
  return resolve(dir);
}

export interface ContainedPath {
  ok: true;
  /** The real path inside the root (the file may not exist yet). */
  real: string;
  exists: boolean;
}

export interface RefusedPath {
  ok: false;
  problem: ContainmentProblem;
  message: string;
}

function inside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The real path of the longest existing prefix of `p`, with the missing tail appended. */
function realpathOfExistingPrefix(p: string): { real: string; exists: boolean } {
  let head = p;
  const tail: string[] = [];
  for (;;) {
    try {
      const real = realpathSync(head);
      return { real: tail.length ? join(real, ...tail.reverse()) : real, exists: tail.length === 0 };
    } catch {
      const parent = resolve(head, '..');
      if (parent === head) return { real: p, exists: false };
      tail.push(basename(head));
      head = parent;
    }
  }
}

/** Checks that a `file:` key names a path inside `root`; never throws. */
export function containFile(root: string | null, key: string): ContainedPath | RefusedPath {
  if (root === null) return { ok: false, problem: 'no_root', message: NO_ROOT_MESSAGE };
  if (key.includes('\0')) return { ok: false, problem: 'invalid', message: `file reference ${JSON.stringify(key)} contains a NUL byte` };
  if (isAbsolute(key) || win32.isAbsolute(key)) {
    return { ok: false, problem: 'absolute', message: `file reference must be relative to the workspace root: ${JSON.stringify(key)}` };
  }
  const realRoot = realpathSync(root);
  const lexical = resolve(realRoot, normalize(key));
  if (!inside(realRoot, lexical)) {
    return { ok: false, problem: 'escapes', message: `file reference escapes the workspace root: ${JSON.stringify(key)}` };
  }
  const { real, exists } = realpathOfExistingPrefix(lexical);
  if (!inside(realRoot, real)) {
    return { ok: false, problem: 'symlink_escapes', message: `file reference leads outside the workspace root through a symlink: ${JSON.stringify(key)}` };
  }
  return { ok: true, real, exists };
}

/** Capture-time check (the agent's own write): a refused path is an error naming the reference. */
export function assertContainedFile(root: string | null, key: string, field = 'references'): void {
  const c = containFile(root, key);
  if (!c.ok) throw badInput(c.message, { field, problem: c.problem });
}

/**
 * Reads at most MAX_FILE_CHARS characters of a contained regular file; null when the path is
 * refused, missing, not a regular file or unreadable (the caller renders DANGLING).
 */
export function readContainedFile(root: string | null, key: string): string | null {
  const c = containFile(root, key);
  if (!c.ok || !c.exists) return null;
  try {
    if (!statSync(c.real).isFile()) return null;
    const fd = openSync(c.real, 'r');
    try {
      // UTF-8 needs at most 4 bytes per character: this many bytes always covers the cap.
      const buf = Buffer.alloc(MAX_FILE_CHARS * 4);
      const n = readSync(fd, buf, 0, buf.length, 0);
      return [...buf.subarray(0, n).toString('utf8')].slice(0, MAX_FILE_CHARS).join('');
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}
