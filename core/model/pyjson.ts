/**
 * JSON text the way Python's `json.dumps` writes nooa's `data` column: `", "`/`": "` separators,
 * ASCII-only output, and floats that stay floats (`5.0`, `1e-05`). Writing `5` where nooa wrote
 * `5.0` would still load, but a store we touch should read back byte-for-byte like one nooa wrote.
 */

/** Keys whose numeric values are Python floats in nooa's models. */
const FLOAT_KEYS = new Set([
  'importance',
  'salience',
  'confidence',
  'created_at',
  'last_accessed_at',
  'valid_from',
  'valid_to',
  'ts',
  'score',
  'captured_at',
  'fire_at',
  'cos',
  'rel',
  'rec',
  'imp',
  'spread',
]);

/** Python's `repr(float)`: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export function pyFloat(x: number): string {
  if (!Number.isFinite(x)) throw new Error(`cannot write non-finite number ${x} into a nooa store`);
  // Fast path: for 1e-4 ≤ |x| < 1e16 JavaScript and Python print the same shortest digits in
  // positional notation; Python only adds ".0" to integral values.
  const ax = Math.abs(x);
  if (ax >= 1e-4 && ax < 1e16) {
    const s = String(x);
    return Number.isInteger(x) ? `${s}.0` : s;
  }
  if (Object.is(x, -0)) return '-0.0';
  if (x === 0) return '0.0';
  const [mantissa, expPart] = x.toExponential().split('e') as [string, string];
  const exp = Number(expPart);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = exp < 0 ? `-${String(-exp).padStart(2, '0')}` : `+${String(exp).padStart(2, '0')}`;
    return `${sign}${m}e${e}`;
  }
  if (exp >= 0) {
    if (digits.length <= exp + 1) return `${sign}${digits}${'0'.repeat(exp + 1 - digits.length)}.0`;
    return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  }
  return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
}

const NON_ASCII = /[\u007f-\uffff]/;

export function pyString(s: string): string {
  const json = JSON.stringify(s);
  if (!NON_ASCII.test(json)) return json;
  // ensure_ascii: DEL and everything above ASCII become \uXXXX escapes (UTF-16 units, as Python does).
  return JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function dump(value: unknown, floatKey: boolean): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (floatKey || !Number.isInteger(value)) return pyFloat(value);
    return String(value);
  }
  if (typeof value === 'string') return pyString(value);
  if (Array.isArray(value)) return `[${value.map((v) => dump(v, floatKey)).join(', ')}]`;
  if (typeof value === 'object') {
    const parts: string[] = [];
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === undefined) continue;
      parts.push(`${pyString(k)}: ${dump(v, FLOAT_KEYS.has(k))}`);
    }
    return `{${parts.join(', ')}}`;
  }
  throw new Error(`cannot serialise ${typeof value}`);
}

/** Serialises a plain object with Python's json.dumps defaults; key order is insertion order. */
export function pyDumps(value: unknown): string {
  return dump(value, false);
}
