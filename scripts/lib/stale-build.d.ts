// Types of stale-build.js (plain JavaScript so that `npm start` can run it before any build).
export interface BuildTarget {
  /** Files and directories (relative to the project root) the output is built from. */
  inputs: string[];
  /** The output file whose mtime says when the target was last built. */
  marker: string;
  /** Arguments for `node` that build the target. */
  command(root: string): string[];
}

export type BuildTargetName = 'node' | 'renderer';

export const BUILD_TARGETS: Record<BuildTargetName, BuildTarget>;

export function newestMtime(path: string): number;

export function isStale(root: string, target: BuildTarget): boolean;

export interface BuildStaleResult {
  ok: boolean;
  built: BuildTargetName[];
  failed?: BuildTargetName;
}

export function buildStale(
  root: string,
  names: BuildTargetName[],
  opts?: { run?: (nodeArgs: string[]) => boolean; onBuild?: (name: BuildTargetName) => void },
): BuildStaleResult;
