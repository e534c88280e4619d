import { useContext, useEffect, useRef } from 'react';
import { useStore } from 'zustand';
import type { BulkGroup } from '../../../../shared/ipc/areas/bulkEdit';
import type { BulkGroupsState } from './bulkGroupsStore';
import { OutboxContext } from './OutboxContext';

const count = new Intl.NumberFormat();

/** A bulk edit in words: "Status set to “Done”", "Tags: Remote added". */
export function bulkEditSummary(group: Pick<BulkGroup, 'label' | 'action' | 'value'>): string {
  const items = Array.isArray(group.value) ? group.value.map(String).join(', ') : '';
  switch (group.action) {
    case 'clear':
      return `${group.label} cleared`;
    case 'add':
      return `${group.label}: ${items} added`;
    case 'remove':
      return `${group.label}: ${items} removed`;
    case 'set': {
      const value = group.value;
      const shown =
        typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
          ? String(value)
          : Array.isArray(value)
            ? items
            : value && typeof value === 'object' && 'name' in value
              ? String((value as { name: unknown }).name)
              : JSON.stringify(value);
      return `${group.label} set to “${shown.length > 60 ? `${shown.slice(0, 59)}…` : shown}”`;
    }
  }
}

/** A bulk edit the app's end stopped between its batches: what was queued, what never was. */
export function stoppedWords(group: Pick<BulkGroup, 'records' | 'planned'>): string {
  const of = group.planned === null ? '' : ` of the ${count.format(group.planned)} previewed`;
  const rest =
    group.planned === null
      ? 'the others'
      : `the other ${count.format(Math.max(0, group.planned - group.records))}`;
  return `Stopped half way: PortalDesk closed while it was being queued, so only ${count.format(group.records)}${of} records were queued; ${rest} were never changed. Undo takes back the ${count.format(group.records)}; to change the rest, select them in the records view and bulk edit them again.`;
}

function useBulkGroups<T>(selector: (state: BulkGroupsState) => T): T {
  const outbox = useContext(OutboxContext);
  if (!outbox) throw new Error('BulkEditGroups must be used inside <OutboxContext.Provider>.');
  return useStore(outbox.bulkEdits, selector);
}

/**
 * The Outbox's bulk edits still queued, one line each with Undo: the undo takes back what has not
 * gone out (an edit of a record's own, folded into, comes back) and says what it kept.
 */
export function BulkEditGroups() {
  const groups = useBulkGroups((s) => s.groups);
  const undoing = useBulkGroups((s) => s.undoing);
  const message = useBulkGroups((s) => s.message);
  const watch = useBulkGroups((s) => s.watch);
  const undo = useBulkGroups((s) => s.undo);
  const messageRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => watch(), [watch]);
  useEffect(() => {
    if (message?.error) messageRef.current?.focus();
  }, [message]);

  if (groups.length === 0 && !message) return null;
  return (
    <section aria-labelledby="outbox-bulk" className="outbox-bulk">
      <h2 id="outbox-bulk">
        Bulk edits <span className="muted">({groups.length})</span>
      </h2>
      {message && (
        <p
          className={message.error ? 'field-error' : 'hint'}
          role={message.error ? 'alert' : 'status'}
          tabIndex={message.error ? -1 : undefined}
          ref={messageRef}
        >
          {message.text}
        </p>
      )}
      <ul className="outbox-list">
        {groups.map((group) => (
          <li key={group.id} className="outbox-bulk__group" data-testid="bulk-group">
            <div>
              <strong>{bulkEditSummary(group)}</strong>
              <div className="muted">
                {count.format(group.records)} {group.module}{' '}
                {group.records === 1 ? 'record' : 'records'} · {count.format(group.queued)} still
                queued
                {group.sending > 0 && ` · ${count.format(group.sending)} being sent`}
                {group.stuck > 0 && ` · ${count.format(group.stuck)} refused or in conflict`}
                {group.reverted > 0 &&
                  ` · ${count.format(group.reverted)} of your queued edits set back to the service's value (Undo queues ${group.reverted === 1 ? 'it' : 'them'} again)`}{' '}
                · queued {new Date(group.createdAt).toLocaleString()}
              </div>
              {group.stopped && <p className="field-error">{stoppedWords(group)}</p>}
            </div>
            <button
              type="button"
              onClick={() => void undo(group.id)}
              disabled={undoing !== null}
              aria-label={`Undo the bulk edit: ${bulkEditSummary(group)}`}
            >
              {undoing === group.id ? 'Undoing…' : 'Undo'}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
