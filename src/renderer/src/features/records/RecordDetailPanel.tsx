import { useEffect, useMemo, useRef, useState } from 'react';
import { DemoRecordChange } from '../accounts/DemoRecordChange';
import { RecordEditor } from '../outbox/RecordEditor';
import type { RecordDetail, RecordsField } from '../../../../shared/ipc/areas/records';
import {
  fieldValue,
  formatInstant,
  type ValueContext,
} from '../../../../shared/recordValues/describeValue';
import { CommentList } from './CommentList';
import { FieldValue } from './FieldValue';
import { useRecords } from './RecordsContext';

/** Fields the header already shows (name) or the facts list shows, not repeated in sections. */
const IN_HEADER = new Set(['name']);

function Fields({
  keys,
  byKey,
  detail,
  context,
}: {
  keys: readonly string[];
  byKey: Map<string, RecordsField>;
  detail: RecordDetail;
  context: ValueContext;
}) {
  return (
    <dl className="facts record-fields">
      {keys.flatMap((key) => {
        const field = byKey.get(key);
        if (!field || IN_HEADER.has(key)) return [];
        const pending = detail.record.pendingFields.includes(key);
        return [
          <dt key={`${key}:label`}>
            {field.label}
            {pending && (
              <span className="pending-mark" title="Edited here, not sent yet">
                {' '}
                • pending
              </span>
            )}
          </dt>,
          <dd key={`${key}:value`}>
            <FieldValue
              type={field.type}
              value={fieldValue(detail.record, key)}
              context={context}
              variant="detail"
              recordId={detail.record.id}
            />
          </dd>,
        ];
      })}
    </dl>
  );
}

function Comments({ detail, context }: { detail: RecordDetail; context: ValueContext }) {
  const fetching = useRecords((s) => s.detail?.fetching ?? false);
  const fetchError = useRecords((s) => s.detail?.fetchError ?? null);
  const fetchComments = useRecords((s) => s.fetchComments);
  const browsing = useRecords((s) => s.snapshot !== null);
  const online = typeof navigator === 'undefined' ? true : navigator.onLine;
  if (browsing) {
    return (
      <section className="record-section" aria-labelledby="record-comments-heading">
        <h3 id="record-comments-heading">Comments</h3>
        <p className="hint" data-testid="comments-not-in-snapshot">
          Comments are not read from backups: the live record shows the mirrored ones.
        </p>
      </section>
    );
  }
  return (
    <section className="record-section" aria-labelledby="record-comments-heading">
      <h3 id="record-comments-heading">Comments ({detail.comments.length})</h3>
      {!detail.record.commentsMirrored && (
        <div className="notice" role="status" data-testid="comments-not-mirrored">
          <p>
            {detail.commentsSyncedAt === null
              ? 'Comments not mirrored yet — the background sync reads them record by record.'
              : `The record changed since its comments were read (${formatInstant(detail.commentsSyncedAt, context)}): there may be newer ones.`}
          </p>
          <button type="button" disabled={fetching} onClick={() => void fetchComments()}>
            {fetching ? 'Fetching…' : 'Fetch now'}
          </button>
          {!online && <p className="hint">You are offline: fetching needs a connection.</p>}
          {fetchError && (
            <p className="field-error" role="alert">
              {fetchError}
            </p>
          )}
        </div>
      )}
      {detail.comments.length === 0 ? (
        detail.record.commentsMirrored && <p className="hint">No comments on this record.</p>
      ) : (
        <CommentList
          portalId={detail.record.portalId}
          recordId={detail.record.id}
          comments={detail.comments}
          editable={detail.trashedTime === null}
          context={context}
        />
      )}
    </section>
  );
}

