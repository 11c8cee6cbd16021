/**
 * What journal.progress says about a long write (api/handlers/shared/write-job.ts): the phase and
 * its count, an ETA from the pace kept in that phase alone, "cancelling" the moment a cancel is
 * asked (with the interrupted phase's ETA withdrawn: before, it kept rising for a minute), and a
 * cancel when the call's caller goes away (api/call-signal.ts).
 */
import { describe, expect, it } from 'vitest';
import { withCallSignal } from '../../core/api/call-signal.js';
import { WriteJob, type JobControl } from '../../core/api/handlers/shared/write-job.js';

const NOW = 1_780_000_000;

/** A job whose clock the test moves, and a way to hold its work open. */
function setUp() {
  let ms = 0;
  const job = new WriteJob({ now: () => NOW }, () => ms);
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let ctl!: JobControl;
  const started = (work?: (c: JobControl) => Promise<string>) =>
    job.run('reflect.apply', true, async (c) => {
      ctl = c;
      if (work) return work(c);
      await held;
      if (c.cancelled()) throw new Error('cancelled');
      return 'done';
    });
  return { job, advance: (by: number) => (ms += by), release, control: () => ctl, started };
}

describe('a long write as journal.progress reports it', () => {
  it('counts the current phase, with an ETA from that phase\'s own pace', async () => {
    const { job, advance, release, control, started } = setUp();
    const running = started();
    await Promise.resolve();
    expect(job.progress()).toMatchObject({ running: true, phase: null, eta_s: null, cancellable: true, started_at: NOW });
    // A slow check of 12 s, then items at 100 a second.
    control().progress(0, 5000, 'check');
    advance(12_000);
    control().progress(5000, 5000, 'check');
    control().progress(0, 10_000, 'apply');
    for (let i = 1; i <= 20; i++) {
      advance(250);
      control().progress(i * 25, 10_000, 'apply');
    }
    expect(job.progress()).toMatchObject({ phase: 'apply', phase_label: 'applying the accepted items', unit: 'items', done: 500, total: 10_000, eta_s: 95, elapsed_s: 17 });
    release();
    expect(await running).toBe('done');
    expect(job.progress()).toMatchObject({ running: false, phase: null });
  });

  it('says cancelling at once, withdraws the interrupted phase\'s ETA, and times the take-back on its own', async () => {
    const { job, advance, release, control, started } = setUp();
    const running = started();
    await Promise.resolve();
    control().progress(0, 10_000, 'apply');
    for (let i = 1; i <= 20; i++) {
      advance(250);
      control().progress(i * 25, 10_000, 'apply');
    }
    expect(job.progress().eta_s).not.toBeNull();
    expect(job.cancel()).toEqual({ cancelled: true });
    expect(job.progress()).toMatchObject({ running: true, cancelling: true, phase: 'apply', eta_s: null });
    expect(control().cancelled()).toBe(true);
    // The take-back of 2,000 rows at 1,000 a second.
    control().progress(0, 2000, 'take-back');
    for (let i = 1; i <= 8; i++) {
      advance(250);
      control().progress(i * 250, 2000, 'take-back');
      if (i === 6) expect(job.progress()).toMatchObject({ phase: 'take-back', phase_label: 'taking back what was written', unit: 'rows', cancelling: true, eta_s: 1 });
    }
    release();
    await expect(running).rejects.toThrow('cancelled');
    expect(job.cancel()).toEqual({ cancelled: false });
  });

  it('refuses a second long write while one runs', async () => {
    const { job, release, started } = setUp();
    const running = started();
    await expect(job.run('journal.undo', true, async () => 'x')).rejects.toMatchObject({ code: 'busy' });
    release();
    await running;
  });

  it('is cancelled when the caller of the call that started it goes away', async () => {
    const { job, control, started } = setUp();
    const gone = new AbortController();
    let seen = false;
    const running = withCallSignal(gone.signal, () =>
      started(async (c) => {
        while (!c.cancelled()) await new Promise((r) => setTimeout(r, 5));
        seen = true;
        return 'stopped';
      }),
    );
    await new Promise((r) => setTimeout(r, 20));
    expect(control().cancelled()).toBe(false);
    gone.abort();
    expect(job.progress().cancelling).toBe(true);
    expect(await running).toBe('stopped');
    expect(seen).toBe(true);
  });

  it("names an erase's phases, gives its memories an ETA, and refuses a cancel past its first write", async () => {
    const { job, advance, control, started } = setUp();
    let pass!: () => void;
    const planned = new Promise<void>((r) => (pass = r));
    let erased!: () => void;
    const written = new Promise<void>((r) => (erased = r));
    const running = started(async (c) => {
      c.progress(0, 1, 'planning');
      await planned;
      c.pastPointOfNoReturn(() => new Error('cancelled before its first write'));
      c.progress(0, 4000, 'erasing');
      await written;
      return 'erased';
    });
    await Promise.resolve();
    expect(job.progress()).toMatchObject({ phase: 'planning', phase_label: 'working out what to erase', unit: 'steps', cancellable: true, eta_s: null });
    pass();
    await new Promise((r) => setTimeout(r, 0));
    for (let i = 1; i <= 8; i++) {
      advance(250);
      control().progress(i * 100, 4000, 'erasing');
    }
    expect(job.progress()).toMatchObject({ phase: 'erasing', phase_label: 'erasing the memories', unit: 'memories', done: 800, cancellable: false, eta_s: 8 });
    expect(job.cancel()).toEqual({ cancelled: false });
    expect(job.progress().cancelling).toBe(false);
    erased();
    expect(await running).toBe('erased');
  });

  it('lets a cancel asked while an erase plans end it before its first write', async () => {
    const { job, started } = setUp();
    let pass!: () => void;
    const planned = new Promise<void>((r) => (pass = r));
    const running = started(async (c) => {
      c.progress(0, 1, 'planning');
      await planned;
      c.pastPointOfNoReturn(() => new Error('cancelled before its first write'));
      return 'erased';
    });
    await Promise.resolve();
    expect(job.cancel()).toEqual({ cancelled: true });
    pass();
    await expect(running).rejects.toThrow('cancelled before its first write');
  });
});
