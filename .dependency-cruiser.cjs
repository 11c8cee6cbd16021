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
  ['recall', 'forget', 'reflect', 'beliefs', 'observe', 'prospective', 'fleet'],
  ['agent', 'review', 'demo'],
  ['tune'],
  ['api'],
  ['host'],
  ['index.ts'],
];

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
/** A path regex for one room: a folder's files, or exactly one top-level file. */
const room = (name) => (name.endsWith('.ts') ? `^core/${escape(name)}$` : `^core/${escape(name)}/`);
const anyOf = (names) => names.map(room).join('|');

const layerRules = CORE_LAYERS.flatMap((layer, level) => {
  const above = CORE_LAYERS.slice(level + 1).flat();
  return layer.flatMap((name) => {
    const siblings = layer.filter((other) => other !== name);
    const rules = [];
    if (above.length > 0) {
      rules.push({
        name: `core-layer:${name}`,
        comment: `core/${name} is on layer ${level}: it may not import from a higher layer (${above.join(', ')}).`,
        severity: 'error',
        from: { path: room(name) },
        to: { path: anyOf(above) },
      });
    }
    if (siblings.length > 0) {
      rules.push({
        name: `core-sibling:${name}`,
        comment: `core/${name} may not import its layer siblings (${siblings.join(', ')}): move the shared code down a layer.`,
        severity: 'error',
        from: { path: room(name) },
        to: { path: anyOf(siblings) },
      });
    }
    return rules;
  });
});

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
    ...layerRules,
    {
      name: 'store-connection-private',
      comment:
        'Only the SQLite adapter (core/store/) holds a database handle: everything else goes through the store port (core/store/port.ts). Tests and benchmarks of the adapter may look inside it.',
      severity: 'error',
      from: { pathNot: '^(core/store/|test/|bench/(?!locomo/))' },
      to: { path: '^core/store/(connection|sqlite)\\.ts$' },
    },
    {
      name: 'store-port-only',
      comment:
        'Above core/store/, the engine reaches the store through its port (core/store/port.ts: StoreReader, StoreWriter, ' +
        'store.queries, store.runs, and the row types it re-exports), never through the adapter\'s query modules, so a second ' +
        'backend provides the same methods and passes the same contract suite. ' +
        'Constructing the adapter: open-location.ts (a SQLite path or a postgres:// URL to MemoryStore or PgStore) and store.ts from core/engine/engine.ts, which opens every store the engine ' +
        'uses (Engine.store is typed as the port, StoreWriter). ' +
        'Adapter-neutral modules the index and snapshot code builds on, holding no SQL: derived.ts and derived-index.ts (the ' +
        'derived-index framework), snapshot-parts.ts (the snapshot file format), codec.ts (vector blobs and the row codec), ' +
        'attribution.ts (which credential a write runs under), fts-tokenizer.ts, index-snapshots.ts (the snapshot writer and ' +
        'its progress labels), external-changes.ts (the catch-up limit), index-handoff.ts (the marker\'s announcement of the ' +
        'snapshots a long change leaves, over the port\'s getMeta/setMeta), sidecar-name.ts (how a sidecar file is named, ' +
        'so the fleet listing leaves it out). ' +
        'Below the port on purpose: copy/copy-stores.ts (mnemo copy moves tables between backends) and pg/pg-grant.ts ' +
        '(mnemo pg grant makes database roles and row-level security). ' +
        'Tests, benchmarks, scripts and support/ (which open stores and inspect files) are not covered.',
      severity: 'error',
      from: { path: '^(core|cli|server|electron|renderer|bench/locomo)/', pathNot: '^core/store/' },
      to: {
        path: '^core/store/',
        pathNot: [
          '^core/store/port\\.ts$',
          '^core/store/(derived|derived-index|snapshot-parts|codec|attribution|fts-tokenizer|index-snapshots|external-changes|index-handoff|sidecar-name)\\.ts$',
          // Moving whole stores and granting database roles work below the port, on tables, not memories:
          // \`mnemo copy\` (copy-stores.ts) and \`mnemo pg grant\` (pg-grant.ts), called from the CLI only.
          '^core/store/copy/copy-stores\\.ts$',
          '^core/store/pg/pg-grant\\.ts$',
          // Named in the rule below, with the one file that may import it.
          '^core/store/(store|open-location)\\.ts$',
        ],
      },
    },
    {
      name: 'store-port-only:construct',
      comment: 'store.ts and open-location.ts (the adapters\' constructors) only from the files named in store-port-only\'s comment.',
      severity: 'error',
      from: {
        path: '^(core|cli|server|electron|renderer|bench/locomo)/',
        pathNot: '^core/(store/|engine/engine\\.ts$)',
      },
      to: { path: '^core/store/(store|open-location)\\.ts$' },
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
      from: { path: '^core/host/(engine-host|generation|lanes|worker-thread|host-protocol)\\.ts$' },
      to: {
        path: '^core/',
        dependencyTypesNot: ['type-only'],
        pathNot: ['^core/host/(engine-host|generation|lanes|worker-thread|host-protocol)\\.ts$', '^core/engine/job-signals\\.ts$', '^core/api/contract/', '^core/api/define\\.ts$', '^core/errors\\.ts$'],
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
