/**
 * The fast paths behind recall must give exactly what the slow ones give: the data-JSON scan
 * against the full record decoder, and the vector index's inverted layout against its columns.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { VectorIndex } from '../../core/embed/vector-index.js';
import { ACTR_CHANNELS } from '../../core/model/enums.js';
import { cueSet } from '../../core/model/memory.js';
import { pyDumps } from '../../core/model/pyjson.js';
import { scanScoringFields } from '../../core/recall/data-scan.js';
import { decodeRow, type MemoryRow } from '../../core/store/port/codec.js';
import { FIXTURE_AFTER, FIXTURE_STORE } from '../../support/fixture.js';

describe('scanScoringFields', () => {
  it('matches the full decoder on every record of both fixture stores', () => {
    for (const path of [FIXTURE_STORE, FIXTURE_AFTER]) {
      const db = new Database(path, { readonly: true });
      const rows = db.prepare('SELECT rowid, * FROM memories').all() as MemoryRow[];
      db.close();
      for (const row of rows) {
        const m = decodeRow(row, []).memory;
        const fast = scanScoringFields(row.data);
        expect(fast, row.id).not.toBeNull();
        expect({ ...fast!, cues: cueSet(fast!) }).toEqual({
          type: m.type,
          importance: m.importance,
          title: m.title,
          tags: m.tags,
          entities: m.entities,
          place_or_task: m.place_or_task,
          cues: cueSet(m),
          actr: Float64Array.from(m.access_log.filter((e) => ACTR_CHANNELS.has(e.channel)).map((e) => e.ts)),
        });
      }
    }
  });

  it('declines shapes it cannot read safely, so the caller decodes them whole', () => {
    const base = { id: 'x', type: 'info', title: null, content: 'c', importance: 5 };
    const tail = { access_count: 0, tags: [], entities: [], place_or_task: null };
    const dump = (log: unknown[]) => pyDumps({ ...base, access_log: log, ...tail } as never);
    expect(scanScoringFields(dump([{ ts: 1, channel: 'created' }]))!.actr).toEqual(Float64Array.from([1]));
    expect(scanScoringFields(dump([1.5, 2.5]))).toBeNull(); // legacy ring of bare floats
    expect(scanScoringFields(dump([{ channel: 'created', ts: 1 }]))).toBeNull(); // another key order
    expect(scanScoringFields('{"id": "x", "content": "no ring here"}')).toBeNull();
    // Content that quotes the markers is escaped inside its JSON string and does not confuse the scan.
    const tricky = pyDumps({ ...base, content: '"access_log": [{"ts": 9, "channel": "recalled"}], "access_count": 3', access_log: [{ ts: 2, channel: 'deref' }], ...tail } as never);
    expect(scanScoringFields(tricky)!.actr).toEqual(Float64Array.from([2]));
  });
});

describe('VectorIndex inverted layout', () => {
  it('gives bit-identical cosines and the same neighbours as the column scan, through upserts and removals', () => {
    const dim = 64;
    let seed = 3;
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    const sparseVec = () => {
      const v = new Float32Array(dim);
      for (let i = 0; i < 6; i++) v[Math.floor(rand() * dim)] = rand() - 0.4;
      return v;
    };
    const big = new VectorIndex(dim); // above the size where the inverted layout is used
    const vecs: Float32Array[] = [];
    for (let i = 0; i < 6000; i++) {
      vecs.push(sparseVec());
      big.upsert(`m${i}`, vecs[i]!, i % 3 ? 'A' : 'B', i);
    }
    const check = () => {
      for (let t = 0; t < 20; t++) {
        const q = sparseVec();
        const a = big.knn(q, 50);
        const b = bruteKnn(vecs, q, 50, (i) => big.has(`m${i}`));
        expect(a).toEqual(b);
        expect(big.knn(q, 30, { owner: (o) => o === 'B' }).every((h) => Number(h.id.slice(1)) % 3 === 0)).toBe(true);
      }
    };
    check();
    for (let i = 0; i < 200; i++) {
      const k = Math.floor(rand() * vecs.length);
      if (i % 4 === 0) big.remove(`m${k}`);
      else {
        vecs[k] = sparseVec();
        big.upsert(`m${k}`, vecs[k]!, k % 3 ? 'A' : 'B', k);
      }
    }
    for (let i = 0; i < 50; i++) {
      vecs.push(sparseVec());
      big.upsert(`m${vecs.length - 1}`, vecs[vecs.length - 1]!, 'A', vecs.length - 1);
    }
    check();
  });
});

/** Exact cosine in dimension order (the same sums both layouts compute), ties by rowid. */
function bruteKnn(vecs: Float32Array[], q: Float32Array, k: number, alive: (i: number) => boolean) {
  const hits: { id: string; cos: number; i: number }[] = [];
  vecs.forEach((v, i) => {
    if (!alive(i)) return;
    let a = 0;
    for (let j = 0; j < q.length; j++) if (q[j] !== 0) a = a + q[j]! * v[j]!;
    hits.push({ id: `m${i}`, cos: a, i });
  });
  hits.sort((x, y) => y.cos - x.cos || x.i - y.i);
  return hits.slice(0, k).map(({ id, cos }) => ({ id, cos }));
}
