// Lint: typescript-eslint's recommended rules plus the layer boundaries of the architecture:
// core/ never reaches the UI or Electron; renderer/ never reaches Node, SQLite or core's runtime code.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const NODE_BUILTINS = ['fs', 'path', 'os', 'child_process', 'crypto', 'http', 'net', 'url', 'util', 'worker_threads'];

export default tseslint.config(
  { ignores: ['dist/**', '.cache/**', 'node_modules/**', 'release/**', 'docs/**', 'coverage/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['core/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'core/ knows nothing of Electron.' },
            { name: 'react', message: 'core/ knows nothing of React.' },
            { name: 'react-dom', message: 'core/ knows nothing of React.' },
          ],
          patterns: [
            { group: ['**/renderer/**', '**/renderer'], message: 'core/ must not import the renderer.' },
            { group: ['**/electron/**'], message: 'core/ must not import the Electron shell.' },
            { group: ['**/cli/**'], message: 'core/ must not import the CLI.' },
            { group: ['**/server/**'], message: 'core/ must not import the HTTP server (browser mode is an adapter).' },
          ],
        },
      ],
    },
  },
  {
    // The database drivers belong to the store's adapters (and the index sidecar, a SQLite file of
    // its own): the port and the logic both backends share name neither (docs/architecture.md).
    files: ['core/**/*.ts'],
    ignores: ['core/store/sqlite/**', 'core/store/pg/**', 'core/store/derived/**', 'core/store/copy/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'better-sqlite3', message: 'Only the store\'s adapters (core/store/sqlite, pg), the index sidecar (core/store/derived) and mnemo copy open a database.' },
            { name: 'pg', message: 'Only the PostgreSQL adapter (core/store/pg) and mnemo copy talk to PostgreSQL.' },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'better-sqlite3', message: 'The renderer talks to the engine only through renderer/api.' },
            { name: 'electron', message: 'The renderer reaches Electron only through the preload bridge.' },
            ...NODE_BUILTINS.map((name) => ({ name, message: 'The renderer runs in a browser sandbox: no Node modules.' })),
          ],
          patterns: [
            { group: ['node:*'], message: 'The renderer runs in a browser sandbox: no Node modules.' },
            { group: ['**/core/**'], allowTypeImports: true, message: 'The renderer may import only types from core/ (call the engine through renderer/api).' },
            { group: ['**/electron/**'], message: 'The renderer must not import the Electron shell.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'require', message: 'No Node in the renderer.' }],
    },
  },
);
