/**
 * The profiles every store has without saving them. They are frozen: a saved profile may not take
 * one of these names, and neither may be deleted (nooa-0.0.9 is the conformance oracle's scorer).
 */
export const BUILTIN_PROFILE_NAMES = ['nooa-0.0.9', 'mnemo'] as const;
export type BuiltinProfileName = (typeof BUILTIN_PROFILE_NAMES)[number];

export const isBuiltinProfile = (name: string): name is BuiltinProfileName => (BUILTIN_PROFILE_NAMES as readonly string[]).includes(name);
