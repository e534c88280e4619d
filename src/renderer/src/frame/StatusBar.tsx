import { backupsSummary } from '../features/backups/backupFormat';
import { useBackups } from '../features/backups/BackupsContext';
import { useOutbox } from '../features/outbox/OutboxContext';
import { OutboxStatusItem } from '../features/outbox/OutboxStatusItem';
import { syncSummary } from '../features/sync/syncFormat';
import { useSync } from '../features/sync/SyncContext';
import { useNow } from '../features/sync/useNow';
import { useShell } from '../app/ShellContext';
import { networkStatus } from './networkStatus';

const CONNECTION_LABEL = {
  connecting: 'Connecting to engine…',
  connected: 'Engine connected',
  disconnected: 'Engine unreachable: retrying',
} as const;

export function StatusBar() {
  const online = useShell((state) => state.online);
  const connection = useShell((state) => state.connection);
  const info = useShell((state) => state.info);
  const sync = useSync((state) => state.status);
  const select = useShell((state) => state.select);
  const now = useNow(15_000);
  // "Work offline" holds every request whatever the network says.
  const workOffline = useOutbox((state) => state.status?.workOffline ?? false);
  const network = networkStatus({
    connection,
    online,
    serviceAnswered: sync ? sync.online : null,
    workOffline,
  });
  const backups = useBackups((state) => backupsSummary(state.overview?.backups ?? []));

  return (
    <footer className="status-bar" aria-label="Status">
      <span
        className={`status-dot ${network.ok ? 'is-ok' : 'is-warn'}`}
        data-testid="network-status"
      >
        {network.label}
      </span>
      <button
        type="button"
        className="status-bar__link"
        data-testid="sync-summary"
        onClick={() => select('sync')}
        title="Open the Sync view"
      >
        {syncSummary(sync, now)}
      </button>
      <OutboxStatusItem onOpen={() => select('outbox')} />
      {backups && (
        <button
          type="button"
          className="status-bar__link"
          data-testid="backups-summary"
          onClick={() => select('backups')}
          title="Open the Backups view"
        >
          {backups}
        </button>
      )}
      {info?.mode === 'web' && (
        <span
          className={`status-dot ${connection === 'connected' ? 'is-ok' : 'is-warn'}`}
          data-testid="engine-status"
        >
          {CONNECTION_LABEL[connection]}
        </span>
      )}
      <span className="status-bar__path" title={info?.dataDir} data-testid="status-data-dir">
        Data: {info?.dataDir ?? '…'}
      </span>
      <span className="status-bar__version" data-testid="status-version">
        {info ? `v${info.version} · ${info.mode} · schema ${info.schemaVersion}` : ''}
      </span>
    </footer>
  );
}
