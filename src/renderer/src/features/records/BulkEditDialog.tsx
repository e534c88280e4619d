import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type {
  BulkAction,
  BulkApplied,
  BulkPreview,
  BulkProgress,
  BulkSelection,
  BulkTrashAsked,
} from '../../../../shared/ipc/areas/bulkEdit';
import type { EditableField } from '../../../../shared/ipc/areas/outbox';
import { useApi } from '../../bridge/ApiContext';
import { ProgressBar } from '../../ui/ProgressBar';
import { FieldEditor } from '../outbox/FieldEditor';
import { formatDuration, progressPercent } from '../sync/syncFormat';
import { FieldValue } from './FieldValue';
import { describeError } from './recordsStore';
import { useRecords } from './RecordsContext';
import { bulkSelectionFrom, bulkSelectionOf, sameBulkSelection } from './bulkSelection';
import { pickedOf, selectedCount } from './rowSelection';
import { usePopover } from './usePopover';
import { distinctLabels } from '../../../../shared/recordValues/distinctLabels';

const count = new Intl.NumberFormat();

const ACTION_LABEL: Record<BulkAction, string> = {
  set: 'Set a value',
  clear: 'Clear it',
  add: 'Add options',
  remove: 'Remove options',
};

/** The actions a field offers: options are added or removed only in a multi-select. */
export function actionsFor(field: EditableField | undefined): BulkAction[] {
  if (!field) return [];
  return field.type === 'multi_select' ? ['set', 'clear', 'add', 'remove'] : ['set', 'clear'];
}

/** An answer of the engine with the selection it was asked about. */
interface Asked<T> {
  answer: T;
  selection: BulkSelection;
}

/** Why an open question went, said where it was (nothing was done). */
const PREVIEW_WITHDRAWN =
  'The selection changed after this preview, so it was set aside and nothing was queued. Preview again for the records selected now.';
const TRASH_WITHDRAWN =
  'The selection changed after you were asked, so the question was closed and nothing was moved to the recycle bin. Ask again for the records selected now.';

/**
 * The toolbar's Bulk edit: the selected records (or all records matching the filter) get one
 * field set, cleared, or a multi-select's options added or removed. The value is typed in the
 * record editor's own FieldEditor (its rules and messages); the engine previews what changes
 * (counts, records skipped because they already hold the value, refusals with reasons, a sample
 * of before → after as the table shows values, the ETA at the rate limit) before anything is
 * queued. Apply queues one update per record through the outbox, with progress; the Outbox lists
 * the bulk edit as a group with Undo. The same dialog moves the records to the recycle bin.
 */
export function BulkEditDialog() {
  const portalId = useRecords((s) => s.portalId);
  const moduleId = useRecords((s) => s.moduleId);
  // One dialog per module (as ImportDialog): another module shown, the one before goes with its
  // field, value and preview, since Queue acts on the module on screen and its fields differ.
  return <ModuleBulkEditDialog key={`${portalId ?? ''}/${moduleId ?? ''}`} />;
}

