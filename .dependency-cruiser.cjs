/**
 * The house rules for imports, checked by `npm run lint` (docs/architecture.md explains the rooms).
 *
 * Inside core/, every folder sits on one layer. A module may import from its own folder and from
 * any LOWER layer; never from a higher one, and never from a sibling folder of its own layer (two
 * rooms on one floor share code by moving it down a floor). Outside core/: core never imports the
 * CLI, the server, Electron or the renderer; the renderer imports only types from core; Electron
 * never imports the HTTP server; the LoCoMo harness (bench/locomo/, built with the CLI) imports only
 * core; nothing that ships imports test/, support/ or the other benchmarks. No import cycles anywhere.
 */

/** Lowest first. Each entry is one layer; each string a folder (or top-level file) of core/. */
const CORE_LAYERS = [
  ['errors.ts', 'clock.ts', 'otel.ts'],
  ['model'],
  ['store'],
  ['embed'],
  ['engine'],
  ['recall', 'forget', 'erase', 'reflect', 'beliefs', 'observe', 'prospective', 'fleet'],
  ['agent', 'review', 'demo'],
  ['tune'],
  ['api'],
  ['host'],
  ['index.ts'],
];

/**
 * The rooms inside core/store/, lowest first, on the same rule: the port and the types it owns; the
 * logic and SQL both backends share (journal, change runs, writes, the dialect seam); the queries
 * written once over the port's SQL seam, and the derived-index framework (indexes, their snapshots
 * and the index sidecar); the two adapters, which never import each other; and on top what works
 * across backends (mnemo copy, opening whichever backend a location names).
 */
const STORE_LAYERS = [
  ['port'],
  ['shared'],
  ['queries', 'derived'],
  ['sqlite', 'pg'],
  ['copy', 'open-location.ts'],
];

/**
 * Imports inside core/store/ that break its layers today, each with the file it may reach: the row
 * types and helpers that still live in the SQLite adapter's modules. Each entry is a debt, to be
 * paid by moving what is shared down a layer; nothing new goes here.
 */
const STORE_DEBTS = {
  'derived': [
    'core/store/sqlite/connection.ts',
    'core/store/sqlite/sqlite.ts',
  ],
  'pg': [
    'core/store/copy/copy-endpoint.ts',
    'core/store/copy/store-tables.ts',
    'core/store/sqlite/access-events.ts',
    'core/store/sqlite/facets.ts',
    'core/store/sqlite/feed-ddl.ts',
    'core/store/sqlite/feed-retention.ts',
    'core/store/sqlite/history-instant.ts',
    'core/store/sqlite/history-views.ts',
    'core/store/sqlite/list-query.ts',
    'core/store/sqlite/memory-images.ts',
    'core/store/sqlite/migrations.ts',
  ],
};

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
/** A path regex for one room under `base`: a folder's files, or exactly one file. */
const roomUnder = (base) => (name) => (name.endsWith('.ts') ? `^${base}${escape(name)}$` : `^${base}${escape(name)}/`);
const room = roomUnder('core/');
const storeRoom = roomUnder('core/store/');
const anyOf = (names, at = room) => names.map(at).join('|');

/** One rule per room: nothing from a higher layer, nothing from a sibling on its own layer. */
function layerRules(prefix, layers, at, debts = {}) {
  return layers.flatMap((layer, level) => {
    const above = layers.slice(level + 1).flat();
    return layer.flatMap((name) => {
      const siblings = layer.filter((other) => other !== name);
      const allowed = (debts[name] ?? []).map((file) => `^${escape(file)}$`);
      const to = (names) => (allowed.length > 0 ? { path: anyOf(names, at), pathNot: allowed } : { path: anyOf(names, at) });
      const rules = [];
      if (above.length > 0) {
        rules.push({
          name: `${prefix}-layer:${name}`,
          comment: `${prefix}/${name} is on layer ${level}: it may not import from a higher layer (${above.join(', ')}).`,
          severity: 'error',
          from: { path: at(name) },
          to: to(above),
        });
      }
      if (siblings.length > 0) {
        rules.push({
          name: `${prefix}-sibling:${name}`,
          comment: `${prefix}/${name} may not import its layer siblings (${siblings.join(', ')}): move the shared code down a layer.`,
          severity: 'error',
          from: { path: at(name) },
          to: to(siblings),
        });
      }
      return rules;
    });
  });
}

const layerRulesOfCore = layerRules('core', CORE_LAYERS, room);
const layerRulesOfStore = layerRules('core/store', STORE_LAYERS, storeRoom, STORE_DEBTS);

