/**
 * The Outbox view: every queued change by state (conflicts and refusals first), with retry,
 * discard and edit (a refused field change is edited in place and goes out again), the conflict
 * panel, the "work offline" switch and the last notice. A configuration change shows its request
 * (method, path, body) under "What will be sent". Empty: the shell's empty state. The "Sent" tab
 * is the history of what was delivered (SentHistory).
 */
import './outbox.css';
import { useRef, useState, type KeyboardEvent } from 'react';
import type { OutboxEntry } from '../../../../shared/ipc/areas/outbox';
import { EmptyState } from '../../ui/EmptyState';
import { ConflictPanel } from './ConflictPanel';
import {
  GROUP_LABEL,
  GROUP_ORDER,
  commentStart,
  formatValue,
  groupEntries,
  kindLabel,
  operationSubject,
  requestBody,
} from './outboxFormat';
import { useOutbox } from './OutboxContext';
import { OUTBOX_SHOWN_PER_STATE } from './outboxStore';
import { SentHistory } from './SentHistory';
import { BulkEditGroups } from './BulkEditGroups';
import { WorkOfflineToggle } from './WorkOfflineToggle';

/** What a configuration change will send, folded away until asked for. */
function ConfigRequest({ request }: { request: NonNullable<OutboxEntry['config']>['request'] }) {
  return (
    <details className="outbox-request">
      <summary>What will be sent</summary>
      <p className="mono outbox-request__line">
        {request.method} {request.path}
      </p>
      {request.body === undefined || request.body === null ? (
        <p className="muted outbox-request__line">No body.</p>
      ) : (
        <pre aria-label="Body">{requestBody(request.body)}</pre>
      )}
    </details>
  );
}

function Entry({ entry, onEdit }: { entry: OutboxEntry; onEdit(entry: OutboxEntry): void }) {
  const retry = useOutbox((s) => s.retry);
  const discard = useOutbox((s) => s.discard);
  const busy = useOutbox((s) => s.busy);
  const actions = (
    <>
      {(entry.state === 'failed' ||
        (entry.state === 'pending' && entry.nextAttemptAt !== null)) && (
        <button type="button" disabled={busy} onClick={() => void retry(entry.id)}>
          Retry
        </button>
      )}
      {entry.state === 'failed' && (entry.kind === 'update' || entry.kind === 'create') && (
        <button type="button" disabled={busy} onClick={() => onEdit(entry)}>
          Edit
        </button>
      )}
      {entry.state !== 'sending' && (
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={() => void discard(entry.id)}
        >
          Discard
        </button>
      )}
    </>
  );
  return (
    <li
      className={`outbox-entry is-${entry.state}`}
      data-testid="outbox-entry"
      data-state={entry.state}
      data-kind={entry.kind}
    >
      <div className="outbox-entry__head">
        <strong>{kindLabel(entry.kind)}</strong>
        {entry.config ? (
          <span>
            {entry.config.summary}
            <span className="muted"> · module {entry.config.target}</span>
          </span>
        ) : (
          <span>
            {operationSubject({ ...entry, comment: entry.comment?.content ?? null })}
            {entry.module && <span className="muted"> · {entry.module}</span>}
          </span>
        )}
        <span className="muted" title={entry.queuedAt}>
          queued {new Date(entry.queuedAt).toLocaleString()}
          {entry.edits > 1 && ` · ${entry.edits} edits combined`}
        </span>
      </div>
      {entry.fields.length > 0 && entry.state !== 'conflict' && (
        <ul className="outbox-entry__fields">
          {entry.fields.map((f) => (
            <li key={f.field}>
              {f.label}:{' '}
              {entry.kind === 'update' && (
                <span className="muted">{formatValue(f.type, f.base)} → </span>
              )}
              {formatValue(f.type, f.mine)}
            </li>
          ))}
        </ul>
      )}
      {entry.config && <ConfigRequest request={entry.config.request} />}
      {/* The headline has the comment's start; the whole text when the start left some out. */}
      {entry.comment?.content && commentStart(entry.comment.content) !== entry.comment.content && (
        <p className="outbox-entry__comment">“{entry.comment.content}”</p>
      )}
      {entry.error && (
        <p
          className={entry.state === 'failed' ? 'error' : 'muted'}
          role={entry.state === 'failed' ? 'alert' : undefined}
        >
          {entry.error}
        </p>
      )}
      {entry.uncertain && entry.state !== 'failed' && (
        <p className="muted">
          An earlier send got no answer: the service is checked before anything is sent again.
        </p>
      )}
      {entry.state === 'conflict' ? (
        // The conflict's own choices and Discard share one row of buttons.
        <ConflictPanel entry={entry}>{actions}</ConflictPanel>
      ) : (
        <div className="outbox-entry__actions actions">{actions}</div>
      )}
    </li>
  );
}

type Tab = 'queued' | 'sent';
const TABS: readonly { id: Tab; label: string }[] = [
  { id: 'queued', label: 'Queued' },
  { id: 'sent', label: 'Sent' },
];