function ModuleBulkEditDialog() {
  const api = useApi();
  const ids = useId();
  const portalId = useRecords((s) => s.portalId);
  const moduleId = useRecords((s) => s.moduleId);
  const filter = useRecords((s) => s.filter);
  const total = useRecords((s) => s.total ?? 0);
  const selected = useRecords((s) => selectedCount(s.selection, s.total ?? 0));
  const everyPicked = useRecords((s) => s.selection.kind === 'every' && s.selection.ids.size === 0);
  const picked = useRecords((s) => s.picked);
  const rowSelection = useRecords((s) => s.selection);
  // A Shift range being read: the count is not the selection's yet, and nothing may act on it.
  const selecting = useRecords((s) => s.selecting);
  const { open, setOpen, anchorProps } = usePopover();
  const [fields, setFields] = useState<EditableField[] | null>(null);
  const fieldLabels = useMemo(
    () =>
      distinctLabels(
        fields ?? [],
        (f) => f.key,
        (f) => f.label,
      ),
    [fields],
  );
  const [timeZone, setTimeZone] = useState('UTC');
  const [fieldKey, setFieldKey] = useState('');
  const [action, setAction] = useState<BulkAction>('set');
  const [value, setValue] = useState<unknown>(undefined);
  const [options, setOptions] = useState<string[]>([]);
  const [wholeAsked, setWholeAsked] = useState(false);
  // Queue names the preview (the engine holds the records it counted): the records previewed are
  // the records queued, and the engine refuses, queuing nothing, when the selection names other
  // records now. Either answer uses the preview up.
  const [asked, setAsked] = useState<Asked<BulkPreview> | null>(null);
  const [progress, setProgress] = useState<BulkProgress | null>(null);
  const [applied, setApplied] = useState<BulkApplied | null>(null);
  const [trashed, setTrashed] = useState<string | null>(null);
  // The question the engine holds the records of: the confirm names it, and the engine moves
  // exactly those records, refusing when a sync changed which ones the selection names.
  const [trashAsked, setTrashAsked] = useState<Asked<BulkTrashAsked> | null>(null);
  // A preview or question closed because the selection changed under it, said in its place.
  const [previewWithdrawn, setPreviewWithdrawn] = useState(false);
  const [trashWithdrawn, setTrashWithdrawn] = useState(false);
  const [busy, setBusy] = useState(false);
  const inFlight = useRef(false);
  const [error, setError] = useState<string | null>(null);
  // A refused trash is said beside its own control, not the edit's.
  const [trashError, setTrashError] = useState<string | null>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);
  const trashErrorRef = useRef<HTMLParagraphElement>(null);
  const previewWithdrawnRef = useRef<HTMLParagraphElement>(null);
  const trashWithdrawnRef = useRef<HTMLParagraphElement>(null);

  const whole = wholeAsked || everyPicked;
  const records = wholeAsked ? total : selected;
  const field = fields?.find((f) => f.key === fieldKey);
  // A yes/no field is set to yes or to no: the editor's check box cannot say "no" to a blank.
  const flag = field?.type === 'check_box' || field?.type === 'is_external';

  // The records selected now, read only while a preview or a question is open: either names the
  // records it was asked about, and its answer acts on them, so a different selection (rows
  // picked or left out, another filter, the box ticked) closes it. Not while a request runs:
  // Queue's own records may leave the filter as they are written.
  const asking = asked !== null || trashAsked !== null;
  const current = useMemo(
    () => (asking ? bulkSelectionFrom(wholeAsked, filter, pickedOf(rowSelection)) : null),
    [asking, wholeAsked, filter, rowSelection],
  );
  const stale = (held: Asked<unknown> | null) =>
    held !== null && !busy && current !== null && !sameBulkSelection(held.selection, current);
  const previewStale = stale(asked);
  const trashStale = stale(trashAsked);
  const preview = previewStale ? null : (asked?.answer ?? null);
  const trashQuestion = trashStale ? null : (trashAsked?.answer ?? null);
  // Closed as the render finds it stale (React's "adjusting state when a prop changes"): the
  // next render has no question, and says why in its place.
  if (previewStale) {
    setAsked(null);
    setPreviewWithdrawn(true);
  }
  if (trashStale) {
    setTrashAsked(null);
    setTrashWithdrawn(true);
  }
  useEffect(() => {
    // The control that had the focus went with the question: the words in its place take it.
    if (document.activeElement !== document.body) return;
    (trashWithdrawn ? trashWithdrawnRef : previewWithdrawnRef).current?.focus();
  }, [previewWithdrawn, trashWithdrawn]);

  useEffect(() => {
    if (!open || portalId === null || moduleId === null) return;
    let live = true;
    api.outbox.form({ portalId, moduleId }).then(
      (form) => {
        if (!live) return;
        setFields(form.fields);
        setTimeZone(form.timeZone);
        setFieldKey((key) => key || (form.fields[0]?.key ?? ''));
      },
      (failure: unknown) => live && setError(describeError(failure)),
    );
    return () => {
      live = false;
    };
  }, [api, open, portalId, moduleId]);
  useEffect(
    () =>
      api.on('bulkEdit.progress', (pushed) => {
        // Only the tasks this dialog runs: an undo from the Outbox or a restore from the recycle
        // bin of this module shows its progress where it was asked, not as this dialog's.
        if (pushed.task !== 'apply' && pushed.task !== 'trash') return;
        if (pushed.portalId === portalId && pushed.moduleId === moduleId) setProgress(pushed);
      }),
    [api, portalId, moduleId],
  );
  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);
  useEffect(() => {
    if (trashError) trashErrorRef.current?.focus();
  }, [trashError]);

  const reset = () => {
    setAsked(null);
    setApplied(null);
    setTrashed(null);
    setTrashAsked(null);
    setPreviewWithdrawn(false);
    setTrashWithdrawn(false);
    setError(null);
    setTrashError(null);
  };
  const args = async (given: unknown) => {
    if (portalId === null || moduleId === null) throw new Error('Choose a module first.');
    const selection = await bulkSelectionOf(wholeAsked, filter, picked);
    return {
      portalId,
      moduleId,
      selection,
      field: fieldKey,
      action,
      ...(action === 'set' ? { value: given } : action === 'clear' ? {} : { value: options }),
    };
  };
  const run = async (work: () => Promise<void>, fail: (text: string | null) => void = setError) => {
    // One request at a time, whatever the buttons show: a second press landing before the
    // disabled button is drawn (two clicks in one task) would send Queue again, be refused, and
    // end `busy` under the first while it still queues.
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    fail(null);
    try {
      await work();
    } catch (failure) {
      fail(describeError(failure));
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };
  const askPreview = (given: unknown = value) =>
    run(async () => {
      setApplied(null);
      setPreviewWithdrawn(false);
      const request = await args(given);
      setAsked({ answer: await api.bulkEdit.preview(request), selection: request.selection });
    });
  const apply = () =>
    run(async () => {
      if (!preview) return;
      setProgress(null);
      try {
        setApplied(await api.bulkEdit.apply({ previewId: preview.previewId }));
      } finally {
        setAsked(null);
      }
    });
  // The question asks the engine first: it holds the records the selection names now and says
  // how many, and the question names that count.
  const askTrash = () =>
    run(async () => {
      if (portalId === null || moduleId === null) return;
      setTrashed(null);
      setTrashWithdrawn(false);
      const selection = await bulkSelectionOf(wholeAsked, filter, picked);
      setTrashAsked({
        answer: await api.bulkEdit.askTrash({ portalId, moduleId, selection, restore: false }),
        selection,
      });
    }, setTrashError);
  const trash = () =>
    run(async () => {
      if (!trashQuestion) return;
      // Either answer uses the question up: a refusal says to ask again.
      setTrashAsked(null);
      const result = await api.bulkEdit.trash({ previewId: trashQuestion.previewId });
      setTrashed(
        `${count.format(result.queued)} ${result.queued === 1 ? 'record is' : 'records are'} queued to move to the recycle bin.` +
          (result.failed > 0
            ? ` ${count.format(result.failed)} kept: ${result.failures[0]?.reason ?? ''}`
            : ''),
      );
    }, setTrashError);

  const ready =
    field !== undefined &&
    records > 0 &&
    (action === 'clear' || (action === 'set' ? value !== undefined : options.length > 0));
  const running = busy && progress !== null && progress.done < progress.total;
  const applying = running && progress.task === 'apply';
  const trashing = running && progress.task === 'trash';

  return (
    <div {...anchorProps}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls="records-bulk-edit"
        disabled={selected === 0 && !open}
        title="Change one field of the selected records at once (Ctrl+A selects every record matching the filter)"
        onClick={() => setOpen(!open)}
      >
        Bulk edit…
      </button>
      {open && (
        <div
          className="popover records-bulk"
          id="records-bulk-edit"
          role="dialog"
          aria-modal="true"
          aria-label="Bulk edit"
        >
          <h3 className="records-bulk__title">
            Bulk edit {count.format(records)} {records === 1 ? 'record' : 'records'}
          </h3>
          {selecting && (
            <p className="hint" role="status">
              Reading the rows of the range selected…
            </p>
          )}
          {selected < total && (
            <label>
              <input
                type="checkbox"
                checked={whole}
                onChange={(e) => {
                  setWholeAsked(e.target.checked);
                  reset();
                }}
              />{' '}
              All {count.format(total)} records matching the filter
            </label>
          )}
          <fieldset disabled={busy}>
            <legend>Change</legend>
            <div className="records-bulk__field">
              <label htmlFor={`${ids}-field`}>Field</label>{' '}
              <select
                id={`${ids}-field`}
                value={fieldKey}
                onChange={(e) => {
                  setFieldKey(e.target.value);
                  setAction('set');
                  setValue(undefined);
                  setOptions([]);
                  reset();
                }}
              >
                {(fields ?? []).map((f) => (
                  <option key={f.key} value={f.key}>
                    {fieldLabels.get(f.key) ?? f.label}
                  </option>
                ))}
              </select>
            </div>
            <div role="radiogroup" aria-label="What to do" className="records-bulk__actions">
              {actionsFor(field).map((a) => (
                <label key={a}>
                  <input
                    type="radio"
                    name="bulk-action"
                    checked={action === a}
                    onChange={() => {
                      setAction(a);
                      reset();
                    }}
                  />{' '}
                  {ACTION_LABEL[a]}
                </label>
              ))}
            </div>
          </fieldset>
          {field && action === 'set' && flag && (
            <fieldset disabled={busy}>
              <legend>{field.label}</legend>
              {[true, false].map((choice) => (
                <label key={String(choice)}>
                  <input
                    type="radio"
                    name="bulk-flag"
                    checked={value === choice}
                    onChange={() => {
                      setValue(choice);
                      reset();
                    }}
                  />{' '}
                  {choice ? 'Yes' : 'No'}
                </label>
              ))}
            </fieldset>
          )}
          {field && action === 'set' && !flag && (
            <FieldEditor
              key={field.key}
              field={field}
              value={null}
              timeZone={timeZone}
              saveLabel="Use this value"
              disabled={busy}
              onSave={(given) => {
                setValue(given);
                return askPreview(given);
              }}
            />
          )}
          {field && (action === 'add' || action === 'remove') && (
            <fieldset disabled={busy}>
              <legend>{action === 'add' ? 'Options to add' : 'Options to remove'}</legend>
              {field.options.map((o) => (
                <label key={o.id}>
                  <input
                    type="checkbox"
                    checked={options.includes(o.name)}
                    onChange={(e) => {
                      setOptions((held) =>
                        e.target.checked ? [...held, o.name] : held.filter((n) => n !== o.name),
                      );
                      reset();
                    }}
                  />{' '}
                  {o.name}
                </label>
              ))}
            </fieldset>
          )}
          <div className="actions">
            {(action !== 'set' || flag) && (
              <button
                type="button"
                onClick={() => void askPreview()}
                disabled={!ready || busy || selecting}
              >
                Preview
              </button>
            )}
            {preview && (
              <button
                type="button"
                className="primary"
                onClick={() => void apply()}
                disabled={busy || selecting || preview.changes === 0}
              >
                Queue {count.format(preview.changes)} {preview.changes === 1 ? 'change' : 'changes'}
              </button>
            )}
          </div>
          {previewWithdrawn && (
            <p className="hint" role="status" tabIndex={-1} ref={previewWithdrawnRef}>
              {PREVIEW_WITHDRAWN}
            </p>
          )}
          {error && (
            <p className="field-error" role="alert" tabIndex={-1} ref={errorRef}>
              {error}
            </p>
          )}
          {preview && <PreviewSummary preview={preview} />}
          {applying && <TaskProgress progress={progress} label="Queueing the bulk edit" />}
          {applied && (
            <p className="hint" role="status" data-testid="bulk-applied">
              {applied.notQueued > 0
                ? `Undone from the Outbox while it was being queued: ${count.format(applied.notQueued)} ${applied.notQueued === 1 ? 'change was' : 'changes were'} never queued, and the Outbox says what it took back of the ${count.format(applied.queued)} queued before.`
                : applied.queued === 0
                  ? 'Nothing was queued: no record changes.'
                  : `Queued ${count.format(applied.queued)} ${applied.queued === 1 ? 'change' : 'changes'}` +
                    (applied.coalesced > 0
                      ? ` (${count.format(applied.coalesced)} folded into edits already queued)`
                      : '') +
                    '. The Outbox lists it as one bulk edit with Undo while it waits.'}
              {applied.failed > 0 &&
                ` ${count.format(applied.failed)} refused and kept as they are.`}
            </p>
          )}
          <div className="records-bulk__trash">
            {trashQuestion ? (
              <>
                <span>
                  Move {count.format(trashQuestion.records)}{' '}
                  {trashQuestion.records === 1 ? 'record' : 'records'} to the recycle bin?
                </span>
                <button type="button" onClick={() => void trash()} disabled={busy || selecting}>
                  Move to the recycle bin
                </button>
                <button type="button" onClick={() => setTrashAsked(null)}>
                  Keep them
                </button>
              </>
            ) : (
              <button
                type="button"
                className="link-button"
                onClick={() => void askTrash()}
                disabled={busy || selecting || records === 0}
              >
                Move {records === 1 ? 'it' : 'them'} to the recycle bin…
              </button>
            )}
            {trashWithdrawn && (
              <p className="hint" role="status" tabIndex={-1} ref={trashWithdrawnRef}>
                {TRASH_WITHDRAWN}
              </p>
            )}
            {trashing && (
              <TaskProgress progress={progress} label="Queueing the move to the recycle bin" />
            )}
            {trashError && (
              <p className="field-error" role="alert" tabIndex={-1} ref={trashErrorRef}>
                {trashError}
              </p>
            )}
            {trashed && (
              <p className="hint" role="status">
                {trashed}
              </p>
            )}
          </div>
        </div>
      )}
    </div>
  );
}

