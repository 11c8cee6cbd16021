/**
 * The rows a person can see: the virtualizer also renders `overscan` rows above and below the
 * viewport, so "select the rows on screen" keeps only rows lying wholly inside it (it used to take
 * all rendered rows: 38 selected when 23 were visible).
 */
export interface RenderedRow {
  index: number;
  start: number;
  end: number;
}

export function rowsOnScreen<T extends RenderedRow>(rows: readonly T[], scrollTop: number, viewportHeight: number): T[] {
  const bottom = scrollTop + viewportHeight;
  return rows.filter((r) => r.start >= scrollTop - 0.5 && r.end <= bottom + 0.5);
}
