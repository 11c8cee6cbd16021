import { existsSync } from 'node:fs';
import { badInput } from '../../core/errors.js';
import { generateDemo } from '../../core/demo/generate.js';
import { flag, intOpt, requirePositional, type Command } from '../command.js';
import { openSession } from '../session.js';
import { writeSimulatedLogCommand } from './demo-simulated-log.js';
import { countMemories } from '../../core/store/queries/memory-lookups.js';

export const demoCommand: Command = {
  name: 'demo',
  summary: 'build a realistic synthetic store (every type, owners, edges, months of accesses, near-duplicates)',
  usage:
    'mnemo demo <db> [--size N] [--seed S] [--force] [--now T] [--json]\n' +
    '       mnemo demo <db> --simulated-log [--weight name=value]... [--groups N] [--members N] [--seed S] [--now T] [--json]\n' +
    '         (a new store whose access log a simulated agent with known weights wrote, for mnemo tune log)',
  timed: true,
  options: {
    size: { type: 'string' },
    seed: { type: 'string' },
    force: { type: 'boolean' },
    'simulated-log': { type: 'boolean' },
    weight: { type: 'string', multiple: true },
    groups: { type: 'string' },
    members: { type: 'string' },
  },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    const seed = intOpt(ctx, 'seed', 7, [0, 2 ** 31]);
    if (flag(ctx, 'simulated-log')) {
      const report = writeSimulatedLogCommand(ctx, db, seed);
      ctx.io.out(
        ctx.json
          ? JSON.stringify(report)
          : `simulated log ${db}: ${report.sessions} sessions over ${report.groups} groups of ${report.members} memories, the agent's weights ${JSON.stringify(report.truth)} on the mnemo profile\nnext: mnemo tune log ${db} --out <dir> --k 1 --windows ${Math.min(64, report.sessions)}`,
      );
      return;
    }
    const size = intOpt(ctx, 'size', 2000, [1, 2_000_000]);
    const session = openSession(ctx, db, { create: true });
    try {
      const store = session.engine().store;
      if (existsSync(db) && countMemories(store, { includeArchived: true }) > 0 && !flag(ctx, 'force')) {
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