/** A bulk task's progress as the engine pushes it, beside the control that started it. */
function TaskProgress({ progress, label }: { progress: BulkProgress; label: string }) {
  return (
    <div role="status">
      <ProgressBar percent={progressPercent(progress.done, progress.total)} label={label} />
      <p className="hint">
        {count.format(progress.done)} of {count.format(progress.total)} records
      </p>
    </div>
  );
}

function PreviewSummary({ preview }: { preview: BulkPreview }) {
  const context = { timeZone: preview.timeZone };
  return (
    <div className="records-bulk__preview" data-testid="bulk-preview">
      <p role="status">
        {count.format(preview.changes)}{' '}
        {preview.changes === 1 ? 'record changes' : 'records change'}
        {preview.unchanged > 0 && `, ${count.format(preview.unchanged)} already hold it (skipped)`}
        {preview.failed > 0 && `, ${count.format(preview.failed)} refused`}.
        {preview.changes > 0 &&
          ` ${count.format(preview.patchesQueued)} updates will wait in the Outbox` +
            (preview.coalesced > 0
              ? ` (${count.format(preview.coalesced)} folded into edits already queued)`
              : '') +
            `; sending them takes about ${formatDuration(preview.etaSeconds * 1000)} at the rate limit.`}
      </p>
      {preview.sample.length > 0 && (
        <table className="records-bulk__sample">
          <caption className="hint">
            {preview.field.label}: before → after (first {preview.sample.length})
          </caption>
          <thead>
            <tr>
              <th scope="col">Record</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {preview.sample.map((row) => (
              <tr key={row.recordId}>
                <th scope="row">{row.name}</th>
                <td>
                  <FieldValue
                    type={preview.field.type}
                    value={row.before}
                    context={context}
                    variant="detail"
                  />
                </td>
                <td>
                  <FieldValue
                    type={preview.field.type}
                    value={row.after}
                    context={context}
                    variant="detail"
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {preview.failures.length > 0 && (
        <div className="records-bulk__failures">
          <p className="field-error">
            Refused by the value rules (kept as they are; correct the value or leave them out):
          </p>
          <ul>
            {preview.failures.map((f) => (
              <li key={f.recordId}>
                <strong>{f.name}</strong>: {f.reason}
              </li>
            ))}
          </ul>
          {preview.failed > preview.failures.length && (
            <p className="hint">
              …and {count.format(preview.failed - preview.failures.length)} more.
            </p>
          )}
        </div>
      )}
    </div>
  );
}
