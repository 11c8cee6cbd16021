/** The numeric rules of the reflection ops that must match Python exactly. */
import { describe, expect, it } from 'vitest';
import { isClose, rescoreValue, round4 } from '../../core/reflect/ops.js';
import { parseUntil } from '../../core/reflect/policy.js';

// [x, Python's round(x, 4)], computed by CPython 3 (ties go to the even neighbour on the exact binary value).
const PY_ROUND = [
  [0.84375, 0.8438], [0.90625, 0.9062], [0.03125, 0.0312], [0.5, 0.5], [0.80005, 0.8001], [0.99995, 1.0],
  [0.8187500238418579, 0.8188], [0.12345, 0.1235], [-0.84375, -0.8438], [0.8356946706771851, 0.8357],
  [0.8816343545913696, 0.8816], [0.8554932475090027, 0.8555], [0.8905879855155945, 0.8906], [0.8938580751419067, 0.8939],
  [0.8098293542861938, 0.8098], [0.8019751906394958, 0.802], [0.9256203770637512, 0.9256], [0.8389031291007996, 0.8389],
  [0.8351496458053589, 0.8351], [0.9493467211723328, 0.9493], [0.8705395460128784, 0.8705],
] as const;

describe('reflection numerics', () => {
  it('round4 equals Python round(x, 4), ties to even on the exact value', () => {
    for (const [x, want] of PY_ROUND) expect(round4(x), String(x)).toBe(want);
  });

  it('isClose is math.isclose with abs_tol 1e-6', () => {
    expect(isClose(5.0, 5.0000009)).toBe(true);
    expect(isClose(5.0, 5.0000011)).toBe(false);
  });

  it('rescore clamps to [0, 10] and holds memories at >= 8 on the floor', () => {
    expect(rescoreValue(5, 0, 0.5)).toEqual({ value: 3.5, raw: 3.5, floor: false });
    expect(rescoreValue(9, 0.1, 0.2)).toMatchObject({ value: 8, floor: true });
    expect(rescoreValue(10, 1, 1).value).toBe(10);
  });

  it('--until takes short and reference op names', () => {
    expect(parseUntil('link')).toBe('link');
    expect(parseUntil('form_edges')).toBe('link');
    expect(parseUntil('rescore_importance')).toBe('rescore');
    expect(parseUntil('nope')).toBeNull();
  });
});
