import { useEffect } from 'react';
import { useFirstRunScreen } from '../features/accounts/useFirstRunScreen';
import { SettingsView } from '../features/settings/SettingsView';
import { RouterView } from '../features/router/RouterView';
import { RecordsView } from '../features/records/RecordsView';
import { OutboxView } from '../features/outbox/OutboxView';
import { SyncView } from '../features/sync/SyncView';
import { BackupsView } from '../features/backups/BackupsView';
import { ConfigureView } from '../features/configure/ConfigureView';
import { OverviewView } from '../features/overview/OverviewView';
import { BrowsedBackupBanner, useRecordsSource } from '../features/backups/BrowsedBackup';
import { RecordsContext, useRecordsStore } from '../features/records/RecordsContext';
import { useBackups } from '../features/backups/BackupsContext';
import { SECTIONS, sectionByShortcut } from '../app/sections';
import { useShell } from '../app/ShellContext';
import { StatusBar } from './StatusBar';
import { Sidebar } from './Sidebar';
import { resolveTheme } from '../app/theme';

function useAppliedTheme(): void {
  const preference = useShell((state) => state.settings?.theme ?? 'system');
  useEffect(() => {
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const apply = () => {
      document.documentElement.dataset.theme = resolveTheme(preference, query.matches);
    };
    apply();
    query.addEventListener('change', apply);
    return () => query.removeEventListener('change', apply);
  }, [preference]);
}

function useSectionShortcuts(): void {
  const select = useShell((state) => state.select);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      const section = sectionByShortcut(event.key);
      if (!section) return;
      event.preventDefault();
      select(section);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [select]);
}

export function App() {
  const sectionId = useShell((state) => state.section);
  const loadError = useShell((state) => state.loadError);
  const notice = useShell((state) => state.notice);
  const notify = useShell((state) => state.notify);
  // A backup opened for browsing is what the records section (view and sidebar) shows until closed.
  const browsing = useBackups((state) => state.browsing);
  const records = useRecordsSource();
  // The mirror's records store (main.tsx provides it), even while a backup is browsed: the
  // overview's bars open the mirror's records.
  const liveRecords = useRecordsStore();
  useAppliedTheme();
  useSectionShortcuts();
  const firstRun = useFirstRunScreen();
  const section = SECTIONS.find((candidate) => candidate.id === sectionId) ?? SECTIONS[0];

  if (firstRun) return firstRun;
  return (
    <RecordsContext.Provider value={records}>
      <div className="shell">
        <Sidebar />
        <main className="content" aria-labelledby="section-heading">
          <header className="content__header">
            <h1 id="section-heading">{section.label}</h1>
          </header>
          {loadError && (
            <p className="error banner" role="alert">
              PortalDesk could not read its state: {loadError}
            </p>
          )}
          {notice && (
            <p className="error banner" role="alert">
              <span>{notice}</span>
              <button type="button" onClick={() => notify(null)}>
                Dismiss
              </button>
            </p>
          )}
          <div className="content__body">
            {section.id === 'records' ? (
              <>
                {browsing && <BrowsedBackupBanner snapshot={browsing} />}
                <RecordsView />
              </>
            ) : section.id === 'outbox' ? (
              <OutboxView />
            ) : section.id === 'sync' ? (
              <SyncView />
            ) : section.id === 'backups' ? (
              <BackupsView />
            ) : section.id === 'configure' ? (
              <ConfigureView />
            ) : section.id === 'router' ? (
              <RouterView />
            ) : section.id === 'overview' ? (
              <OverviewView records={liveRecords} />
            ) : (
              <SettingsView />
            )}
          </div>
        </main>
        <StatusBar />
      </div>
    </RecordsContext.Provider>
  );
}
