/** The shell: navigation, store badge, theme, shortcuts, live refresh, and the routed view. */
import { lazy, Suspense, useCallback, useEffect } from 'react';
import { useEngineEvents, useStoreInfo } from './api/hooks.js';
import type { EngineEvent } from './api/transport.js';
import { ErrorBox, GlobalProgress, Spinner } from './components/common.js';
import { ShortcutHelp, useShortcuts } from './components/shortcuts.js';
import { NoticeBar, useUndoShortcut } from './components/undo-shortcut.js';
import { platform } from './platform/browser.js';
import { VIEW_KEYS } from './state/keymap.js';
import { buildHash, navigate, useRoute } from './state/router.js';
import { useEraseDialog } from './state/erase-dialog.js';
import { instantParam, TIME_TRAVEL_VIEWS } from './state/instant.js';
import { TimeControl } from './components/time/TimeControl.js';
import { ReplicaBadge } from './components/ReplicaBadge.js';
import { StoreBadge } from './components/StoreBadge.js';
import { useUi } from './state/ui.js';
import { MemoriesView } from './views/memories/MemoriesView.js';
import { UndoToast } from './views/curation/UndoToast.js';

// The list is the first screen; the views that carry cytoscape and echarts load on demand (and are
// prefetched once the list is on screen), so the first render parses a fraction of the code.
const loadDetail = () => import('./views/memory/MemoryDetailView.js');
const loadGraph = () => import('./views/graph/GraphView.js');
const loadRecall = () => import('./views/recall/RecallView.js');
const loadAudit = () => import('./views/audit/AuditView.js');
const loadOverview = () => import('./views/overview/OverviewView.js');
const loadReflection = () => import('./views/reflection/ReflectionView.js');
const loadHistory = () => import('./views/history/HistoryView.js');
const loadDiff = () => import('./views/history/diff/DiffView.js');
const loadBeliefs = () => import('./views/beliefs/BeliefsView.js');
const loadFleet = () => import('./views/fleet/FleetView.js');
const loadProspective = () => import('./views/prospective/ProspectiveView.js');
const loadDuplicates = () => import('./views/duplicates/DuplicatesView.js');
const loadLab = () => import('./views/lab/LabView.js');
const loadPrivacy = () => import('./views/privacy/PrivacyView.js');
const loadConflicts = () => import('./views/conflicts/ConflictsView.js');
const MemoryDetailView = lazy(() => loadDetail().then((m) => ({ default: m.MemoryDetailView })));
const GraphView = lazy(() => loadGraph().then((m) => ({ default: m.GraphView })));
const RecallView = lazy(() => loadRecall().then((m) => ({ default: m.RecallView })));
const AuditView = lazy(() => loadAudit().then((m) => ({ default: m.AuditView })));
const OverviewView = lazy(() => loadOverview().then((m) => ({ default: m.OverviewView })));
const ReflectionView = lazy(() => loadReflection().then((m) => ({ default: m.ReflectionView })));
const HistoryView = lazy(() => loadHistory().then((m) => ({ default: m.HistoryView })));
const DiffView = lazy(() => loadDiff().then((m) => ({ default: m.DiffView })));
const BeliefsView = lazy(() => loadBeliefs().then((m) => ({ default: m.BeliefsView })));
const FleetView = lazy(() => loadFleet().then((m) => ({ default: m.FleetView })));
const ProspectiveView = lazy(() => loadProspective().then((m) => ({ default: m.ProspectiveView })));
const DuplicatesView = lazy(() => loadDuplicates().then((m) => ({ default: m.DuplicatesView })));
const LabView = lazy(() => loadLab().then((m) => ({ default: m.LabView })));
const PrivacyView = lazy(() => loadPrivacy().then((m) => ({ default: m.PrivacyView })));
const EraseDialogHost = lazy(() => import('./views/privacy/EraseDialogHost.js').then((m) => ({ default: m.EraseDialogHost })));
const ConflictsView = lazy(() => loadConflicts().then((m) => ({ default: m.ConflictsView })));

