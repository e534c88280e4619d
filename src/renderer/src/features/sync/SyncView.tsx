import './sync.css';
import type { ButtonHTMLAttributes } from 'react';
import type { EndpointBudget, SyncRunEntry, SyncStatus } from '../../../../shared/ipc/areas/sync';
import { EndpointCallsChart } from './EndpointCallsChart';
import { busyEndpoints } from './endpointCharts';
import { EmptyState } from '../../ui/EmptyState';
import { ProgressBar } from '../../ui/ProgressBar';
import {
  moduleRows,
  budgetState,
  describeEndpoint,
  formatAgo,
  formatDuration,
  phaseLabel,
  progressPercent,
  runProblems,
} from './syncFormat';
import { useSync } from './SyncContext';
import { useNow } from './useNow';

/**
 * A control that cannot act now says so with aria-disabled and stays focusable: `disabled`
 * under the focus (Pause pressed, a run ending) dropped the keyboard on the page's body.
 */
function ControlButton({
  blocked,
  onPress,
  ...props
}: { blocked: boolean; onPress(): void } & Omit<
  ButtonHTMLAttributes<HTMLButtonElement>,
  'onClick'
>) {
  return (
    <button
      type="button"
      {...props}
      aria-disabled={blocked}
      onClick={() => {
        if (!blocked) onPress();
      }}
    />
  );
}

function Controls({ status }: { status: SyncStatus }) {
  const { syncNow, pause, resume, cancel, busy } = useSync((state) => state);
  const running = status.running.length > 0;
  const signedIn = status.accounts.length > 0;
  return (
    <div className="sync-controls" role="toolbar" aria-label="Sync controls">
      <ControlButton
        className="primary"
        onPress={() => void syncNow()}
        blocked={busy || !signedIn}
        title={signedIn ? 'Pull what changed in every signed-in account' : 'Sign in first'}
      >
        Sync now
      </ControlButton>
      <ControlButton
        onPress={() => void syncNow({ reconcile: true })}
        blocked={busy || !signedIn}
        title="Also compare every record id with the service, to drop records deleted there"
      >
        Full check
      </ControlButton>
      {status.paused ? (
        <ControlButton onPress={() => void resume()} blocked={busy}>
          Resume
        </ControlButton>
      ) : (
        <ControlButton onPress={() => void pause()} blocked={busy || !running}>
          Pause
        </ControlButton>
      )}
      <ControlButton
        className="danger"
        onPress={() => void cancel()}
        blocked={busy || !running}
        title="Stop; everything pulled so far is kept"
      >
        Cancel
      </ControlButton>
    </div>
  );
}

function Overview({ status, now }: { status: SyncStatus; now: number }) {
  const online = status.online === null ? 'not tried yet' : status.online ? 'reachable' : 'offline';
  return (
    <dl className="sync-overview">
      <div>
        <dt>Service</dt>
        <dd data-testid="sync-online" className={status.online === false ? 'text-warn' : ''}>
          {online}
        </dd>
      </div>
      <div>
        <dt>Accounts</dt>
        <dd>
          {status.accounts.length === 0
            ? 'none signed in'
            : status.accounts.map((account) => `${account.label} (${account.dc})`).join(', ')}
        </dd>
      </div>
      <div>
        <dt>Next automatic sync</dt>
        <dd>
          {status.nextAutoSyncAt === null
            ? status.running.length > 0
              ? 'after this one'
              : 'none planned'
            : `in ${formatDuration(status.nextAutoSyncAt - now)}`}
        </dd>
      </div>
    </dl>
  );
}

