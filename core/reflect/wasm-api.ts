/**
 * The few WebAssembly classes the neighbour join uses, typed here because the node-side build
 * compiles against ES2023 + Node types only, and @types/node 20 does not declare the global
 * `WebAssembly` namespace (it lives in the DOM lib, which the engine must not see).
 */
export interface WasmMemory {
  readonly buffer: ArrayBufferLike;
}

export interface WasmGlobal {
  value: number;
}

export interface WasmInstance {
  readonly exports: unknown;
}

export interface WasmApi {
  Memory: new (descriptor: { initial: number; maximum?: number; shared?: boolean }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => WasmInstance;
}

export const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
