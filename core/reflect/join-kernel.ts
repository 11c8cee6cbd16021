/**
 * Drives the WebAssembly join kernel (join-kernel.wat) over one worker's share of the probe rows:
 * group by group (see join-layout.ts), rows offset, offset + stride, …, draining the kernel's pair
 * buffer into growing arrays.
 *
 * This function is self-contained on purpose (no imports, no helpers outside it): worker threads
 * run it from its own source text, so the single-threaded and parallel joins are the same code.
 */
import type { JoinLayout } from './join-layout.js';
import type { WasmApi, WasmGlobal } from './wasm-api.js';

export interface JoinOutput {
  pi: Int32Array;
  pj: Int32Array;
  pc: Float32Array;
  np: number;
  postings: number;
  bounded: number;
  exact: number;
  stopped: boolean;
}

/**
 * `progress[0]` counts the rows this slice has probed, summed over groups (Atomics, so the thread
 * that started the workers can read it while they run).
 */
export function runJoinSlice(layout: JoinLayout, wasmBase64: string, worker: number, workers: number, stop: Int32Array, progress: Int32Array): JoinOutput {
  // Rows per kernel call between two looks at the stop flag.
  const chunk = 512;
  // Not the imported `wasm` handle: this function's source is also run inside worker threads, where
  // only globals exist.
  const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
  const bytes = Uint8Array.from(atob(wasmBase64), (ch) => ch.charCodeAt(0));
  const instance = new wasm.Instance(new wasm.Module(bytes), { env: { mem: layout.memory } });
  const ex = instance.exports as unknown as Record<string, WasmGlobal> & { probeRange(g: number, i0: number, i1: number, stride: number): number };
  for (const [name, offset] of Object.entries(layout.at)) ex[name]!.value = offset;
  const scratch = layout.scratch[worker]!;
  ex.stamp!.value = scratch.stamp;
  ex.dense!.value = scratch.dense;
  ex.outI!.value = scratch.outI;
  ex.outJ!.value = scratch.outJ;
  ex.outC!.value = scratch.outC;
  ex.cap!.value = layout.cap;
  ex.T!.value = layout.tokens;
  ex.gsize!.value = layout.groupSize;
  ex.lo2!.value = layout.lo * layout.lo;
  ex.minCos!.value = layout.minCos;
  const buf = layout.memory.buffer;
  new Int32Array(buf, scratch.stamp, layout.n).fill(-1);
  new Float64Array(buf, scratch.dense, layout.dim).fill(0);
  const outI = new Int32Array(buf, scratch.outI, layout.cap);
  const outJ = new Int32Array(buf, scratch.outJ, layout.cap);
  const outC = new Float32Array(buf, scratch.outC, layout.cap);
  let pi = new Int32Array(1 << 12);
  let pj = new Int32Array(1 << 12);
  let pc = new Float32Array(1 << 12);
  let np = 0;
  const drain = () => {
    const m = ex.np!.value as number;
    if (np + m > pi.length) {
      let size = pi.length * 2;
      while (size < np + m) size *= 2;
      const a = new Int32Array(size);
      a.set(pi.subarray(0, np));
      pi = a;
      const b = new Int32Array(size);
      b.set(pj.subarray(0, np));
      pj = b;
      const c = new Float32Array(size);
      c.set(pc.subarray(0, np));
      pc = c;
    }
    pi.set(outI.subarray(0, m), np);
    pj.set(outJ.subarray(0, m), np);
    pc.set(outC.subarray(0, m), np);
    np += m;
    ex.np!.value = 0;
  };
  const n = layout.n;
  let stopped = false;
  for (let g = 0; g < layout.groups && !stopped; g++) {
    // Rows before the group have nothing to find in it (pairs are probed from the later row).
    const first = Math.max(worker, g * layout.groupSize);
    let i = worker + Math.ceil((first - worker) / workers) * workers;
    while (i < n) {
      if (stop[0] !== 0) {
        stopped = true;
        break;
      }
      const end = Math.min(n, i + chunk * workers);
      const from = i;
      i = ex.probeRange(g, i, end, workers);
      Atomics.add(progress, 0, Math.ceil((i - from) / workers));
      if (i < end) drain();
    }
  }
  drain();
  return {
    pi: pi.slice(0, np),
    pj: pj.slice(0, np),
    pc: pc.slice(0, np),
    np,
    postings: ex.postings!.value as number,
    bounded: ex.bounded!.value as number,
    exact: ex.exact!.value as number,
    stopped,
  };
}
