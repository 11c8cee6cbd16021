/**
 * The renderer's Content-Security-Policy. Both hosts of the workbench serve the renderer with it:
 * the HTTP server in browser mode and Electron's app:// protocol, so it lives below both of them.
 */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // React and echarts set element.style through the CSSOM; cytoscape needs inline style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
