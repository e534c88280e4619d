import type { Settings } from '../../../../shared/ipc/settings';
import { useShell } from '../../app/ShellContext';

const THEMES: { value: Settings['theme']; label: string }[] = [
  { value: 'system', label: 'Follow the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** Ours: the intervals offered; 0 is "no periodic sync". */
const AUTO_SYNC_CHOICES: readonly number[] = [5, 15, 30, 60, 240, 0];

function intervalLabel(minutes: number): string {
  if (minutes === 0) return 'Only at start-up, after a sign-in and when asked';
  if (minutes % 60 === 0) {
    const hours = minutes / 60;
    return hours === 1 ? 'Every hour' : `Every ${hours} hours`;
  }
  return `Every ${minutes} minutes`;
}

function SyncSettings({ settings }: { settings: Settings | null }) {
  const changeSettings = useShell((state) => state.changeSettings);
  const current = settings?.autoSyncMinutes;
  // A value set by another version stays selectable as it is.
  const choices =
    current === undefined || AUTO_SYNC_CHOICES.includes(current)
      ? AUTO_SYNC_CHOICES
      : [...AUTO_SYNC_CHOICES, current];
  return (
    <section className="card" aria-labelledby="sync-settings-heading">
      <h2 id="sync-settings-heading">Sync</h2>
      <div className="settings-fields">
        <label>
          <span>Sync automatically</span>
          <select
            disabled={!settings}
            value={current ?? ''}
            onChange={(event) =>
              void changeSettings({ autoSyncMinutes: Number(event.target.value) })
            }
          >
            {choices.map((minutes) => (
              <option key={minutes} value={minutes}>
                {intervalLabel(minutes)}
              </option>
            ))}
          </select>
        </label>
        <label className="settings-check">
          <input
            type="checkbox"
            disabled={!settings}
            checked={settings?.backgroundComments ?? true}
            onChange={(event) => void changeSettings({ backgroundComments: event.target.checked })}
          />
          Read every record&apos;s comments in the background
        </label>
      </div>
      <p className="hint">
        Comments cost one call per record. In the background they take only the calls the rate limit
        leaves after your own actions and the sync; a record you open has its comments read at once
        either way. Turning this on takes effect after the next sync.
      </p>
    </section>
  );
}

export function SettingsView() {
  const info = useShell((state) => state.info);
  const settings = useShell((state) => state.settings);
  const settingsError = useShell((state) => state.settingsError);
  const changeSettings = useShell((state) => state.changeSettings);

  return (
    <div className="settings">
      {settingsError && (
        <p className="error banner" role="alert">
          {settingsError}
        </p>
      )}
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
      </section>

      <SyncSettings settings={settings} />

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
