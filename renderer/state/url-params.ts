/**
 * Numbers read from the URL. A value that is not a whole number in range is reported, not quietly
 * replaced: the view shows what was wrong with the link and what it shows instead.
 */
export interface IntParam {
  value: number;
  /** A sentence for people when the URL's value was refused; null when it was used as given. */
  error: string | null;
}

export function intParam(params: URLSearchParams, key: string, opts: { min: number; max?: number; fallback: number; what?: string }): IntParam {
  const raw = params.get(key);
  if (raw === null || raw === '') return { value: opts.fallback, error: null };
  const n = Number(raw);
  const what = opts.what ?? key;
  const range = opts.max === undefined ? `${opts.min} or more` : `from ${opts.min} to ${opts.max}`;
  if (!Number.isInteger(n) || n < opts.min || (opts.max !== undefined && n > opts.max)) {
    return { value: opts.fallback, error: `The link's ${what} "${raw}" is not a whole number ${range}; showing ${what} ${opts.fallback} instead.` };
  }
  return { value: n, error: null };
}
