// Types of electron-start.js (plain JavaScript so that `npm start` can run it before any build).
export function nodeCanFetchElectron(nodeVersion: string): boolean;
export function displayMissing(platform: string, env: Record<string, string | undefined>): string | null;
export const STARTUP_WINDOW_MS: number;
export function failedWhileStarting(exit: { code: number | null; signal: string | null; elapsedMs: number }): boolean;
