/**
 * The renderer imports only TYPES from core/, but TypeScript still reads the core modules those
 * types live in, and a few of them import Node built-ins at runtime. These declarations let the
 * browser-side type check read those files without pulling Node's types into the renderer. Lint
 * guarantees nothing here is ever imported as a value by renderer code.
 */
declare module 'node:crypto' {
  export function randomUUID(): string;
}
