/**
 * mulberry32: a small, fast seeded generator of 32-bit integers. Used where the same seed must give
 * the same numbers on every machine (the demo store's synthetic data, the co-occurrence space's
 * projection patterns); not for anything that must be unpredictable.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}
