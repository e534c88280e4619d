import { useId, useState, type FormEvent } from 'react';
import type { BackupPortal } from '../../../../shared/ipc/areas/backups';
import { accessCodeStrength } from './accessCodeStrength';
import { useBackups } from './BackupsContext';

/**
 * "Back up now": which portals, the access code (the archive's password) with a strength hint,
 * attachments, and whether to keep the code in the keychain. The code lives in this form only
 * until the request is sent, then the field is emptied.
 */
export function StartBackupForm({ portals }: { portals: BackupPortal[] }) {
  const start = useBackups((state) => state.start);
  const error = useBackups((state) => state.errors.start);
  const busy = useBackups((state) => state.busy.start ?? false);
  const available = portals.filter((portal) => portal.available);
  const [chosen, setChosen] = useState<string[]>(() =>
    available.slice(0, 1).map((p) => p.portalId),
  );
  const [code, setCode] = useState('');
  const [attachments, setAttachments] = useState(false);
  const [keepCode, setKeepCode] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const ids = useId();
  const strength = accessCodeStrength(code);

  const toggle = (portalId: string, on: boolean) =>
    setChosen((current) =>
      on ? [...new Set([...current, portalId])] : current.filter((id) => id !== portalId),
    );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (chosen.length === 0) return setProblem('Choose at least one portal to back up.');
    if (strength.level === 0) return setProblem(`The access code is too short: ${strength.hint}`);
    setProblem(null);
    const started = await start({
      portalIds: chosen,
      accessCode: code,
      attachmentNeeded: attachments,
      keepCode,
    });
    // Sent or refused, the code leaves the form's state; a refusal says why beside the button.
    setCode('');
    void started;
  };

  if (available.length === 0) {
    return (
      <section className="card backups-start" aria-labelledby={`${ids}-title`}>
        <h2 id={`${ids}-title`}>Back up now</h2>
        <p className="muted">
          No signed-in account reaches a mirrored portal. Sign in (top left) to make backups; the
          backups already on this computer stay listed below.
        </p>
      </section>
    );
  }

  return (
    <form
      className="card backups-start"
      aria-labelledby={`${ids}-title`}
      onSubmit={(e) => void submit(e)}
    >
      <h2 id={`${ids}-title`}>Back up now</h2>
      <fieldset className="backups-portals">
        <legend>Portals</legend>
        {available.map((portal) => (
          <label key={portal.portalId} className="settings-check">
            <input
              type="checkbox"
              checked={chosen.includes(portal.portalId)}
              onChange={(event) => toggle(portal.portalId, event.target.checked)}
            />
            {portal.portalName}
          </label>
        ))}
        {available.length > 1 && (
          <button
            type="button"
            className="link-button"
            onClick={() => setChosen(available.map((p) => p.portalId))}
          >
            Choose every portal
          </button>
        )}
      </fieldset>
      <div className="backups-code">
        <label htmlFor={`${ids}-code`}>Access code (the backup&apos;s password)</label>
        <input
          id={`${ids}-code`}
          type="password"
          autoComplete="new-password"
          value={code}
          maxLength={128}
          onChange={(event) => setCode(event.target.value)}
          aria-describedby={`${ids}-strength`}
          required
        />
        <p
          id={`${ids}-strength`}
          className={`hint strength strength--${strength.level}`}
          aria-live="polite"
        >
          {code === ''
            ? 'You will need this code to open or verify the backup: 8 to 64 characters.'
            : `${strength.label}: ${strength.hint}`}
        </p>
      </div>
      <label className="settings-check">
        <input
          type="checkbox"
          checked={attachments}
          onChange={(e) => setAttachments(e.target.checked)}
        />
        Include comments&apos; attachment lists (<code>attachment_needed</code>)
      </label>
      <label className="settings-check">
        <input type="checkbox" checked={keepCode} onChange={(e) => setKeepCode(e.target.checked)} />
        Keep the code in the system keychain for these portals (needed by scheduled backups and
        verification without typing it)
      </label>
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy
            ? 'Asking the service…'
            : chosen.length > 1
              ? `Back up ${chosen.length} portals`
              : 'Back up'}
        </button>
      </div>
      {(problem ?? error) && (
        <p className="error" role="alert">
          {problem ?? error}
        </p>
      )}
    </form>
  );
}
