/**
 * The Outbox's "Sent" view: what the replay delivered in the last 30 days, newest first, a page
 * at a time; searched (name, module, field, kind, text of a request or answer), filtered by kind,
 * exported as CSV or JSON. Each row opens to the request that went and the service's answer.
 */
import { useContext, useEffect, useId, useRef, useState } from 'react';
import { useStore } from 'zustand';
import {
  HISTORY_DAYS,
  HISTORY_SEARCH_MAX,
  type HistoryEntry,
  type HistoryFormat,
} from '../../../../shared/ipc/areas/outboxHistory';
import { offerFile } from '../../ui/offerFile';
import { cutOffNote, formatBody, KIND_GROUPS, pageRange } from './historyFormat';
import { HISTORY_PAGE, type HistoryState } from './historyStore';
import { OutboxContext } from './OutboxContext';
import { kindLabel, operationSubject } from './outboxFormat';

/** Ours: a search goes this long after the last key typed. */
const SEARCH_DELAY_MS = 250;

function useHistory<T>(selector: (state: HistoryState) => T): T {
  const outbox = useContext(OutboxContext);
  if (!outbox) throw new Error('SentHistory must be used inside <OutboxContext.Provider>.');
  return useStore(outbox.history, selector);
}

function Body({ label, text, length }: { label: string; text: string | null; length: number }) {
  if (text === null || text === '') return <p className="muted">No body.</p>;
  const cut = cutOffNote(text, length);
  return (
    <>
      <pre aria-label={label}>{formatBody(text)}</pre>
      {cut && <p className="muted">{cut}</p>}
    </>
  );
}

function Row({ entry }: { entry: HistoryEntry }) {
  const failed = entry.status !== null && entry.status >= 400;
  return (
    <li className="history-row" data-testid="history-row" data-kind={entry.kind}>
      <details>
        <summary>
          <span className="history-row__time mono" title={entry.answeredAt}>
            {new Date(entry.answeredAt).toLocaleString()}
          </span>
          <strong>{kindLabel(entry.kind)}</strong>
          <span className="history-row__name">
            {entry.kind === 'config'
              ? (entry.recordName ?? entry.recordId)
              : operationSubject(entry)}
            {entry.module && <span className="muted"> · {entry.module}</span>}
          </span>
          {entry.fields.length > 0 && entry.kind !== 'config' && (
            <span className="muted">{entry.fields.map((f) => f.label).join(', ')}</span>
          )}
          {entry.status !== null && (
            <span className={`history-row__status${failed ? ' is-failed' : ''}`}>
              {entry.status}
            </span>
          )}
        </summary>
        <div className="history-row__detail">
          <section aria-label="Request">
            <h3>Request</h3>
            {entry.method ? (
              <p className="mono history-row__line">
                {entry.method} {entry.path}
              </p>
            ) : (
              <p className="muted">No request.</p>
            )}
            {entry.requests > 0 && (
              <Body label="Request body" text={entry.requestBody} length={entry.requestLength} />
            )}
            {entry.requests > 1 && (
              <p className="muted">
                The last of {entry.requests} requests this change needed is shown.
              </p>
            )}
          </section>
          <section aria-label="Answer">
            <h3>Answer</h3>
            <p className="mono history-row__line">
              {entry.status === null ? 'No answer kept.' : `HTTP ${entry.status}`}
            </p>
            <Body label="Answer body" text={entry.answer} length={entry.answerLength} />
          </section>
          {entry.note && <p className="muted">{entry.note}</p>}
          <p className="muted history-row__line">
            Queued {new Date(entry.queuedAt).toLocaleString()}
            {entry.sentAt && ` · sent ${new Date(entry.sentAt).toLocaleString()}`} · answered{' '}
            {new Date(entry.answeredAt).toLocaleString()} · record {entry.recordId} · operation{' '}
            {entry.opId}
          </p>
        </div>
      </details>
    </li>
  );
}

