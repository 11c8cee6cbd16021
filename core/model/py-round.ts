/**
 * Python's `round(x, 4)`: the exact binary value rounded to 4 decimals, ties to even. JS's
 * `toFixed` rounds exact ties away from zero (0.03125 → 0.0313 where Python gives 0.0312).
 */
export function pyRound(x: number, digits = 4): number {
  if (!Number.isFinite(x)) return x;
  if (Math.abs(x) >= 1e15) return x;
  const fixed = x.toFixed(digits);
  // toFixed rounds the exact binary value, as Python does, except on an exact tie; only a value
  // sitting (almost) halfway between two outputs needs the slow look at its exact expansion.
  const scaledAbs = Math.abs(x) * 10 ** digits;
  if (Math.abs(scaledAbs - Math.floor(scaledAbs) - 0.5) > 1e-6) return Number(fixed);
  const exact = Math.abs(x).toFixed(Math.min(100, digits + 60));
  const rest = exact.slice(exact.indexOf('.') + 1 + digits);
  if (/^50*$/.test(rest)) {
    const scaled = Math.trunc(Math.abs(x) * 10 ** digits);
    const even = scaled % 2 === 0 ? scaled : scaled + 1;
    const v = even / 10 ** digits;
    return x < 0 ? -v : v;
  }
  return Number(fixed);
}
