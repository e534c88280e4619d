import { useId, useState } from 'react';
import type {
  BackupPortal,
  BackupScheduleSpec,
  BackupView,
} from '../../../../shared/ipc/areas/backups';
import { BackupRow } from './BackupRow';
import { useBackups } from './BackupsContext';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function ScheduleForm({ portal }: { portal: BackupPortal }) {
  const setSchedule = useBackups((state) => state.setSchedule);
  const [draft, setDraft] = useState<BackupScheduleSpec>(portal.schedule);
  const ids = useId();
  const changed = JSON.stringify(draft) !== JSON.stringify(portal.schedule);
  return (
    <form
      className="backups-schedule"
      aria-label={`Schedule of ${portal.portalName}`}
      onSubmit={(event) => {
        event.preventDefault();
        void setSchedule(portal.portalId, draft);
      }}
    >
      <label htmlFor={`${ids}-frequency`}>Scheduled backups</label>
      <select
        id={`${ids}-frequency`}
        value={draft.frequency}
        onChange={(event) =>
          setDraft({ ...draft, frequency: event.target.value as BackupScheduleSpec['frequency'] })
        }
      >
        <option value="off">Off</option>
        <option value="daily">Daily</option>
        <option value="weekly">Weekly</option>
      </select>
      {draft.frequency === 'weekly' && (
        <select
          aria-label="Day of the week"
          value={draft.weekday}
          onChange={(event) => setDraft({ ...draft, weekday: Number(event.target.value) })}
        >
          {WEEKDAYS.map((day, index) => (
            <option key={day} value={index}>
              on {day}
            </option>
          ))}
        </select>
      )}
      {draft.frequency !== 'off' && (
        <>
          <select
            aria-label="Hour"
            value={draft.hour}
            onChange={(event) => setDraft({ ...draft, hour: Number(event.target.value) })}
          >
            {Array.from({ length: 24 }, (_, hour) => (
              <option key={hour} value={hour}>
                at {String(hour).padStart(2, '0')}:00
              </option>
            ))}
          </select>
          <label htmlFor={`${ids}-keep`}>keep the last</label>
          <input
            id={`${ids}-keep`}
            type="number"
            min={1}
            max={365}
            value={draft.keep}
            onChange={(event) =>
              setDraft({
                ...draft,
                keep: Math.max(1, Math.min(365, Number(event.target.value) || 1)),
              })
            }
          />
        </>
      )}
      <button type="submit" disabled={!changed}>
        Save schedule
      </button>
    </form>
  );
}

export function PortalBackups({
  portal,
  backups,
  web,
  mirrored = true,
}: {
  portal: BackupPortal;
  backups: BackupView[];
  web: boolean;
  /** False for backups of portals the mirror no longer holds: nothing to schedule or read. */
  mirrored?: boolean;
}) {
  const { refreshHistory, forgetCode, readKeychain } = useBackups((state) => state);
  const error = useBackups((state) => state.errors[`portal:${portal.portalId}`]);
  const busy = useBackups((state) => state.busy[`portal:${portal.portalId}`] ?? false);
  const ids = useId();
  return (
    <section className="card backups-portal" aria-labelledby={`${ids}-name`}>
      <header className="backups-portal__header">
        <h2 id={`${ids}-name`}>{portal.portalName}</h2>
        <div className="actions">
          {mirrored && (
            <button
              type="button"
              onClick={() => void refreshHistory(portal.portalId)}
              disabled={busy || !portal.available}
              title={
                portal.available
                  ? "Read the service's backup history"
                  : 'Sign in to read the history'
              }
            >
              {busy ? 'Reading…' : 'Refresh history'}
            </button>
          )}
          {portal.accessCode === 'kept' && (
            <button type="button" onClick={() => void forgetCode(portal.portalId)} disabled={busy}>
              Forget the kept code
            </button>
          )}
        </div>
      </header>
      {mirrored && <ScheduleForm key={JSON.stringify(portal.schedule)} portal={portal} />}
      {portal.accessCode === 'unreadable' && (
        <div className="backups-keychain" role="status">
          <p className="text-warn">
            The system keychain could not be read
            {portal.keychainProblem ? ` (${portal.keychainProblem})` : ''}, so PortalDesk cannot
            tell whether an access code is kept for this portal; it may well be. Nothing was
            changed. Unlock the keychain, then read it again; until then, enter the code to verify,
            compare or browse a backup.
          </p>
          <button type="button" onClick={() => void readKeychain(portal.portalId)} disabled={busy}>
            Read the keychain again
          </button>
        </div>
      )}
      <p className="hint">
        {portal.accessCode === 'kept' ? 'The access code is kept in the system keychain. ' : ''}
        {portal.nextRun
          ? `Next scheduled backup: ${new Date(portal.nextRun).toLocaleString()}. Scheduled backups beyond the last ${portal.schedule.keep} are deleted from this computer; backups made by hand stay until you delete them.`
          : ''}
      </p>
      {portal.scheduleProblem && <p className="text-warn">{portal.scheduleProblem}</p>}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {backups.length === 0 ? (
        <p className="muted">
          No backups of this portal yet, here or in what the service last listed.
        </p>
      ) : (
        <table className="data-table backups-table">
          <thead>
            <tr>
              <th scope="col">Made</th>
              <th scope="col">State</th>
              <th scope="col" className="num">
                Size
              </th>
              <th scope="col">Checked</th>
              <th scope="col">File</th>
            </tr>
          </thead>
          <tbody>
            {backups.map((backup) => (
              <BackupRow
                key={backup.id}
                backup={backup}
                web={web}
                available={portal.available}
                codeKept={portal.accessCode === 'kept'}
              />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
