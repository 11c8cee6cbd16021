import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chooseChromium, SYSTEM_CHROMIUM_PATHS } from '../../support/chromium.js';

const everyPathExists = () => true;
const noPathExists = () => false;

describe('which Chromium the e2e tests, screenshots and benchmarks drive', () => {
  it('uses a system Chromium when there is one', () => {
    expect(chooseChromium({}, (p) => p === SYSTEM_CHROMIUM_PATHS[0])).toEqual({ kind: 'system', path: SYSTEM_CHROMIUM_PATHS[0] });
  });

  it('prefers MNEMO_CHROMIUM over the distribution paths', () => {
    expect(chooseChromium({ MNEMO_CHROMIUM: '/opt/my/chrome' }, everyPathExists)).toEqual({ kind: 'system', path: '/opt/my/chrome' });
  });

  it('falls back to the packaged Chromium when no system one exists', () => {
    expect(chooseChromium({ MNEMO_CHROMIUM: '/opt/missing' }, noPathExists)).toEqual({ kind: 'packaged' });
  });

  it('MNEMO_NO_SYSTEM_CHROMIUM=1 ignores every system Chromium, MNEMO_CHROMIUM included', () => {
    expect(chooseChromium({ MNEMO_NO_SYSTEM_CHROMIUM: '1' }, everyPathExists)).toEqual({ kind: 'packaged' });
    expect(chooseChromium({ MNEMO_NO_SYSTEM_CHROMIUM: '1', MNEMO_CHROMIUM: '/opt/my/chrome' }, everyPathExists)).toEqual({ kind: 'packaged' });
    // Any other value keeps the system one.
    expect(chooseChromium({ MNEMO_NO_SYSTEM_CHROMIUM: '0' }, everyPathExists).kind).toBe('system');
  });
});

describe('the packaged Chromium', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('unpacks into the project cache and runs, under MNEMO_NO_SYSTEM_CHROMIUM=1 even where a system one exists', async () => {
    vi.stubEnv('MNEMO_NO_SYSTEM_CHROMIUM', '1');
    const { resolveChromium } = await import('../../support/chromium.js');
    const chosen = await resolveChromium();
    expect(chosen.kind).toBe('packaged');
    expect(SYSTEM_CHROMIUM_PATHS).not.toContain(chosen.executablePath);
    expect(existsSync(chosen.executablePath)).toBe(true);
    expect(execFileSync(chosen.executablePath, ['--version'], { encoding: 'utf8' })).toMatch(/Chrom(e|ium)/);
  });
});
