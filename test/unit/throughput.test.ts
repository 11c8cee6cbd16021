/**
 * The ETA of a long job comes from the pace it keeps now (model/throughput.ts). The case that
 * failed before: a commit spent its first 12 s checking the store (no item done), then applied
 * items at a steady pace; an ETA from the average since the start said "about 525 min left" and
 * fell from there. Measured over a recent window, it says what the pace says.
 */
import { describe, expect, it } from 'vitest';
import { MIN_MEASURED_MS, PACE_WINDOW_MS, ThroughputMeter } from '../../core/model/throughput.js';

describe('the pace of a long job', () => {
  it('gives no ETA before it has measured a pace', () => {
    const m = new ThroughputMeter();
    m.note(0, 1000, 0);
    expect(m.etaSeconds(0)).toBeNull();
    m.note(10, 1000, MIN_MEASURED_MS - 1);
    expect(m.etaSeconds(MIN_MEASURED_MS - 1)).toBeNull();
    m.note(20, 1000, MIN_MEASURED_MS + 100);
    expect(m.etaSeconds(MIN_MEASURED_MS + 100)).not.toBeNull();
  });

  it('forgets a slow start: after a 12 s wait, 100 items a second over 100,000 items says about 1,000 s', () => {
    const m = new ThroughputMeter();
    m.note(0, 100_000, 0);
    // Nothing done for 12 s, then 100 items per second, reported every 250 ms.
    let t = 12_000;
    let done = 0;
    for (; t <= 12_000 + 2 * PACE_WINDOW_MS; t += 250) m.note((done = Math.round(((t - 12_000) / 1000) * 100)), 100_000, t);
    const eta = m.etaSeconds(t - 250)!;
    const left = (100_000 - done) / 100;
    expect(Math.abs(eta - left) / left).toBeLessThan(0.02);
    // The average since the start would have said 25 % more.
    const sinceStart = (100_000 - done) / (done / ((t - 250) / 1000));
    expect(sinceStart / left).toBeGreaterThan(1.2);
  });

  it('follows a change of pace within its window, and counts a stall as a slower pace', () => {
    const m = new ThroughputMeter();
    let t = 0;
    let done = 0;
    for (; t < 30_000; t += 100) m.note((done += 10), 1_000_000, t); // 100 a second
    for (; t < 30_000 + PACE_WINDOW_MS + 1000; t += 100) m.note((done += 1), 1_000_000, t); // then 10 a second
    const slow = (1_000_000 - done) / 10;
    expect(Math.abs(m.etaSeconds(t)! - slow) / slow).toBeLessThan(0.05);
    // No item for 10 s: the pace measured over the window drops, so the ETA grows.
    const stalled = m.etaSeconds(t + 10_000)!;
    expect(stalled).toBeGreaterThan(m.etaSeconds(t)!);
  });

  it('says 0 when nothing is left, and starts over when the count goes back', () => {
    const m = new ThroughputMeter();
    m.note(0, 10, 0);
    m.note(10, 10, 5000);
    expect(m.etaSeconds(5000)).toBe(0);
    m.note(0, 50, 6000);
    expect(m.etaSeconds(6000)).toBeNull();
  });

  it('has no ETA while the job has not counted its items (0 of 0), however long that lasts', () => {
    const m = new ThroughputMeter();
    m.note(0, 0, 0);
    m.note(0, 0, 30_000);
    expect(m.etaSeconds(30_000)).toBeNull();
    m.note(100, 1000, 31_000);
    m.note(200, 1000, 33_000);
    expect(m.etaSeconds(33_000)).toBeGreaterThan(1);
  });
});
