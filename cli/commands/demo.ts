import { existsSync } from 'node:fs';
import { badInput } from '../../core/errors.js';
import { generateDemo } from '../../core/demo/generate.js';
import { flag, intOpt, requirePositional, type Command } from '../command.js';
import { openSession } from '../session.js';

export const demoCommand: Command = {
  name: 'demo',
  summary: 'build a realistic synthetic store (every type, owners, edges, months of accesses, near-duplicates)',
  usage: 'mnemo demo <db> [--size N] [--seed S] [--force] [--now T] [--json]',
  timed: true,
  options: { size: { type: 'string' }, seed: { type: 'string' }, force: { type: 'boolean' } },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    const size = intOpt(ctx, 'size', 2000, [1, 2_000_000]);
    const seed = intOpt(ctx, 'seed', 7, [0, 2 ** 31]);
    const session = openSession(ctx, db, { create: true });
    try {
      const store = session.engine().store;
      if (existsSync(db) && store.count({ includeArchived: true }) > 0 && !flag(ctx, 'force')) {
        throw badInput(`${db} already holds memories; pass --force to add demo memories to it, or choose a new path`);
      }
      const report = generateDemo(store, {
        size,
        seed,
        now: ctx.clock.now(),
        onProgress: (done, total) => {
          if (!ctx.json && total >= 10_000 && done % 10_000 === 0) ctx.io.err(`generated ${done}/${total}`);
        },
      });
      ctx.io.out(
        ctx.json
          ? JSON.stringify(report)
          : `demo store ${db}: ${report.memories} memories, ${report.edges} edges, ${report.access_events} access events, ${report.near_duplicates} near-duplicates, ${report.belief_observations} belief observations in ${report.seconds.toFixed(1)} s`,
      );
    } finally {
      session.close();
    }
  },
};