export function prefetchViews(): void {
  void Promise.all([loadDetail(), loadGraph(), loadRecall(), loadAudit(), loadOverview(), loadReflection(), loadHistory(), loadBeliefs(), loadFleet(), loadProspective()]);
}

export function App() {
  const route = useRoute();
  const eraseOpen = useEraseDialog((s) => s.target !== null);
  const theme = useUi((s) => s.theme);
  const toggleTheme = useUi((s) => s.toggleTheme);
  const info = useStoreInfo();
  useEffect(() => platform.setTheme(theme), [theme]);
  useEffect(() => {
    if (info.data) platform.setTitle(`${info.data.name} — Mnemo Workbench`);
  }, [info.data]);
  const onEvent = useCallback((e: EngineEvent) => {
    if (e.type === 'navigate') navigate(e.route);
  }, []);
  useEngineEvents(onEvent);
  useShortcuts();
  useUndoShortcut();
  // Once the first screen is up, fetch the other views' code in the background.
  useEffect(() => platform.whenIdle(prefetchViews), []);

  // Find duplicates is reached from Memories, so Memories stays lit.
  const active = route.view === 'memory' || route.view === 'duplicates' ? 'memories' : route.view;
  // The instant shown follows the top bar between the views that travel in time.
  const at = TIME_TRAVEL_VIEWS.includes(route.view) ? instantParam(route.params).at : null;
  const timeTravels = TIME_TRAVEL_VIEWS.includes(route.view);
  return (
    <div className="app">
      <GlobalProgress />
      <header className="topbar">
        <span className="brand">Mnemo</span>
        <nav>
          {VIEW_KEYS.map((n) => (
            <a key={n.view} href={`#${buildHash(n.view, null, at !== null && TIME_TRAVEL_VIEWS.includes(n.view) ? { at } : {})}`} className={active === n.view ? 'active' : ''} title={`${n.label} (${n.key})`} data-testid={`nav-${n.view}`}>
              {n.label}
            </a>
          ))}
        </nav>
        <span className="spacer" />
        {info.data ? <StoreBadge info={info.data} /> : null}
        {info.data ? <ReplicaBadge /> : null}
        <button className="icon" onClick={toggleTheme} title="Toggle light/dark theme (t)" data-testid="theme-toggle">
          {theme === 'dark' ? '☀' : '☾'}
        </button>
        <button className="icon" onClick={() => useUi.getState().setHelpOpen(true)} title="Keyboard shortcuts (?)">
          ?
        </button>
      </header>
      {timeTravels && !info.error ? <TimeControl /> : null}
      {info.error ? (
        <main className="content">
          <ErrorBox error={info.error} />
          <p className="muted">The engine did not answer. In browser mode, open the URL that "mnemo serve" printed (it carries the token).</p>
        </main>
      ) : (
        <main className="content">
          <Suspense fallback={<Spinner label="Loading view…" />}>
            {route.view === 'memories' && <MemoriesView />}
            {route.view === 'memory' && <MemoryDetailView id={route.arg} />}
            {route.view === 'graph' && <GraphView />}
            {route.view === 'recall' && <RecallView />}
            {route.view === 'audit' && <AuditView />}
            {route.view === 'overview' && <OverviewView />}
            {route.view === 'reflection' && <ReflectionView />}
            {route.view === 'history' && route.arg === 'diff' && <DiffView />}
            {route.view === 'history' && route.arg !== 'diff' && <HistoryView />}
            {route.view === 'beliefs' && <BeliefsView />}
            {route.view === 'fleet' && <FleetView />}
            {route.view === 'prospective' && <ProspectiveView />}
            {route.view === 'duplicates' && <DuplicatesView />}
            {route.view === 'lab' && <LabView />}
            {route.view === 'privacy' && <PrivacyView />}
            {eraseOpen ? <EraseDialogHost /> : null}
            {route.view === 'conflicts' && <ConflictsView />}
          </Suspense>
        </main>
      )}
      <NoticeBar />
      <ShortcutHelp />
      <UndoToast />
    </div>
  );
}
