/** An engine instant (seconds) as the views print it: UTC, to the minute. Apart from common.tsx so word modules without JSX can use it. */
export function fmtTime(ts: number | null | undefined): string {
  if (ts === null || ts === undefined || !Number.isFinite(ts)) return '—';
  return new Date(ts * 1000).toISOString().replace('T', ' ').slice(0, 16);
}
