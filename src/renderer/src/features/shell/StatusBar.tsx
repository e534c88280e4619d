import { useShell } from './ShellContext';

const CONNECTION_LABEL = {
  connecting: 'Connecting to engine…',
  connected: 'Engine connected',
  disconnected: 'Engine unreachable: retrying',
} as const;

export function StatusBar() {
  const online = useShell((state) => state.online);
  const connection = useShell((state) => state.connection);
  const info = useShell((state) => state.info);

  return (
    <footer className="status-bar" aria-label="Status">
      <span className={`status-dot ${online ? 'is-ok' : 'is-warn'}`} data-testid="network-status">
        {online ? 'Online' : 'Offline: working from the local mirror'}
      </span>
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