function Portals({ status, now }: { status: SyncStatus; now: number }) {
  const portalNames = useSync((state) => state.portalNames);
  const moduleNames = useSync((state) => state.moduleNames);
  const byPortal = moduleRows(status, moduleNames);
  const portalProgress = new Map(
    status.progress
      .filter((row) => row.portalId !== null && row.moduleId === null)
      .map((row) => [row.portalId!, row]),
  );
  if (byPortal.size === 0 && portalProgress.size === 0) return null;
  const portals = new Set([...byPortal.keys(), ...portalProgress.keys()]);
  return (
    <section aria-labelledby="sync-portals">
      <h2 id="sync-portals">Portals and modules</h2>
      {[...portals].map((portalId) => {
        const portal = portalProgress.get(portalId);
        const name = portalNames[portalId] ?? `Portal ${portalId}`;
        // A portal whose records are done may still be reading comments in the background.
        const readingComments = (byPortal.get(portalId) ?? []).some(
          (row) => row.progress?.phase === 'comments',
        );
        return (
          <div className="sync-portal" key={portalId} data-testid={`sync-portal-${portalId}`}>
            <h3>
              {name}
              {portal && (
                <span className={`sync-phase${portal.phase === 'failed' ? ' text-danger' : ''}`}>
                  {' '}
                  · {phaseLabel(portal.phase)}
                  {portal.phase === 'done' && readingComments ? ' · reading comments' : ''}
                </span>
              )}
            </h3>
            {portal?.message && portal.phase === 'failed' && (
              <p className="error">{portal.message}</p>
            )}
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">Module</th>
                  <th scope="col">Progress</th>
                  <th scope="col" className="num">
                    Done
                  </th>
                  <th scope="col" className="num">
                    Calls
                  </th>
                  <th scope="col" className="num">
                    ETA
                  </th>
                  <th scope="col">Last synced</th>
                </tr>
              </thead>
              <tbody>
                {(byPortal.get(portalId) ?? []).map((row) => {
                  const p = row.progress;
                  const active = p && p.phase !== 'done' && p.phase !== 'failed';
                  return (
                    <tr key={row.key}>
                      <th scope="row">{row.module}</th>
                      <td>
                        <div className="sync-progress-cell">
                          {p ? (
                            <>
                              <ProgressBar
                                percent={progressPercent(
                                  p.done,
                                  p.phase === 'done' ? p.done : p.total,
                                )}
                                label={`${row.module}: ${phaseLabel(p.phase)}`}
                              />
                              <span
                                className={`muted${p.phase === 'failed' ? ' text-danger' : ''}`}
                              >
                                {phaseLabel(p.phase)}
                                {p.skipped > 0 ? ` · ${p.skipped} unreadable skipped` : ''}
                              </span>
                              {p.phase === 'failed' && p.message && (
                                <span className="error">{p.message}</span>
                              )}
                            </>
                          ) : (
                            <span className="muted">Idle</span>
                          )}
                        </div>
                      </td>
                      <td className="num">
                        {p
                          ? `${p.done.toLocaleString()}${p.total === null ? '' : ` / ${p.total.toLocaleString()}`}`
                          : '—'}
                      </td>
                      <td className="num">{p ? p.calls.toLocaleString() : '—'}</td>
                      <td className="num">
                        {active && p.etaMs !== null ? formatDuration(p.etaMs) : '—'}
                      </td>
                      <td>{row.lastSynced ? formatAgo(row.lastSynced, now) : 'never'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        );
      })}
    </section>
  );
}

function Budgets({ budgets, now }: { budgets: EndpointBudget[]; now: number }) {
  const portalNames = useSync((state) => state.portalNames);
  if (budgets.length === 0) return null;
  return (
    <section aria-labelledby="sync-budgets">
      <h2 id="sync-budgets">Rate-limit budget per endpoint</h2>
      <p className="muted">
        The service allows a number of calls per endpoint in a sliding window and blocks an endpoint
        that goes over; PortalDesk stays below it.
      </p>
      <table className="data-table" data-testid="sync-budgets">
        <thead>
          <tr>
            <th scope="col">Endpoint</th>
            <th scope="col">Portal</th>
            <th scope="col" className="num">
              Spent
            </th>
            <th scope="col" className="num">
              Remaining
            </th>
            <th scope="col" className="num">
              Queued
            </th>
            <th scope="col">Next call</th>
          </tr>
        </thead>
        <tbody>
          {budgets.map((budget) => {
            const endpoint = describeEndpoint(budget.key, (id) => portalNames[id]);
            const blocked = budget.blockedUntil !== null && budget.blockedUntil > now;
            return (
              <tr key={budget.key} className={blocked ? 'is-blocked' : ''}>
                <td>
                  <code>{endpoint.route}</code> <span className="muted">{endpoint.dc}</span>
                </td>
                <td>{endpoint.portal ?? '—'}</td>
                <td className="num">
                  {budget.spent} / {budget.limit} per {formatDuration(budget.windowMs)}
                </td>
                <td className="num">{budget.remaining}</td>
                <td className="num">{budget.queued + budget.inFlight}</td>
                <td className={blocked ? 'text-danger' : ''}>{budgetState(budget, now)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

/** A small chart per busy endpoint: its calls over the previous and the current window. */
function EndpointCharts({ budgets }: { budgets: EndpointBudget[] }) {
  const portalNames = useSync((state) => state.portalNames);
  const busy = busyEndpoints(budgets);
  if (busy.length === 0) return null;
  return (
    <section aria-labelledby="sync-endpoint-calls">
      <h2 id="sync-endpoint-calls">Calls per busy endpoint</h2>
      <p className="muted">
        Each bar is the number of calls in the window ending there, over the previous window (left
        of the thin line) and the current one; the dashed line is the service&apos;s limit.
      </p>
      <ul className="calls-charts">
        {busy.map((budget) => {
          const endpoint = describeEndpoint(budget.key, (id) => portalNames[id]);
          const label = `${endpoint.route}${endpoint.portal ? ` · ${endpoint.portal}` : ''}`;
          return (
            <li key={budget.key}>
              <EndpointCallsChart budget={budget} label={label} />
            </li>
          );
        })}
      </ul>
    </section>
  );
}

const STATE_LABEL: Record<SyncRunEntry['state'], string> = {
  running: 'Running',
  paused: 'Paused',
  done: 'Done',
  failed: 'Finished with errors',
  offline: 'Offline',
  cancelled: 'Cancelled',
};

function RunLog({
  log,
  now,
  accountLabels,
}: {
  log: SyncRunEntry[];
  now: number;
  /** Account ids to the words the Sync view shows for them (an e-mail, a portal). */
  accountLabels: Record<string, string>;
}) {
  if (log.length === 0) return null;
  return (
    <section aria-labelledby="sync-log">
      <h2 id="sync-log">Recent runs</h2>
      <ol className="sync-log" data-testid="sync-log">
        {log.map((run) => {
          const problems = runProblems(run);
          return (
            <li key={run.runId} className={`sync-log__run is-${run.state}`}>
              <div className="sync-log__head">
                <strong>{STATE_LABEL[run.state]}</strong>
                <span className="muted">
                  {formatAgo(run.startedAt, now)}
                  {run.endedAt !== null
                    ? ` · took ${formatDuration(run.endedAt - run.startedAt)}`
                    : ''}
                  {` · ${run.calls.toLocaleString()} calls · ${run.records.toLocaleString()} records · ${accountLabels[run.accountId] ?? run.accountId} (${run.dc})`}
                </span>
              </div>
              {problems.length > 0 && (
                <ul className="sync-log__problems">
                  {problems.map((problem, i) => (
                    <li key={i}>{problem}</li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

export function SyncView() {
  const status = useSync((state) => state.status);
  const error = useSync((state) => state.error);
  const now = useNow(1000);
  if (!status) {
    return (
      <p className="muted" role="status">
        Reading the sync state…
      </p>
    );
  }
  const nothingYet =
    status.accounts.length === 0 && status.log.length === 0 && status.lastSynced.length === 0;
  return (
    <div className="sync-view" data-testid="sync-view">
      <Controls status={status} />
      {error && (
        <p className="error banner" role="alert">
          {error}
        </p>
      )}
      {status.paused && (
        <p className="banner" role="status">
          Sync is paused: requests already sent finish and are stored; nothing new goes out until
          you resume.
        </p>
      )}
      {nothingYet ? (
        <EmptyState
          section="sync"
          title="Nothing synced yet"
          body="Each portal's mirror, its progress and ETA, the rate-limit budget of every endpoint and the log of recent runs appear here."
          next="Sign in to a portal to start its first sync."
        />
      ) : (
        <>
          <Overview status={status} now={now} />
          <Portals status={status} now={now} />
          <Budgets budgets={status.budgets} now={now} />
          <EndpointCharts budgets={status.budgets} />
          <RunLog
            log={status.log}
            now={now}
            accountLabels={Object.fromEntries(status.accounts.map((a) => [a.accountId, a.label]))}
          />
        </>
      )}
    </div>
  );
}
