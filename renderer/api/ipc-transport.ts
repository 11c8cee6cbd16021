import type { PreloadBridge, Transport } from './transport.js';

export function ipcTransport(bridge: PreloadBridge): Transport {
  return {
    kind: 'ipc',
    invoke: (method, input) => bridge.invoke(method, input ?? {}),
    subscribe: (listener) => bridge.on(listener),
  };
}
