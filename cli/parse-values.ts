/** A CLI value that may be a number or a verbal label (e.g. `--importance HIGH` or `--importance 8`). */
export function numOrLabel(raw: string | undefined): number | string | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  return raw.trim() !== '' && Number.isFinite(n) ? n : raw;
}
