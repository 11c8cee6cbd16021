/**
 * Hash routes as plain data: parsing `#/view/arg?params` and building one, with no browser in
 * sight, so the URL state of every view can be unit tested. router.ts feeds them from the window.
 */

export type ViewName = 'memories' | 'memory' | 'graph' | 'recall' | 'audit' | 'overview' | 'reflection' | 'history' | 'beliefs' | 'fleet' | 'prospective' | 'duplicates' | 'lab' | 'privacy' | 'conflicts';
export const VIEWS: ViewName[] = ['memories', 'memory', 'graph', 'recall', 'audit', 'overview', 'reflection', 'history', 'beliefs', 'fleet', 'prospective', 'duplicates', 'lab', 'privacy', 'conflicts'];

export interface Route {
  view: ViewName;
  /** The path segment after the view (the memory id for `#/memory/<id>`). */
  arg: string | null;
  params: URLSearchParams;
  hash: string;
}

export function parseRoute(hash: string): Route {
  const clean = hash.replace(/^#/, '');
  const [path = '', query = ''] = clean.split('?', 2) as [string?, string?];
  const parts = path.split('/').filter(Boolean);
  const view = (VIEWS as string[]).includes(parts[0] ?? '') ? (parts[0] as ViewName) : 'memories';
  const arg = parts[1] ? decodeURIComponent(parts.slice(1).join('/')) : null;
  return { view, arg, params: new URLSearchParams(query), hash: clean };
}

export type ParamValue = string | number | boolean | null | undefined | string[];

export function buildHash(view: ViewName, arg: string | null = null, params: Record<string, ParamValue> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === null || v === undefined || v === '' || v === false) continue;
    if (Array.isArray(v)) {
      if (v.length) q.set(k, v.join(','));
    } else q.set(k, String(v));
  }
  const qs = q.toString();
  return `/${view}${arg ? `/${encodeURIComponent(arg)}` : ''}${qs ? `?${qs}` : ''}`;
}

/** Comma-separated list param. */
export function listParam(params: URLSearchParams, key: string): string[] {
  const v = params.get(key);
  return v ? v.split(',').filter(Boolean) : [];
}

