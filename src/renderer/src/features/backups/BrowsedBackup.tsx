import './backups.css';
import { useEffect, useMemo } from 'react';
import type { BackupSnapshot } from '../../../../shared/ipc/areas/backups';
import { useApi } from '../../bridge/ApiContext';
import { useShell } from '../../app/ShellContext';
import { useRecordsStore } from '../records/RecordsContext';
import { createRecordsStore, type RecordsStore } from '../records/recordsStore';
import { useBackups } from './BackupsContext';

const count = new Intl.NumberFormat();

function madeAtText(snapshot: BackupSnapshot): string {
  if (!snapshot.madeAt) return 'at an unknown time';
  return new Date(snapshot.madeAt).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

/**
 * The records store the records section reads: the live mirror's, or, while a backup is open for
 * browsing, one of its own that names the backup in every read (the same table, filters, search,
 * navigation and detail panel, read-only). The shell provides it to the sidebar and the view alike.
 */
export function useRecordsSource(): RecordsStore {
  const api = useApi();
  const live = useRecordsStore();
  const browsing = useBackups((state) => state.browsing);
  const browsed = useMemo(
    () => (browsing ? createRecordsStore(api, { snapshot: browsing }) : null),
    [api, browsing],
  );
  useEffect(() => {
    if (browsed) void browsed.getState().load();
  }, [browsed]);
  return browsed ?? live;
}

/** Above the records of a browsed backup: which backup, that it is read-only, and the way back. */
export function BrowsedBackupBanner({ snapshot }: { snapshot: BackupSnapshot }) {
  const closeBrowse = useBackups((state) => state.closeBrowse);
  const showSection = useShell((state) => state.select);
  const skipped = snapshot.skippedModules;
  return (
    <section className="notice notice--backup" aria-label="Browsing a backup" role="region">
      <div className="browsed-backup__text">
        <p>
          <strong>
            Backup of {snapshot.portalName}, made {madeAtText(snapshot)}
          </strong>
        </p>
        <p>
          Read-only: {count.format(snapshot.records)} records as they were then (
          {count.format(snapshot.trashed)} in its recycle bin), shown with the fields the portal has
          now. Nothing here can be edited.
          {skipped.length > 0 &&
            ` Not shown: ${skipped.join(', ')} (${skipped.length === 1 ? 'a module' : 'modules'} the portal no longer has).`}
        </p>
      </div>
      <div className="actions">
        <button type="button" onClick={() => showSection('backups')}>
          Compare in Backups
        </button>
        <button type="button" className="primary" onClick={() => void closeBrowse()}>
          Back to the live mirror
        </button>
      </div>
    </section>
  );
}
