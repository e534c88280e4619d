import type { PortalOverview } from '../../../../shared/ipc/areas/overview';
import { SECTIONS } from '../../app/sections';
import { useShell } from '../../app/ShellContext';
import { EmptyState } from '../../ui/EmptyState';
import { useBackups } from '../backups/BackupsContext';
import type { RecordsStore } from '../records/recordsStore';
import { GROUP_LABEL, GROUP_ORDER } from '../outbox/outboxFormat';
import { EndpointCallsChart } from '../sync/EndpointCallsChart';
import { busyEndpoints } from '../sync/endpointCharts';
import { describeEndpoint } from '../sync/syncFormat';
import { useNow } from '../sync/useNow';
import { BarList, type Bar } from './BarList';
import {
  backupAge,
  backupWarned,
  blockedEndpoints,
  outboxScope,
  statusFilter,
} from './overviewFormat';
import { useOverview } from './useOverview';
import { WeeklyChart } from './WeeklyChart';
import './overview.css';

const EMPTY = SECTIONS.find((section) => section.id === 'overview')!.empty;

/** Opens the records workspace on a module, with a filter applied or none. */
function useOpenRecords(records: RecordsStore, portalId: string) {
  const browsing = useBackups((state) => state.browsing);
  const closeBrowse = useBackups((state) => state.closeBrowse);
  const select = useShell((state) => state.select);
  return async (moduleId: string, filter: string | undefined) => {
    // A backup being browsed takes the records section's place: the overview is the mirror's.
    if (browsing) await closeBrowse();
    select('records');
    await records.getState().openFiltered(portalId, moduleId, filter);
  };
}

function Modules({ overview, records }: { overview: PortalOverview; records: RecordsStore }) {
  const open = useOpenRecords(records, overview.portalId);
  const bars: Bar[] = overview.modules.map((module) => ({
    key: module.moduleId,
    label: module.name,
    value: module.records,
  }));
  return (
    <section className="overview-card" aria-labelledby="overview-modules">
      <h2 id="overview-modules">Records per module</h2>
      {bars.length === 0 ? (
        <p className="muted">This portal has no custom modules in the mirror.</p>
      ) : (
        <BarList
          bars={bars}
          openLabel="Open them in Records."
          testId="overview-modules"
          onOpen={(bar) => void open(bar.key, undefined)}
        />
      )}
    </section>
  );
}

function Statuses({ overview, records }: { overview: PortalOverview; records: RecordsStore }) {
  const open = useOpenRecords(records, overview.portalId);
  const modules = overview.modules.filter((module) => module.statuses.length > 0);
  return (
    <section className="overview-card overview-card--wide" aria-labelledby="overview-statuses">
      <h2 id="overview-statuses">Records per status</h2>
      {modules.length === 0 && <p className="muted">No statuses in the mirror yet.</p>}
      <div className="overview-statuses">
        {modules.map((module) => (
          <div key={module.moduleId} className="overview-statuses__module">
            <h3 id={`overview-status-${module.moduleId}`}>{module.name}</h3>
            <BarList
              bars={module.statuses.map((status) => ({
                key: status.statusId ?? '',
                label: status.name,
                value: status.records,
                color: status.color,
              }))}
              openLabel={`Open the ${module.name} with this status in Records.`}
              testId={`overview-statuses-${module.moduleId}`}
              onOpen={(bar) =>
                void open(module.moduleId, statusFilter(bar.key === '' ? null : bar.key))
              }
            />
          </div>
        ))}
      </div>
    </section>
  );
}

/** The portal's operations per state, named and ordered as the Outbox view's groups. */
function Outbox({ overview }: { overview: PortalOverview }) {
  const select = useShell((state) => state.select);
  const { outbox } = overview;
  const waiting = GROUP_ORDER.reduce((sum, group) => sum + outbox[group], 0);
  const scope = outboxScope(outbox);
  const tone = { conflict: 'is-warn', failed: 'is-danger', sending: '', pending: '' } as const;
  return (
    <section className="overview-card" aria-labelledby="overview-outbox">
      <h2 id="overview-outbox">Waiting in the Outbox</h2>
      <dl className="overview-figures" data-testid="overview-outbox">
        {GROUP_ORDER.map((group) => (
          <div key={group} className={outbox[group] > 0 ? tone[group] : ''}>
            <dt>{GROUP_LABEL[group]}</dt>
            <dd>{outbox[group].toLocaleString()}</dd>
          </div>
        ))}
      </dl>
      {waiting === 0 && <p className="muted">Nothing waits to be sent for this portal.</p>}
      {scope && (
        <p className="muted" data-testid="overview-outbox-scope">
          {scope}
        </p>
      )}
      {outbox.allPortals > 0 && (
        <button type="button" onClick={() => select('outbox')}>
          Open the Outbox
        </button>
      )}
    </section>
  );
}

