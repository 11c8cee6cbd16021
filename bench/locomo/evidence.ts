/**
 * Gold evidence ids, normalised. A handful of LoCoMo's evidence strings are malformed: two ids in
 * one string ("D8:6; D9:17"), space-separated lists, zero padding ("D30:05"), a bare "D", a stray
 * colon ("D:11:26") and ids that name a turn the conversation does not have. We split on ';' and
 * whitespace, strip zero padding, and drop (and count) whatever is still not a turn of this
 * conversation. We never guess what a broken id meant: "D:11:26" is dropped, not repaired.
 */

const WELL_FORMED = /^D(\d+):(\d+)$/;

export interface NormalizedEvidence {
  /** Distinct turn ids of this conversation, in the order first given. */
  ids: string[];
  /** The pieces that were dropped (not a well-formed id, or not a turn of this conversation). */
  dropped: string[];
  /** True when at least one raw string needed splitting or unpadding. */
  repaired: boolean;
}

/** "D30:05" → "D30:5"; anything that is not `D<n>:<n>` comes back unchanged. */
export function canonicalDiaId(piece: string): string {
  const m = WELL_FORMED.exec(piece);
  return m ? `D${Number(m[1])}:${Number(m[2])}` : piece;
}

export function normalizeEvidence(raw: readonly string[], turnIds: ReadonlySet<string>): NormalizedEvidence {
  const ids: string[] = [];
  const dropped: string[] = [];
  let repaired = false;
  for (const entry of raw) {
    const pieces = entry.split(/[;\s]+/).filter((p) => p !== '');
    if (pieces.length !== 1 || pieces[0] !== entry) repaired = true;
    for (const piece of pieces) {
      const id = canonicalDiaId(piece);
      if (id !== piece) repaired = true;
      if (!turnIds.has(id)) dropped.push(piece);
      else if (!ids.includes(id)) ids.push(id);
    }
  }
  return { ids, dropped, repaired };
}

/** `D7:3` → 7 (the session a turn belongs to). */
export function sessionOf(diaId: string): number {
  const m = WELL_FORMED.exec(diaId);
  return m ? Number(m[1]) : NaN;
}
