/** Maps an engine error onto the form fields it is about (zod issue paths, or a handler's `field`). */
import { ApiError } from '../../api/client.js';

export function fieldErrors(err: unknown, prefix = 'patch.'): Record<string, string> {
  if (!(err instanceof ApiError) || !err.details) return {};
  const out: Record<string, string> = {};
  const issues = err.details['issues'];
  if (Array.isArray(issues)) {
    for (const i of issues as { path: string; message: string }[]) {
      const f = i.path.startsWith(prefix) ? i.path.slice(prefix.length).split('.')[0]! : i.path;
      out[f] = out[f] ? `${out[f]}; ${i.message}` : i.message;
    }
  }
  const field = err.details['field'];
  if (typeof field === 'string') out[field] = err.message;
  return out;
}
