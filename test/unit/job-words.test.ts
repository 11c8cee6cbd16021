/**
 * The words the workbench puts on a long job: the bar's line from journal.progress
 * (components/JobProgress.tsx) and the Recall console's timing (views/recall/WaitedFor.tsx). What
 * was wrong before: a commit's bar said "about 525 min left" from a pace that included a 12 s
 * check, kept its ETA rising after Cancel, and the first recall said "565.6 ms" after a 16.6 s wait.
 */
import { describe, expect, it } from 'vitest';
import type { WriteJobState } from '../../core/api/contract/journal.js';
import { elapsedText, etaText, jobLine } from '../../renderer/components/job-words.js';
import { waitedText } from '../../renderer/views/recall/waited.js';

const running = (p: Partial<WriteJobState>): WriteJobState => ({
  running: true,
  kind: 'reflect.apply',
  phase: 'apply',
  phase_label: 'applying the accepted items',
  unit: 'items',
  done: 0,
  total: 0,
  started_at: 1_780_000_000,
  elapsed_s: 1,
  eta_s: null,
  cancelling: false,
  cancellable: true,
  ...p,
});

describe('the bar of a long job', () => {
  it('names the phase, counts its units and gives the time left', () => {
    expect(jobLine('Committing', running({ done: 5115, total: 51_153, eta_s: 540 }), false)).toEqual({
      text: 'Committing: applying the accepted items: 5,115 of 51,153 items (9 %) · about 9 min left',
      share: 5115 / 51_153,
    });
    expect(jobLine('Undoing change #12', running({ phase: 'undo', phase_label: 'restoring the rows it changed', unit: 'rows', done: 1, total: 1, eta_s: 0 }), false).text).toBe(
      'Undoing change #12: restoring the rows it changed: 1 of 1 row (100 %) · about 1 s left',
    );
    expect(jobLine('Committing', running({ phase: 'hold', phase_label: 'letting the other processes load the new indexes', unit: 'seconds', done: 2.5, total: 5, eta_s: 3 }), false).text).toBe(
      'Committing: letting the other processes load the new indexes: 2.5 of 5.0 seconds (50 %) · about 3 s left',
    );
  });

  it("says an erase's memories as memories", () => {
    expect(jobLine('Erase', running({ kind: 'memory.erase', phase: 'erasing', phase_label: 'erasing the memories', unit: 'memories', done: 1200, total: 4000, eta_s: 7, cancellable: false }), false).text).toBe(
      'Erase: erasing the memories: 1,200 of 4,000 memories (30 %) · about 7 s left',
    );
  });

  it('never shows a share before the engine has said one', () => {
    expect(jobLine('Committing', undefined, false)).toEqual({ text: 'Committing…', share: null });
    expect(jobLine('Committing', running({ phase: null, phase_label: null }), false).share).toBeNull();
  });

  it('says cancelling the moment Cancel is pressed, then counts the take-back', () => {
    expect(jobLine('Committing', undefined, true).text).toBe('Committing: cancelling…');
    expect(jobLine('Committing', running({ done: 100, total: 1000, eta_s: 30 }), true).text).toBe('Committing: cancelling… stopping after the current step');
    expect(jobLine('Committing', running({ phase: 'take-back', phase_label: 'taking back what was written', unit: 'rows', done: 1200, total: 4000, eta_s: 2, cancelling: true }), false).text).toBe(
      'Committing: cancelling… taking back what was written: 1,200 of 4,000 rows (30 %) · about 2 s left',
    );
  });

  it('writes times a person reads', () => {
    expect(etaText(null)).toBeNull();
    expect(etaText(0)).toBe('about 1 s left');
    expect(etaText(59)).toBe('about 59 s left');
    expect(etaText(31_500)).toBe('about 8.8 h left');
    expect(elapsedText(65.4)).toBe('1 min 05 s');
  });
});

describe("the Recall console's timing", () => {
  it('is the whole wait, with the builds the engine did named before the ranking', () => {
    expect(waitedText(16_600, { elapsed_ms: 565.6, built: [{ index: 'recall.mnemo.bm25.porter', label: 'keyword index', ms: 14_200 }] })).toBe('answered in 16.6 s: building the keyword index 14.2 s, ranking 565.6 ms');
    expect(waitedText(12.34, { elapsed_ms: 4.5, built: [] })).toBe('answered in 12.3 ms: ranking 4.5 ms');
  });
});