function Budgets({ overview, now }: { overview: PortalOverview; now: number }) {
  const busy = busyEndpoints(overview.budgets);
  const blocked = blockedEndpoints(overview.budgets, now);
  return (
    <section className="overview-card overview-card--wide" aria-labelledby="overview-budgets">
      <h2 id="overview-budgets">Rate budgets in use</h2>
      {overview.budgets.length === 0 ? (
        <p className="muted">
          No calls to this portal&apos;s endpoints in the current or the previous rate window, and
          none waiting.
        </p>
      ) : (
        <>
          <p className="muted">
            {overview.budgets.length} endpoint{overview.budgets.length === 1 ? '' : 's'} of this
            portal in use; the busiest below, every one in the Sync section.
          </p>
          {blocked.map((line) => (
            <p key={line} className="error">
              {line}
            </p>
          ))}
          <ul className="calls-charts">
            {busy.map((budget) => (
              <li key={budget.key}>
                <EndpointCallsChart
                  budget={budget}
                  label={describeEndpoint(budget.key, () => undefined).route}
                />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function Backup({ overview, now }: { overview: PortalOverview; now: number }) {
  const select = useShell((state) => state.select);
  const old = backupWarned(overview.lastBackup, overview.lastFailure, now);
  return (
    <section className="overview-card" aria-labelledby="overview-backup">
      <h2 id="overview-backup">Last backup</h2>
      <p
        className={old ? 'overview-backup is-warn' : 'overview-backup'}
        data-testid="overview-backup"
      >
        {backupAge(overview.lastBackup, now, overview.lastFailure)}
      </p>
      <button type="button" onClick={() => select('backups')}>
        Open Backups
      </button>
    </section>
  );
}

/** `records`: the mirror's records store, whose workspace the bars open. */
export function OverviewView({ records }: { records: RecordsStore }) {
  const { portals, portalId, overview, error, loading, selectPortal, refresh } = useOverview();
  const now = useNow(30_000);
  if (portals === null && !error) {
    return (
      <p className="muted" role="status">
        Reading the mirrored portals…
      </p>
    );
  }
  if (portals !== null && portals.length === 0) {
    return <EmptyState section="overview" {...EMPTY} />;
  }
  return (
    <div className="overview-view" data-testid="overview-view">
      <div className="overview-controls">
        <label>
          Portal{' '}
          <select
            value={portalId ?? ''}
            onChange={(event) => selectPortal(event.target.value)}
            disabled={!portals}
          >
            {(portals ?? []).map((portal) => (
              <option key={portal.id} value={portal.id}>
                {portal.name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={refresh} disabled={portalId === null || loading}>
          {loading ? 'Reading…' : 'Refresh'}
        </button>
        {overview && (
          <span className="muted">
            Weeks in {overview.timeZone}; read from the local mirror{' '}
            {new Date(overview.at).toLocaleTimeString()}.
          </span>
        )}
      </div>
      {error && (
        <p className="error banner" role="alert">
          {error}
        </p>
      )}
      {overview && overview.portalId === portalId ? (
        <div className="overview-grid">
          <Modules overview={overview} records={records} />
          <Outbox overview={overview} />
          <Backup overview={overview} now={now} />
          <Statuses overview={overview} records={records} />
          <section className="overview-card overview-card--wide" aria-labelledby="overview-weeks">
            <h2 id="overview-weeks">Records created and updated per week</h2>
            <WeeklyChart overview={overview} />
          </section>
          <Budgets overview={overview} now={now} />
        </div>
      ) : (
        !error && (
          <p className="muted" role="status">
            Counting the portal&apos;s records…
          </p>
        )
      )}
    </div>
  );
}
