/** Opens agents on a fresh temporary store (one file shared by every agent of a test). */
import { join } from 'node:path';
import { fixedClock, type Clock } from '../../core/clock.js';
import { openStore, type AgentMemory, type OpenStoreOptions } from '../../core/index.js';
import { tempDir } from '../../support/fixture.js';
import { freshPgLocation, testBackend } from '../../support/test-backend.js';

export const T0 = 1_750_000_000;

/** A clock the test can move: `clock.set(t)` / `clock.advance(s)`. */
export function movableClock(start = T0): Clock & { set(t: number): void; advance(s: number): void } {
  let now = start;
  return {
    now: () => now,
    set: (t) => {
      now = t;
    },
    advance: (s) => {
      now += s;
    },
  };
}

/** Where a new store goes: a file, or with MNEMO_TEST_BACKEND=postgres an empty schema (support/test-backend.ts). */
export function freshStorePath(): string {
  if (testBackend() === 'postgres') return freshPgLocation();
  return join(tempDir('mnemo-agents-'), 'memory.sqlite');
}

export function agentOn(path: string, owner: string, opts: OpenStoreOptions = {}): AgentMemory {
  return openStore(path, { clock: fixedClock(T0), session: `test-${owner || 'shared'}`, onWarning: () => {}, ...opts, owner });
}