export function OutboxView({ onEditRecord }: { onEditRecord?: (entry: OutboxEntry) => void }) {
  const [tab, setTab] = useState<Tab>('queued');
  const total = useOutbox((s) => s.status?.total ?? s.entries.length);
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  // The tab pattern: arrows move between the tabs (and choose), Home and End to the ends.
  const onKey = (event: KeyboardEvent, index: number) => {
    const last = TABS.length - 1;
    const to =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (to === null) return;
    event.preventDefault();
    setTab(TABS[to]!.id);
    tabs.current[to]?.focus();
  };
  return (
    <div className="outbox-view" data-testid="outbox-view">
      <div role="tablist" aria-label="Outbox" className="outbox-tabs">
        {TABS.map((t, index) => (
          <button
            key={t.id}
            ref={(element) => {
              tabs.current[index] = element;
            }}
            id={`outbox-tab-${t.id}`}
            role="tab"
            type="button"
            aria-selected={tab === t.id}
            aria-controls={`outbox-panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => setTab(t.id)}
            onKeyDown={(event) => onKey(event, index)}
          >
            {t.label}
            {t.id === 'queued' && total > 0 && <span className="muted"> ({total})</span>}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`outbox-panel-${tab}`}
        aria-labelledby={`outbox-tab-${tab}`}
        className="outbox-view__panel"
      >
        {tab === 'queued' ? <QueuedView onEditRecord={onEditRecord} /> : <SentHistory />}
      </div>
    </div>
  );
}

/** The queue: what waits to be sent, by state. */
function QueuedView({
  onEditRecord,
}: {
  onEditRecord?: ((entry: OutboxEntry) => void) | undefined;
}) {
  const entries = useOutbox((s) => s.entries);
  const status = useOutbox((s) => s.status);
  const error = useOutbox((s) => s.error);
  const notice = useOutbox((s) => s.notice);
  const dismiss = useOutbox((s) => s.dismissNotice);
  const retry = useOutbox((s) => s.retry);
  const perState = useOutbox((s) => s.perState);
  const showMore = useOutbox((s) => s.showMore);
  const [editing, setEditing] = useState<OutboxEntry | null>(null);
  const groups = groupEntries(entries);
  const onEdit = (entry: OutboxEntry) => (onEditRecord ? onEditRecord(entry) : setEditing(entry));

  return (
    <>
      <div className="outbox-view__bar">
        <WorkOfflineToggle />
        {status && status.online === false && !status.workOffline && (
          <span className="muted">
            The service cannot be reached; changes wait and go out when the connection is back.
          </span>
        )}
        {entries.some((e) => e.state === 'failed' || e.nextAttemptAt !== null) && (
          <button type="button" onClick={() => void retry()}>
            Retry all
          </button>
        )}
      </div>
      {notice && (
        <p
          className={`banner ${notice.kind === 'attention' ? 'error' : 'banner--ok'}`}
          role="status"
          data-testid="outbox-notice"
        >
          <span>{notice.message}</span>
          <button type="button" onClick={dismiss}>
            Dismiss
          </button>
        </p>
      )}
      {error && (
        <p className="error banner" role="alert">
          {error}
        </p>
      )}
      {editing && (
        <p className="banner" role="status">
          <span>
            Open record {editing.recordName ?? editing.recordId} in Records and change the refused
            value: the corrected change goes out again.
          </span>
          <button type="button" onClick={() => setEditing(null)}>
            OK
          </button>
        </p>
      )}
      <BulkEditGroups />
      {entries.length === 0 ? (
        <EmptyState
          section="outbox"
          title="No pending edits"
          body="Edits you make offline wait here until they are replayed to the service, each exactly once. Conflicts with changes made by others are shown field by field."
          next="Edit a mirrored record to queue a change."
        />
      ) : (
        GROUP_ORDER.map((group) => {
          const list = groups.get(group) ?? [];
          if (list.length === 0) return null;
          // The list holds the oldest `perState` of a state; the status counts them all.
          const all = Math.max(list.length, status?.counts[group] ?? 0);
          const capped = list.length >= perState && all > list.length;
          return (
            <section key={group} aria-labelledby={`outbox-${group}`}>
              <h2 id={`outbox-${group}`}>
                {GROUP_LABEL[group]} <span className="muted">({all.toLocaleString()})</span>
              </h2>
              <ul className="outbox-list">
                {list.map((entry) => (
                  <Entry key={entry.id} entry={entry} onEdit={onEdit} />
                ))}
              </ul>
              {capped && (
                <p className="outbox-more" data-testid={`outbox-more-${group}`}>
                  <span>
                    The oldest {list.length.toLocaleString()} of {all.toLocaleString()} are listed;
                    the rest go out after them, in order.
                  </span>{' '}
                  <button type="button" onClick={() => void showMore()}>
                    Show {Math.min(OUTBOX_SHOWN_PER_STATE, all - list.length).toLocaleString()} more
                  </button>
                </p>
              )}
            </section>
          );
        })
      )}
    </>
  );
}
