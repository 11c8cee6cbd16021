/**
 * Finds the Chromium that the e2e tests, `npm run screenshots` and the benchmarks drive: the one
 * named by MNEMO_CHROMIUM, else a system Chromium, else the Chromium shipped inside the
 * @sparticuz/chromium package, so `npm install && npm test` needs neither apt nor a browser.
 * MNEMO_NO_SYSTEM_CHROMIUM=1 ignores every system browser (MNEMO_CHROMIUM included), so the
 * packaged fallback can be exercised on a machine that has a system Chromium.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where distributions put Chromium (Debian: chromium; Ubuntu/Fedora: chromium-browser). */
export const SYSTEM_CHROMIUM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

export type ChromiumChoice = { kind: 'system'; path: string } | { kind: 'packaged' };

/** The decision alone, on an injected environment and file test (what the tests check). */
export function chooseChromium(env: Record<string, string | undefined>, exists: (path: string) => boolean): ChromiumChoice {
  if (env['MNEMO_NO_SYSTEM_CHROMIUM'] === '1') return { kind: 'packaged' };
  const candidates = [env['MNEMO_CHROMIUM'], ...SYSTEM_CHROMIUM_PATHS].filter((p): p is string => !!p);
  const path = candidates.find((p) => exists(p));
  return path ? { kind: 'system', path } : { kind: 'packaged' };
}

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

function packagedVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@sparticuz/chromium');
  // entry is <package>/build/cjs/index.cjs
  const pkg = JSON.parse(readFileSync(join(dirname(entry), '..', '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/**
 * Unpacks the packaged Chromium once per version into the project's .cache/ and returns the
 * binary. The package always unpacks into os.tmpdir(), non-atomically, and reuses whatever it
 * finds there; so it is pointed (through TMPDIR) at a private staging directory that is then
 * renamed into place in one step. Parallel test files racing here each unpack their own copy and
 * the loser's is discarded, so no process ever launches a half-written binary.
 */
async function packagedChromiumPath(): Promise<string> {
  const cacheDir = join(projectRoot, '.cache');
  const finalDir = join(cacheDir, `chromium-${packagedVersion()}`);
  const binary = join(finalDir, 'chromium');
  if (existsSync(binary)) return binary;
  mkdirSync(cacheDir, { recursive: true });
  const staging = mkdtempSync(join(cacheDir, 'chromium-unpacking-'));
  const { default: packaged } = await import('@sparticuz/chromium');
  const savedTmp = process.env['TMPDIR'];
  process.env['TMPDIR'] = staging;
  try {
    await packaged.executablePath();
  } finally {
    if (savedTmp === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = savedTmp;
  }
  try {
    renameSync(staging, finalDir);
  } catch {
    // Another process renamed its copy first; use that one.
    rmSync(staging, { recursive: true, force: true });
  }
  if (!existsSync(binary)) throw new Error(`the Chromium of @sparticuz/chromium did not unpack to ${binary}`);
  return binary;
}

export interface ResolvedChromium {
  kind: ChromiumChoice['kind'];
  executablePath: string;
}

let resolved: Promise<ResolvedChromium> | undefined;

/** The Chromium binary to launch (resolved once per process). */
export function resolveChromium(): Promise<ResolvedChromium> {
  resolved ??= (async () => {
    const choice = chooseChromium(process.env, existsSync);
    if (choice.kind === 'system') return { kind: 'system', executablePath: choice.path };
    return { kind: 'packaged', executablePath: await packagedChromiumPath() };
  })();
  return resolved;
}
