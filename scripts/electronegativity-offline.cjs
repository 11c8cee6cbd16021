// Preloaded into the electronegativity CLI: its translation refresh and Electron release-notes check
// fetch from the internet, which CI does not have (and must not try). Replacing `got` with a function
// that fails at once makes both fall back to their offline paths (bundled strings, no release check).
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload: require is the point */
const { dirname } = require('node:path');
const eneg = dirname(require.resolve('@doyensec/electronegativity/package.json'));
const gotPath = require.resolve('got', { paths: [eneg] });
const offline = () => Promise.reject(new Error('network disabled for the offline security scan'));
offline.head = offline;
offline.get = offline;
require.cache[gotPath] = { id: gotPath, filename: gotPath, loaded: true, exports: offline };