/** One record: every field by the layout's sections, its status timeline and its comments. */
export function RecordDetailPanel() {
  const detail = useRecords((s) => s.detail);
  const columns = useRecords((s) => s.columns);
  const close = useRecords((s) => s.closeDetail);
  const browsing = useRecords((s) => s.snapshot !== null);
  const data = detail?.data ?? null;
  const timeZone = data?.timeZone ?? columns?.timeZone ?? 'UTC';
  const context = useMemo<ValueContext>(() => ({ timeZone }), [timeZone]);
  // Editing belongs to one record: opening another shows it read-only first.
  const [editing, setEditing] = useState<string | null>(null);
  const panel = useRef<HTMLElement>(null);
  const focusRequest = detail?.focusRequest ?? 0;
  useEffect(() => {
    if (focusRequest !== 0) panel.current?.focus();
  }, [focusRequest]);
  if (!detail) return null;
  // Closed from inside (its button, Escape), the panel would take the focus away with it: the
  // focus goes back to the table beside it, which hands it to its focused cell.
  const closeToTable = () => {
    const root = panel.current;
    if (root?.contains(document.activeElement))
      root.parentElement?.querySelector<HTMLElement>('[role="grid"]')?.focus();
    close();
  };
  const isEditing = data !== null && editing === data.record.id;

  // The record may belong to another module than the table (opened from search or recent).
  const fields =
    detail.columns?.fields ??
    (data && columns?.moduleId === data.record.moduleId ? columns.fields : []);
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const placed = new Set(data?.layout?.sections.flatMap((s) => s.fields) ?? []);
  const others = [...byKey.keys()].filter((key) => !placed.has(key));

  return (
    <aside
      ref={panel}
      // Focusable by script only: a record opened from search takes the keyboard here.
      tabIndex={-1}
      className="record-detail"
      aria-label="Record details"
      aria-busy={detail.loading}
      data-testid="record-detail"
      onKeyDown={(event) => {
        if (event.key === 'Escape') closeToTable();
      }}
    >
      <header className="record-detail__header">
        <h2>{data?.record.name ?? (detail.loading ? 'Opening…' : 'Record')}</h2>
        {data && !browsing && (
          <button
            type="button"
            className="record-detail__edit"
            aria-pressed={isEditing}
            onClick={() => setEditing(isEditing ? null : data.record.id)}
          >
            {isEditing ? 'Done' : 'Edit'}
          </button>
        )}
        <button
          type="button"
          className="icon-button"
          aria-label="Close details (Esc)"
          onClick={closeToTable}
        >
          ×
        </button>
      </header>
      {detail.error && (
        <p className="field-error" role="alert">
          {detail.error}
        </p>
      )}
      {data && (
        <div className="record-detail__body">
          <div className="record-detail__status">
            <FieldValue type="status" value={data.record.status} context={context} />
            {data.record.localOnly && <span className="tag">Created offline</span>}
          </div>
          {data.trashedTime && (
            <p className="notice notice--warn" role="status" data-testid="record-trashed">
              In the recycle bin since {formatInstant(data.trashedTime, context)}
              {browsing
                ? ' when this backup was made.'
                : ". It is kept for reference; restore it in the portal's recycle bin to work on it again."}
            </p>
          )}
          {isEditing && !browsing && (
            <RecordEditor
              portalId={data.record.portalId}
              moduleId={data.record.moduleId}
              recordId={data.record.id}
              trashed={data.trashedTime !== null}
            />
          )}
          {!isEditing &&
            data.layout?.sections.map((section) => (
              <section key={section.id} className="record-section" aria-label={section.name}>
                <h3>{section.name}</h3>
                <Fields keys={section.fields} byKey={byKey} detail={data} context={context} />
              </section>
            ))}
          {!isEditing && others.length > 0 && (
            <section className="record-section" aria-label={data.layout ? 'More fields' : 'Fields'}>
              <h3>{data.layout ? 'More fields' : 'Fields'}</h3>
              <Fields keys={others} byKey={byKey} detail={data} context={context} />
            </section>
          )}
          {!browsing && !data.record.localOnly && data.trashedTime === null && (
            <DemoRecordChange portalId={data.record.portalId} recordId={data.record.id} />
          )}
          <section className="record-section" aria-labelledby="record-timeline-heading">
            <h3 id="record-timeline-heading">Status timeline</h3>
            {browsing ? (
              <p className="hint">Status timelines are not read from backups.</p>
            ) : data.timeline.length === 0 ? (
              <p className="hint">No status changes mirrored for this record.</p>
            ) : (
              <ol className="timeline">
                {data.timeline.map((entry) => (
                  <li key={entry.id}>
                    <FieldValue type="status" value={entry.from} context={context} />
                    <span aria-label="to"> → </span>
                    <FieldValue type="status" value={entry.to} context={context} />
                    <span className="timeline__meta">
                      {entry.changedBy?.name ?? entry.changedBy?.zpuid ?? 'someone'},{' '}
                      <time dateTime={entry.changedTime}>
                        {formatInstant(entry.changedTime, context)}
                      </time>
                    </span>
                  </li>
                ))}
              </ol>
            )}
          </section>
          <Comments detail={data} context={context} />
          <p className="hint">Times are in the portal's time zone ({timeZone}).</p>
        </div>
      )}
    </aside>
  );
}
