import type { Settings } from '../../../../shared/settings';
import { useShell } from '../shell/ShellContext';

const THEMES: { value: Settings['theme']; label: string }[] = [
  { value: 'system', label: 'Follow the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

export function SettingsView() {
  const info = useShell((state) => state.info);
  const settings = useShell((state) => state.settings);
  const settingsError = useShell((state) => state.settingsError);
  const changeSettings = useShell((state) => state.changeSettings);

  return (
    <div className="settings">
      <section className="card" aria-labelledby="appearance-heading">
        <h2 id="appearance-heading">Appearance</h2>
        <fieldset className="segmented" disabled={!settings}>
          <legend>Theme</legend>
          {THEMES.map((theme) => (
            <label key={theme.value}>
              <input
                type="radio"
                name="theme"
                value={theme.value}
                checked={settings?.theme === theme.value}
                onChange={() => void changeSettings({ theme: theme.value })}
              />
              <span>{theme.label}</span>
            </label>
          ))}
        </fieldset>
        {settingsError && (
          <p className="error" role="alert">
            {settingsError}
          </p>
        )}
      </section>

      <section className="card" aria-labelledby="about-heading">
        <h2 id="about-heading">About this installation</h2>
        <dl className="facts">
          <dt>Version</dt>
          <dd data-testid="app-version">{info?.version ?? '…'}</dd>
          <dt>Running as</dt>
          <dd>{info ? (info.mode === 'desktop' ? 'Desktop app' : 'Web mode (browser)') : '…'}</dd>
          <dt>Platform</dt>
          <dd>{info?.platform ?? '…'}</dd>
          <dt>Data directory</dt>
          <dd className="mono" data-testid="app-data-dir">
            {info?.dataDir ?? '…'}
          </dd>
          <dt>Database schema</dt>
          <dd>{info ? `version ${info.schemaVersion}` : '…'}</dd>
        </dl>
        <p className="hint">
          Start with <code>--data-dir DIR</code> or set <code>PORTALDESK_DATA_DIR</code> to keep the
          local mirror somewhere else.
        </p>
      </section>
    </div>
  );
}
