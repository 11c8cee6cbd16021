/**
 * Time source for everything that depends on "now". Every time-dependent path takes a Clock,
 * so replays, tests and benchmarks are deterministic (epoch seconds, float, as nooa stores them).
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() / 1000 };

export function fixedClock(t: number): Clock {
  return { now: () => t };
}
