/**
 * A commit notice moves the live views' generation at once, even when the store's own check
 * cannot yet find the commit (PostgreSQL's feed sees another connection's rows only once every
 * older transaction has ended). The store here is a stand-in: what is checked is LiveRefresh's rule.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiSession } from '../../core/api/context.js';
import { LiveRefresh } from '../../core/host/live-refresh.js';

function watchedStore(found: () => boolean) {
  const heard: { notify: (() => void) | null; checks: number } = { notify: null, checks: 0 };
  const store = {
    refreshIfChanged: () => {
      heard.checks += 1;
      return found();
    },
    watchCommits: (onCommit: () => void) => {
      heard.notify = onCommit;
      return () => (heard.notify = null);
    },
  };
  const session = { hasEngine: true, engine: () => ({ store }) } as unknown as ApiSession;
  return { session, heard };
}

const settle = () => new Promise((r) => setTimeout(r, 60));

describe('live refresh woken by a commit notice', () => {
  let live: LiveRefresh | null = null;
  afterEach(() => live?.stop());

  it('moves the generation when the notice comes, though the check finds nothing yet', async () => {
    const { session, heard } = watchedStore(() => false);
    live = new LiveRefresh(session, 3_600_000); // no poll during the test
    live.start();
    live.check(); // the first poll finds the store and starts hearing it
    expect(heard.notify).not.toBeNull();
    const before = live.generation;
    heard.notify!();
    await settle();
    expect(heard.checks).toBe(2); // the notice woke a check
    expect(live.generation).toBe(before + 1);
  });

  it('moves it once for notices that arrive together, and once when the check itself finds the commit', async () => {
    let found = false;
    const { session, heard } = watchedStore(() => found);
    live = new LiveRefresh(session, 3_600_000);
    live.start();
    live.check();
    const before = live.generation;
    for (let i = 0; i < 5; i++) heard.notify!();
    await settle();
    expect(live.generation).toBe(before + 1);
    found = true;
    heard.notify!();
    await settle();
    expect(live.generation).toBe(before + 2);
  });

  it('does not move without a notice or a finding', async () => {
    const { session } = watchedStore(() => false);
    live = new LiveRefresh(session, 3_600_000);
    live.start();
    live.check();
    const before = live.generation;
    await settle();
    live.check();
    expect(live.generation).toBe(before);
  });
});
