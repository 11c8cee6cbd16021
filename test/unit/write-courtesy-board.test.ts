/**
 * The write-courtesy board as the engine host makes it (host-protocol.ts) and its workers use it
 * (write-courtesy.ts): each worker counts the accesses it keeps in a word of its own, a long
 * change reads the sum, and a worker that stops takes its count with it when the host clears its
 * word. Without that, a worker lost with accesses kept would stretch every pause after it.
 */
import { describe, expect, it } from 'vitest';
import { courtesyBoard, forgetKeptBy } from '../../core/host/host-protocol.js';
import { keptAccesses, noteKeptAccesses, useCourtesyBoard } from '../../core/store/port/write-courtesy.js';

describe('the write-courtesy board of an engine host', () => {
  it("sums the workers' kept accesses, and forgets a stopped worker's", () => {
    const board = courtesyBoard(3);
    const counts = new Int32Array(board);
    useCourtesyBoard(board, 1);
    noteKeptAccesses(5);
    // Another worker's word, as its thread would write it.
    Atomics.add(counts, counts.length - 1, 2);
    expect(keptAccesses()).toBe(7);
    forgetKeptBy(board, 1);
    expect(keptAccesses()).toBe(2);
    // A late write of the stopped worker's takes nothing below zero from the sum.
    noteKeptAccesses(-5);
    expect(keptAccesses()).toBe(2);
    forgetKeptBy(board, 2);
    expect(keptAccesses()).toBe(0);
  });

  it('refuses a worker the board has no word for', () => {
    expect(() => useCourtesyBoard(courtesyBoard(2), 2)).toThrow(/no word for worker 2/);
    expect(() => useCourtesyBoard(courtesyBoard(2), -1)).toThrow(/no word for worker -1/);
  });
});
