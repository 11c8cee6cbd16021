import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { startWorker } from '../../core/host/worker-thread.js';
import { DEFAULT_JOBS_NICE, jobsNiceFromEnv, lowerThisThreadPriority } from '../../core/host/thread-priority.js';

function inWorker(nice: number): Promise<{ outcome: { lowered: boolean }; own: number; inner: number }> {
  const worker = startWorker(new URL('../helpers/priority-child.ts', import.meta.url).href, { workerData: { nice } });
  return new Promise((resolve, reject) => {
    worker.once('message', (m) => {
      resolve(m);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

describe('the jobs lane yields the CPU', () => {
  it.runIf(process.platform === 'linux')('lowers only the calling thread and the threads it starts, never the serving thread', async () => {
    const before = getPriority(0);
    const target = Math.min(19, before + 7);
    const seen = await inWorker(target);
    expect(seen.outcome.lowered).toBe(true);
    expect(seen.own).toBe(target);
    expect(seen.inner).toBe(target);
    // The thread that answers people and agents keeps its priority.
    expect(getPriority(0)).toBe(before);
  });

  it('is not made where a priority belongs to the whole process', () => {
    expect(lowerThisThreadPriority(10, 'darwin')).toEqual({ lowered: false, reason: 'darwin sets priority per process, not per thread' });
    expect(lowerThisThreadPriority(10, 'win32').lowered).toBe(false);
  });

  it('leaves the thread alone when asked for no change', () => {
    expect(lowerThisThreadPriority(0)).toEqual({ lowered: false, reason: 'not asked' });
  });
});

describe('MNEMO_JOBS_NICE', () => {
  it('defaults when unset or empty, and takes 0 to 19', () => {
    expect(jobsNiceFromEnv({})).toBe(DEFAULT_JOBS_NICE);
    expect(jobsNiceFromEnv({ MNEMO_JOBS_NICE: ' ' })).toBe(DEFAULT_JOBS_NICE);
    expect(jobsNiceFromEnv({ MNEMO_JOBS_NICE: '0' })).toBe(0);
    expect(jobsNiceFromEnv({ MNEMO_JOBS_NICE: '19' })).toBe(19);
  });

  it("gives a host's own default when unset (the MCP host's is 0), and the variable over it", () => {
    expect(jobsNiceFromEnv({}, 0)).toBe(0);
    expect(jobsNiceFromEnv({ MNEMO_JOBS_NICE: '7' }, 0)).toBe(7);
  });

  it.each(['-1', '20', '5.5', 'low', '1e400'])('refuses %s by name, with the range', (value) => {
    expect(() => jobsNiceFromEnv({ MNEMO_JOBS_NICE: value })).toThrow(expect.objectContaining({ code: 'bad_input', message: expect.stringMatching(/^MNEMO_JOBS_NICE must be a whole number from 0 to 19/) }));
  });
});
