// Builds the renderer (React) into dist/renderer. `base: './'` makes asset URLs relative, so the
// same bundle loads from the browser-mode server and from the Electron app:// protocol.
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** The dev server injects inline scripts (React refresh) that the production CSP forbids. */
function stripCspInDev(): Plugin {
  return {
    name: 'mnemo-strip-csp-in-dev',
    apply: 'serve',
    transformIndexHtml: (html) => html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, ''),
  };
}

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react(), stripCspInDev()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
  },
});