/** Every file of core/ must sit in a known room, so a new folder cannot escape the layer rules. */
const knownRooms = anyOf(CORE_LAYERS.flat());

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Import cycles make load order matter and hide which module owns what.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRulesOfCore,
    ...layerRulesOfStore,
    {
      name: 'store-room-unknown',
      comment: 'A file of core/store/ outside every room: add it to STORE_LAYERS in .dependency-cruiser.cjs and to docs/architecture.md.',
      severity: 'error',
      from: { path: '^core/store/', pathNot: anyOf(STORE_LAYERS.flat(), storeRoom) },
      to: {},
    },
    {
      name: 'store-connection-private',
      comment:
        'Only the SQLite adapter (core/store/sqlite/) holds a database handle: everything else goes through the store port (core/store/port/). Tests and benchmarks of the adapter may look inside it.',
      severity: 'error',
      from: { pathNot: '^(core/store/|test/|bench/(?!locomo/))' },
      to: { path: '^core/store/sqlite/(connection|sqlite)\\.ts$' },
    },
    {
      name: 'store-port-only',
      comment:
        'Above core/store/, the engine reaches the store through three rooms: port/ (StoreReader, StoreWriter, store.queries, ' +
        'store.runs, the row types and the row codec), queries/ (the whole-table queries and belief tables, written once over ' +
        'the port\'s SQL seam) and derived/ (the derived-index framework, snapshots and the index sidecar), never through an ' +
        'adapter or the logic the adapters share, so a second backend provides the same methods and passes the same contract suite. Constructing an adapter: open-location.ts (a SQLite path or a postgres:// URL) ' +
        'and sqlite/sqlite-store.ts, from core/engine/engine.ts only (the rule below). Below the port on purpose: ' +
        'copy/copy-stores.ts (mnemo copy moves tables between backends) and pg/pg-grant.ts (mnemo pg grant makes database ' +
        'roles and row-level security), called from the CLI. Tests, benchmarks, scripts and support/ (which open stores and ' +
        'inspect files) are not covered.',
      severity: 'error',
      from: { path: '^(core|cli|server|electron|renderer|bench/locomo)/', pathNot: '^core/store/' },
      to: {
        path: '^core/store/',
        pathNot: [
          '^core/store/(port|queries|derived)/',
          '^core/store/copy/copy-stores\\.ts$',
          '^core/store/pg/pg-grant\\.ts$',
          // Named in the rule below, with the one file that may import it.
          '^core/store/(sqlite/sqlite-store|open-location)\\.ts$',
        ],
      },
    },
    {
      name: 'store-port-only:construct',
      comment: 'sqlite/sqlite-store.ts and open-location.ts (the adapters\' constructors) only from core/engine/engine.ts.',
      severity: 'error',
      from: {
        path: '^(core|cli|server|electron|renderer|bench/locomo)/',
        pathNot: '^core/(store/|engine/engine\\.ts$)',
      },
      to: { path: '^core/store/(sqlite/sqlite-store|open-location)\\.ts$' },
    },
    {
      name: 'core-room-unknown',
      comment: 'A file of core/ outside every layer: add its folder to CORE_LAYERS in .dependency-cruiser.cjs and to docs/architecture.md.',
      severity: 'error',
      from: { path: '^core/', pathNot: knownRooms },
      to: {},
    },
    {
      name: 'core-not-to-ui',
      comment: 'core/ is the engine: it never imports the CLI, the HTTP server, Electron or the renderer.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^(cli|server|electron|renderer)/' },
    },
    {
      name: 'core-not-to-bench',
      comment: 'The LoCoMo harness and the benchmarks sit on top of the engine, never inside it.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^bench/' },
    },
    {
      name: 'shipped-not-to-dev',
      comment: 'What ships (dist/) never imports tests, their shared support or the benchmarks (bench/locomo/ excepted: `mnemo bench locomo` runs it).',
      severity: 'error',
      from: { path: '^(core|cli|server|electron|renderer|bench/locomo)/' },
      to: { path: '^(test|support|scripts)/|^bench/(?!locomo/)' },
    },
    {
      name: 'locomo-only-core',
      comment: 'bench/locomo/ is built with the CLI; it may use the engine and nothing else of the project.',
      severity: 'error',
      from: { path: '^bench/locomo/' },
      to: { path: '^(cli|server|electron|renderer)/' },
    },
    {
      name: 'renderer-types-only-from-core',
      comment: 'The renderer runs in a browser sandbox and calls the engine through renderer/api: only types from core/.',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: '^core/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'electron-not-to-server',
      comment: 'Electron and the HTTP server are two hosts of the same core/api; what both need lives in core/host.',
      severity: 'error',
      from: { path: '^electron/' },
      to: { path: '^server/' },
    },
    {
      name: 'electron-no-engine',
      comment:
        'The desktop app\'s main process owns windows, menus and dialogs and routes IPC; the engine runs in the engine host\'s ' +
        'workers (core/host/engine-host.ts), never in it. So electron/ loads, at run time, only the host\'s door and what the ' +
        'door itself loads (host-door-no-engine below): the contract\'s schemas, the envelope type, the renderer CSP. Types may ' +
        'come from anywhere. test/unit/host-boundary.test.ts checks the whole run-time closure.',
      severity: 'error',
      from: { path: '^electron/' },
      to: {
        path: '^core/',
        dependencyTypesNot: ['type-only'],
        pathNot: ['^core/host/(engine-host|generation|renderer-csp)\\.ts$', '^core/api/contract/', '^core/api/define\\.ts$', '^core/errors\\.ts$'],
      },
    },
    {
      name: 'host-door-no-engine',
      comment:
        'The engine host\'s side on the answering thread (engine-host.ts and what it loads) routes calls and never runs them: ' +
        'at run time it loads no engine, store, handler or session module, only its own protocol, the lanes, the contract\'s ' +
        'schemas and the shared cancel board (core/engine/job-signals.ts).',
      severity: 'error',
      from: { path: '^core/host/(engine-host|generation|lanes|worker-thread|host-protocol|thread-priority)\\.ts$' },
      to: {
        path: '^core/',
        dependencyTypesNot: ['type-only'],
        pathNot: ['^core/host/(engine-host|generation|lanes|worker-thread|host-protocol|thread-priority)\\.ts$', '^core/engine/job-signals\\.ts$', '^core/api/contract/', '^core/api/define\\.ts$', '^core/errors\\.ts$'],
      },
    },
    {
      name: 'server-not-to-electron',
      comment: 'The HTTP server must run without Electron.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^electron/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    // Type-only imports count: a layer that names a higher layer's types still depends on it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.cts', '.js', '.cjs', '.d.ts'] },
  },
};
