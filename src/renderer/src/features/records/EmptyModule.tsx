import { useState } from 'react';
import type { RecordsModule, RecordsPortal } from '../../../../shared/ipc/areas/records';
import { ProgressBar } from '../../ui/ProgressBar';
import { useSync } from '../sync/SyncContext';
import { formatAgo, formatDuration, phaseLabel, progressPercent } from '../sync/syncFormat';
import { useNow } from '../sync/useNow';
import { EmptyState } from '../../ui/EmptyState';
import { moduleSyncState, portalSyncState } from './moduleSyncState';

const count = new Intl.NumberFormat();

/** "Sync this portal", or why it cannot be offered; the refusal shown beside it. */
function SyncPortalButton({ portal, label }: { portal: RecordsPortal; label: string }) {
  const signedIn = useSync(
    (s) => s.status?.accounts.some((a) => a.accountId === portal.accountId) ?? false,
  );
  const syncNow = useSync((s) => s.syncNow);
  const busy = useSync((s) => s.busy);
  const error = useSync((s) => s.error);
  const [asked, setAsked] = useState(false);
  if (!signedIn) {
    return (
      <p className="hint">
        The portal's account ({portal.accountId}) is signed out: sign in to it to sync this portal.
      </p>
    );
  }
  return (
    <>
      <button
        type="button"
        disabled={busy}
        onClick={() => {
          setAsked(true);
          void syncNow({ accountId: portal.accountId, portalId: portal.id });
        }}
      >
        {label}
      </button>
      {asked && error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

/**
 * What a module's list says while the mirror holds none of its records: the sync's progress while
 * one pulls them (live, from the sync's own status), that the service has none once a sync found
 * none, why not when it failed or stopped, and only when it was never synced that a sync brings
 * them.
 */
export function EmptyModule({ module, portal }: { module: RecordsModule; portal: RecordsPortal }) {
  const status = useSync((s) => s.status);
  const now = useNow(15_000);
  const state = moduleSyncState(status, portal, module.id);
  const name = module.pluralName;

  switch (state.kind) {
    case 'pulling': {
      const { progress } = state;
      const percent = progressPercent(progress.done, progress.total);
      return (
        <div className="list-state module-sync" role="status" data-testid="module-sync">
          <p className="module-sync__title">
            {state.paused ? `Pulling ${name} is paused` : `Pulling ${name} from the service…`}
          </p>
          <ProgressBar percent={percent} label={`${name}: ${phaseLabel(progress.phase)}`} />
          <p>
            {count.format(progress.done)}
            {progress.total === null ? '' : ` of ${count.format(progress.total)}`} records so far ·{' '}
            {phaseLabel(progress.phase)}
            {percent === null ? '' : ` · ${percent}%`}
            {!state.paused && progress.etaMs !== null && progress.etaMs > 0
              ? ` · about ${formatDuration(progress.etaMs)} left`
              : ''}
          </p>
          <p className="hint">
            {state.paused
              ? 'Resume the sync in the Sync section; the records appear here as they arrive.'
              : 'The records appear here as they arrive.'}
          </p>
        </div>
      );
    }
    case 'starting':
      return (
        <div className="list-state module-sync" role="status" data-testid="module-sync">
          <p className="module-sync__title">
            {state.paused
              ? `A sync of this portal is paused before ${name}`
              : `A sync of this portal is running; it has not reached ${name} yet`}
          </p>
          <ProgressBar percent={null} label={phaseLabel(state.phase)} />
          <p>{phaseLabel(state.phase)}…</p>
        </div>
      );
    case 'complete':
      return (
        <div className="list-state" role="status" data-testid="module-sync">
          <p>
            The service has no {name}: the sync {formatAgo(state.at, now)} found none.
          </p>
          <p className="hint">New ones come with the next sync.</p>
        </div>
      );
    case 'failed':
      return (
        <div className="list-state" role="status" data-testid="module-sync">
          <p className="field-error">
            {name} could not be pulled
            {state.at === null ? '' : ` (${formatAgo(state.at, now)})`}
            {state.message ? `: ${state.message}` : '.'}
          </p>
          <SyncPortalButton portal={portal} label="Sync this portal again" />
        </div>
      );
    case 'stopped':
      return (
        <div className="list-state" role="status" data-testid="module-sync">
          <p>
            The sync stopped before any {name} arrived
            {state.message ? `: ${state.message}` : '.'}
          </p>
          <SyncPortalButton portal={portal} label="Sync this portal" />
        </div>
      );
    case 'synced':
      return (
        <div className="list-state" role="status" data-testid="module-sync">
          <p>
            No {name} in the mirror: the sync of this module {formatAgo(state.at, now)} brought
            none.
          </p>
          <SyncPortalButton portal={portal} label="Sync this portal" />
        </div>
      );
    case 'never':
      return (
        <div className="list-state" role="status" data-testid="module-sync">
          <p>No {name} in the mirror yet: this module has not been synced.</p>
          <SyncPortalButton portal={portal} label="Sync this portal" />
        </div>
      );
  }
}

/**
 * A portal with no modules in the mirror yet: while its first sync reads them, what it is doing;
 * otherwise that a sync brings them.
 */
export function EmptyPortal({ portal }: { portal: RecordsPortal }) {
  const status = useSync((s) => s.status);
  const state = portalSyncState(status, portal);
  if (state?.kind === 'starting') {
    return (
      <div className="list-state module-sync" role="status" data-testid="portal-sync">
        <p className="module-sync__title">
          {state.paused
            ? 'The first sync of this portal is paused'
            : 'The first sync of this portal is running'}
        </p>
        <ProgressBar percent={null} label={phaseLabel(state.phase)} />
        <p>{phaseLabel(state.phase)}…</p>
        <p className="hint">Its modules and their records appear here as they arrive.</p>
      </div>
    );
  }
  return (
    <EmptyState
      section="records"
      title="This portal has no modules in the mirror yet"
      body={
        state?.kind === 'failed'
          ? `The sync could not read its modules${state.message ? `: ${state.message}` : '.'}`
          : 'Its modules, their fields and records appear here once the portal has been synced.'
      }
      next="Open the Sync section and run a sync for this portal."
    />
  );
}