export function SentHistory() {
  const ids = useId();
  const outbox = useContext(OutboxContext);
  const entries = useHistory((s) => s.entries);
  const total = useHistory((s) => s.total);
  const offset = useHistory((s) => s.offset);
  const loaded = useHistory((s) => s.loaded);
  const error = useHistory((s) => s.error);
  const kindGroup = useHistory((s) => s.kindGroup);
  const exporting = useHistory((s) => s.exporting);
  const exportError = useHistory((s) => s.exportError);
  const exported = useHistory((s) => s.exported);
  const [text, setText] = useState(() => outbox?.history.getState().text ?? '');
  const exportButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const history = outbox?.history.getState();
    if (!history) return;
    history.setActive(true);
    void history.refresh();
    return () => outbox?.history.getState().setActive(false);
  }, [outbox]);

  useEffect(() => {
    const history = outbox?.history;
    if (!history || history.getState().text === text) return;
    const timer = setTimeout(() => void history.getState().search(text), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [outbox, text]);

  // A refused export's reason sits beside its buttons, and the focus goes there.
  useEffect(() => {
    if (exportError) exportButton.current?.focus();
  }, [exportError]);

  const state = () => outbox!.history.getState();
  const doExport = async (format: HistoryFormat) => {
    const file = await state().exportAs(format);
    if (file)
      offerFile(file.fileName, file.text, format === 'csv' ? 'text/csv' : 'application/json');
  };
  const filtered = text.trim() !== '' || kindGroup !== 'all';

  return (
    <div className="history" data-testid="sent-history">
      <p className="muted">
        Every change the Outbox delivered in the last {HISTORY_DAYS} days, newest first, with the
        request that went and the service&apos;s answer. Older ones are removed.
      </p>
      <div className="history__bar">
        <label htmlFor={`${ids}-search`}>Search</label>
        <input
          id={`${ids}-search`}
          type="search"
          value={text}
          maxLength={HISTORY_SEARCH_MAX}
          placeholder="Record, module, field or text sent"
          onChange={(event) => setText(event.target.value)}
        />
        <label htmlFor={`${ids}-kind`}>Kind</label>
        <select
          id={`${ids}-kind`}
          value={kindGroup}
          onChange={(event) => void state().setKindGroup(event.target.value)}
        >
          {KIND_GROUPS.map((group) => (
            <option key={group.id} value={group.id}>
              {group.label}
            </option>
          ))}
        </select>
        <span
          className="history__export"
          aria-describedby={exportError ? `${ids}-export-error` : undefined}
        >
          <button
            ref={exportButton}
            type="button"
            disabled={exporting !== null || total === 0}
            onClick={() => void doExport('csv')}
          >
            {exporting === 'csv' ? 'Exporting…' : 'Export CSV'}
          </button>
          <button
            type="button"
            disabled={exporting !== null || total === 0}
            onClick={() => void doExport('json')}
          >
            {exporting === 'json' ? 'Exporting…' : 'Export JSON'}
          </button>
        </span>
      </div>
      {exportError && (
        <p className="field-error" role="alert" id={`${ids}-export-error`}>
          {exportError}
        </p>
      )}
      {exported && !exportError && (
        <p className="muted" role="status">
          {exported}
        </p>
      )}
      {error && (
        <p className="error banner" role="alert">
          {error}
        </p>
      )}
      {loaded && entries.length === 0 && !error ? (
        <p className="muted" role="status" data-testid="history-empty">
          {filtered
            ? 'No sent change matches this search.'
            : `Nothing was sent in the last ${HISTORY_DAYS} days.`}
        </p>
      ) : (
        <>
          <ul className="history__list" aria-label="Sent changes">
            {entries.map((entry) => (
              <Row key={entry.id} entry={entry} />
            ))}
          </ul>
          <div className="history__pages">
            <button
              type="button"
              disabled={offset === 0}
              onClick={() => void state().goTo(offset - HISTORY_PAGE)}
            >
              Newer
            </button>
            <span role="status" data-testid="history-range">
              {pageRange(offset, entries.length, total)}
            </span>
            <button
              type="button"
              disabled={offset + entries.length >= total}
              onClick={() => void state().goTo(offset + HISTORY_PAGE)}
            >
              Older
            </button>
          </div>
        </>
      )}
    </div>
  );
}
