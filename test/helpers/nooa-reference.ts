/**
 * The real nooa-memory reference (Apache-2.0), for interoperability tests: MNEMO_NOOA_REFERENCE,
 * else beside the repository (it is never committed, so a fresh clone has none and the tests that
 * need it skip, saying why).
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NOOA_REFERENCE_ENV = 'MNEMO_NOOA_REFERENCE';
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The reference's src folder, or null with why it is missing. */
export function nooaReference(): { src: string | null; missing: string } {
  const given = process.env[NOOA_REFERENCE_ENV];
  const dir = given ? resolve(given) : resolve(ROOT, '..', 'shared', 'reference', 'nooa-memory-0.0.9');
  const src = join(dir, 'src');
  if (existsSync(join(src, 'nooa_memory', 'store.py'))) return { src, missing: '' };
  return {
    src: null,
    missing: given
      ? `the nooa-memory reference: ${NOOA_REFERENCE_ENV} names ${given}, which has no src/nooa_memory/store.py`
      : `the nooa-memory reference is not part of the repository; set ${NOOA_REFERENCE_ENV} to its folder (nooa-memory-0.0.9) to run this`,
  };
}
