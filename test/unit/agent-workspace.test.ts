import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertContainedFile, containFile, MAX_FILE_CHARS, readContainedFile } from '../../core/agent/workspace.js';
import { tempDir } from '../../support/fixture.js';

let root: string;
let outside: string;

beforeAll(() => {
  const base = tempDir('mnemo-ws-');
  root = join(base, 'root');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'docs'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'docs', 'spec.md'), 'the spec\nline two');
  writeFileSync(join(root, 'big.txt'), 'x'.repeat(MAX_FILE_CHARS * 3));
  writeFileSync(join(outside, 'secret.txt'), 'top secret');
  symlinkSync(join(outside, 'secret.txt'), join(root, 'leak.txt'));
  symlinkSync(outside, join(root, 'outdir'));
  symlinkSync(join(root, 'docs', 'spec.md'), join(root, 'alias.md'));
});

describe('file containment', () => {
  it('accepts relative paths inside the root, existing or not', () => {
    expect(containFile(root, 'docs/spec.md')).toMatchObject({ ok: true, exists: true });
    expect(containFile(root, 'docs/../docs/spec.md')).toMatchObject({ ok: true, exists: true });
    expect(containFile(root, 'notes/later.md')).toMatchObject({ ok: true, exists: false });
  });

  it('refuses absolute paths', () => {
    expect(containFile(root, '/etc/passwd')).toMatchObject({ ok: false, problem: 'absolute' });
    expect(containFile(root, join(root, 'docs', 'spec.md'))).toMatchObject({ ok: false, problem: 'absolute' });
    expect(containFile(root, 'C:\\Windows\\win.ini')).toMatchObject({ ok: false, problem: 'absolute' });
  });

  it('refuses .. that climbs out of the root', () => {
    expect(containFile(root, '../../etc/passwd')).toMatchObject({ ok: false, problem: 'escapes' });
    expect(containFile(root, 'docs/../../outside/secret.txt')).toMatchObject({ ok: false, problem: 'escapes' });
  });

  it('refuses symlinks whose real target is outside, even for a missing file under a linked directory', () => {
    expect(containFile(root, 'leak.txt')).toMatchObject({ ok: false, problem: 'symlink_escapes' });
    expect(containFile(root, 'outdir/secret.txt')).toMatchObject({ ok: false, problem: 'symlink_escapes' });
    expect(containFile(root, 'outdir/not-yet.txt')).toMatchObject({ ok: false, problem: 'symlink_escapes' });
  });

  it('follows symlinks that stay inside', () => {
    expect(readContainedFile(root, 'alias.md')).toBe('the spec\nline two');
  });

  it('never reads a refused file', () => {
    expect(readContainedFile(root, 'leak.txt')).toBeNull();
    expect(readContainedFile(root, '../outside/secret.txt')).toBeNull();
    expect(readContainedFile(root, join(outside, 'secret.txt'))).toBeNull();
  });

  it('reads at most MAX_FILE_CHARS characters and null for directories or missing files', () => {
    expect(readContainedFile(root, 'big.txt')).toHaveLength(MAX_FILE_CHARS);
    expect(readContainedFile(root, 'docs')).toBeNull();
    expect(readContainedFile(root, 'nope.md')).toBeNull();
  });

  it('the capture-time check throws a bad_input error naming the field', () => {
    expect(() => assertContainedFile(root, '../../etc/passwd', 'references[0]')).toThrowError(/escapes the workspace root/);
    let caught: unknown = null;
    try {
      assertContainedFile(root, '/etc/passwd', 'references[1]');
    } catch (e) {
      caught = e;
    }
    expect(caught).toMatchObject({ code: 'bad_input', details: { field: 'references[1]', problem: 'absolute' } });
  });
});
