/**
 * Hash routes: every view and selection has a URL (`#/memory/<id>`, `#/graph?focus=<id>`, …), so a
 * trace or a colleague can point straight at it. The route lives in a zustand store fed by
 * `hashchange`; views read their params from it and navigate by writing the hash.
 */
import { create } from 'zustand';
import { platform } from '../platform/browser.js';
import { buildHash, parseRoute, type Route } from './hash.js';

export { buildHash, listParam, parseRoute, VIEWS, type ParamValue, type Route, type ViewName } from './hash.js';

interface RouterState {
  route: Route;
  sync(): void;
}

export const useRouter = create<RouterState>((set) => ({
  route: parseRoute(platform.readHash()),
  sync: () => set({ route: parseRoute(platform.readHash()) }),
}));

export function startRouter(): () => void {
  useRouter.getState().sync();
  return platform.onHashChange(() => useRouter.getState().sync());
}

export function navigate(hash: string, opts: { replace?: boolean } = {}): void {
  platform.writeHash(hash, opts.replace ?? false);
  useRouter.getState().sync();
}

export const useRoute = () => useRouter((s) => s.route);

export const memoryHref = (id: string) => `#${buildHash('memory', id)}`;
export const graphHref = (id: string) => `#${buildHash('graph', null, { focus: id })}`;
