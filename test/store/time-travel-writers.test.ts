/**
 * Issue #16's acceptance for time travel: 500 scripted changes by this process, by a second Mnemo
 * process and by the real nooa package (a foreign writer: skipped, with the reason printed, where
 * the reference package is absent), interleaved. At 20 instants during the script every column of
 * `memories` and `memory_edges` is snapshotted; afterwards the store as of each instant equals its
 * snapshot, row for row.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectionOf } from '../../core/store/sqlite/connection.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/fixture.js';
import { rng } from '../../core/demo/generate.js';
import {
  inProcessWriter,
  mnemoChildWriter,
  nooaAvailable,
  nooaWriter,
  NOOA_REFERENCE,
  snapshotFile,
  snapshotTables,
  wallClock,
  type TableSnapshot,
  type Writer,
  type WriterOp,
} from '../../support/history-writers.js';

const CHANGES = 500;
const INSTANTS = 20;


const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the script knows of the store, to pick operations that apply. */
class Script {
  readonly alive: string[] = [];
  readonly archived = new Set<string>();
  readonly edges = new Set<string>();
  constructor(private readonly rand: () => number) {}

  private any(): string {
    return this.alive[Math.floor(this.rand() * this.alive.length)]!;
  }

  next(n: number): WriterOp {
    const r = this.rand();
    if (this.alive.length < 8 || r < 0.22) return { op: 'add', content: `memory ${n}: ${Math.floor(this.rand() * 1e6)}`, importance: Math.round(this.rand() * 100) / 10 };
    const id = this.any();
    if (r < 0.37) return { op: 'update', id, content: `edited ${n}`, importance: Math.round(this.rand() * 100) / 10 };
    if (r < 0.6) return { op: 'touch', id, ts: Date.now() / 1000 };
    if (r < 0.7) return { op: this.archived.has(id) ? 'restore' : 'archive', id };
    if (r < 0.84) {
      const dst = this.any();
      if (dst !== id) return { op: 'link', id, dst, weight: Math.round(this.rand() * 9) / 10 + 0.1 };
      return { op: 'touch', id, ts: Date.now() / 1000 };
    }
    if (r < 0.93) {
      const edge = [...this.edges].find((e) => e.startsWith(`${id}>`));
      if (edge) return { op: 'unlink', id, dst: edge.split('>')[1]! };
      return { op: 'update', id, content: `rewritten ${n}` };
    }
    return { op: 'delete', id };
  }

  applied(op: WriterOp, id: string): void {
    if (op.op === 'add') this.alive.push(id);
    else if (op.op === 'archive') this.archived.add(id);
    else if (op.op === 'restore') this.archived.delete(id);
    else if (op.op === 'link') this.edges.add(`${id}>${op.dst}`);
    else if (op.op === 'unlink') this.edges.delete(`${id}>${op.dst}`);
    else if (op.op === 'delete') {
      this.alive.splice(this.alive.indexOf(id), 1);
      this.archived.delete(id);
      for (const e of [...this.edges]) if (e.startsWith(`${id}>`) || e.endsWith(`>${id}`)) this.edges.delete(e);
    }
  }
}

describe('time travel over changes by every writer', () => {
  const writers: Writer[] = [];
  afterEach(async () => {
    for (const w of writers.splice(0)) await w.close();
  });

  it('shows the store at each of 20 instants exactly as a snapshot taken then', { timeout: 240_000, tags: ['external-data'] }, async () => {
    const path = join(tempDir('mnemo-tt-'), 'store.sqlite');
    const store = MemoryStore.open(path, { create: true, clock: wallClock, onWarning: () => {} });
    writers.push(inProcessWriter(store), mnemoChildWriter(path));
    if (nooaAvailable()) writers.push(nooaWriter(path));
    else console.log(`time travel: the nooa writer is skipped, because the reference package is not at ${NOOA_REFERENCE}`);

    const script = new Script(rng(16));
    const samples: { at: number; snapshot: TableSnapshot }[] = [];
    const byWriter = new Map<string, number>();
    for (let n = 0; n < CHANGES; n++) {
      const writer = writers[n % writers.length]!;
      const op = script.next(n);
      const id = await writer.apply(op);
      script.applied(op, id);
      byWriter.set(writer.name, (byWriter.get(writer.name) ?? 0) + 1);
      if ((n + 1) % (CHANGES / INSTANTS) === 0) {
        // Every change so far has committed; the next one starts after the instant (milliseconds apart).
        await sleep(3);
        const at = Date.now() / 1000;
        samples.push({ at, snapshot: snapshotFile(path) });
        await sleep(3);
      }
    }
    expect(samples).toHaveLength(INSTANTS);
    for (const w of writers) expect(byWriter.get(w.name)).toBeGreaterThan(100);

    for (const [i, { at, snapshot }] of samples.entries()) {
      const past = MemoryStore.openAsOf(path, at, { onWarning: () => {} });
      try {
        expect(past.history!.live).toBe(i === samples.length - 1);
        expect(snapshotTables(connectionOf(past)), `instant ${i + 1} of ${INSTANTS}`).toEqual(snapshot);
      } finally {
        past.close();
      }
    }
  });
});
