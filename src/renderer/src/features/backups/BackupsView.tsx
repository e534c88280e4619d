import './backups.css';
import { useEffect } from 'react';
import { SECTIONS } from '../../app/sections';
import { useShell } from '../../app/ShellContext';
import { EmptyState } from '../../ui/EmptyState';
import { useBackups } from './BackupsContext';
import { PortalBackups } from './PortalBackups';
import { StartBackupForm } from './StartBackupForm';

const EMPTY = SECTIONS.find((section) => section.id === 'backups')!.empty;

/**
 * Portal backups: make one now, watch it go (generating, downloading, verifying), see each
 * portal's history here and on the service, verify, download, drag out, delete, and schedule.
 */
export function BackupsView() {
  const overview = useBackups((state) => state.overview);
  const load = useBackups((state) => state.load);
  // Read again whenever the view opens: portals come and go with syncs and sign-ins.
  useEffect(() => void load(), [load]);
  const loadError = useBackups((state) => state.errors.load);
  const web = useShell((state) => state.info?.mode === 'web');
  if (!overview) {
    return loadError ? (
      <p className="error banner" role="alert">
        The backups could not be read: {loadError}
      </p>
    ) : (
      <p className="muted">Reading backups…</p>
    );
  }
  if (overview.portals.length === 0 && overview.backups.length === 0) {
    return <EmptyState section="backups" {...EMPTY} />;
  }
  const portalIds = new Set(overview.portals.map((portal) => portal.portalId));
  const orphans = overview.backups.filter((backup) => !portalIds.has(backup.portalId));
  return (
    <div className="backups-view">
      <StartBackupForm portals={overview.portals} />
      <p className="hint">
        Backups are kept in <span className="mono">{overview.folder}</span>.{' '}
        {web
          ? 'Download a backup, or drag its row to a folder.'
          : 'Drag a backup row to your desktop or a folder to copy its file there.'}
      </p>
      {overview.portals.map((portal) => (
        <PortalBackups
          key={portal.portalId}
          portal={portal}
          backups={overview.backups.filter((backup) => backup.portalId === portal.portalId)}
          web={web}
        />
      ))}
      {orphans.length > 0 && (
        <PortalBackups
          portal={{
            portalId: orphans[0]!.portalId,
            portalName: 'Portals no longer mirrored',
            accountId: '',
            available: false,
            accessCode: 'none',
            keychainProblem: null,
            schedule: { frequency: 'off', hour: 2, weekday: 0, keep: 7 },
            nextRun: null,
            scheduleProblem: null,
          }}
          backups={orphans}
          web={web}
          mirrored={false}
        />
      )}
    </div>
  );
}
