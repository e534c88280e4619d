/**
 * An editor for one field of any type. What Save would do is decided by `decideSave` (pure, see
 * fieldDraft.ts): nothing while the draft is untouched or means the same value; a message next
 * to the field, in words, and Save blocked while the text is not a value; otherwise the value
 * with the parts not touched kept as they were, and how it will show (a rounded amount) before
 * it is saved. Emptying a field is the Clear button, never an empty or unreadable box.
 *
 * For the records panel: `<FieldEditor field={f} value={form.values[f.key]}
 * timeZone={form.timeZone} onSave={(v) => api.outbox.edit({portalId, recordId, changes: {[f.key]: v}})} />`
 * with `form` from `api.outbox.form({portalId, moduleId, recordId})`.
 */
import { useId, useState, type ReactNode } from 'react';
import type { EditableField } from '../../../../shared/ipc/areas/outbox';
import {
  clearedDraft,
  decideSave,
  draftOf,
  mayClear,
  sameDraft,
  type Draft,
  type DraftItem,
} from './fieldDraft';
import { ItemsControl } from './ItemsControl';

export interface FieldEditorProps {
  field: EditableField;
  /** The current value, in the API's shape. */
  value: unknown;
  timeZone: string;
  /** Resolves when saved; a rejection's message shows under the field. */
  onSave(value: unknown): Promise<unknown> | void;
  /** Shown beside the label (a PendingMark). */
  mark?: ReactNode;
  disabled?: boolean;
  /** The Save button's text where saving means something else (a bulk edit's "Use this value"). */
  saveLabel?: string;
}

/** Native inputs whose value is well-formed or '' (which never empties a field, see fieldDraft). */
const INPUT_TYPES: Record<string, string> = {
  date: 'date',
  time: 'time',
  timestamp: 'datetime-local',
  email: 'email',
  phone: 'tel',
};
/** Numbers are typed as text: a number input hides what was typed, so it could not be named. */
const INPUT_MODES: Record<string, 'numeric' | 'decimal'> = {
  number: 'numeric',
  decimal: 'decimal',
  percentage: 'decimal',
  currency: 'decimal',
};

interface ControlProps {
  field: EditableField;
  value: unknown;
  draft: Draft;
  initial: Draft;
  setDraft(draft: Draft): void;
  id: string;
  described: { 'aria-invalid'?: boolean; 'aria-describedby'?: string };
}

/** A status field's statuses added in the Outbox and not sent yet; none for other fields. */
const waitingStatusesOf = (field: EditableField) =>
  field.type === 'status' ? (field.waitingStatuses ?? []) : [];

function ChoiceControl({ field, value, draft, setDraft, id, described }: ControlProps) {
  const chosen = draft.kind === 'choice' ? draft.choice : '';
  const choices =
    field.type === 'status'
      ? field.statuses.map((s) => ({ value: s.id, label: s.name }))
      : field.type === 'user_pick_list'
        ? field.users.map((u) => ({ value: u.zpuid, label: u.name ?? u.zpuid }))
        : field.options.map((o) => ({ value: o.name, label: o.name }));
  // The value held now is shown even when the list no longer offers it: never a silent "—".
  const held = draftOf(field, value, '');
  if (
    held.kind === 'choice' &&
    held.choice !== '' &&
    !choices.some((c) => c.value === held.choice)
  ) {
    const name =
      typeof value === 'object' && value !== null && 'name' in value
        ? String((value as { name: unknown }).name ?? held.choice)
        : held.choice;
    choices.unshift({ value: held.choice, label: `${name} (not offered any more)` });
  }
  // Statuses added in the Outbox and not sent yet: shown, not selectable; the note under the
  // field says why (waitingStatusesOf).
  const waiting = waitingStatusesOf(field).filter((s) => !choices.some((c) => c.value === s.id));
  return (
    <select
      id={id}
      value={chosen}
      onChange={(event) => setDraft({ kind: 'choice', choice: event.target.value })}
      {...described}
    >
      {field.type !== 'status' && <option value="">—</option>}
      {choices.map((c) => (
        <option key={c.value} value={c.value}>
          {c.label}
        </option>
      ))}
      {waiting.map((s) => (
        <option key={s.id} value={s.id} disabled>
          {s.name} (not sent yet)
        </option>
      ))}
    </select>
  );
}

function CurrencyControl({ field, draft, initial, setDraft, id, described }: ControlProps) {
  const start = initial.kind === 'currency' ? initial : { code: field.currencyCode, amount: '' };
  const parts = draft.kind === 'currency' ? draft : { code: start.code, amount: '' };
  return (
    <>
      <input
        className="field-editor__code"
        type="text"
        aria-label={`Currency of ${field.label}`}
        size={4}
        maxLength={10}
        autoComplete="off"
        value={parts.code}
        onChange={(e) => setDraft({ kind: 'currency', code: e.target.value, amount: parts.amount })}
      />
      <input
        id={id}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        value={parts.amount}
        onChange={(e) => setDraft({ kind: 'currency', code: parts.code, amount: e.target.value })}
        {...described}
      />
    </>
  );
}

function TextControl({ field, draft, setDraft, id, described }: ControlProps) {
  const text = draft.kind === 'text' ? draft.text : '';
  const onChange = (next: string) => setDraft({ kind: 'text', text: next });
  if (field.type === 'description' || field.type === 'multi_line') {
    return (
      <textarea
        id={id}
        rows={4}
        value={text}
        onChange={(e) => onChange(e.target.value)}
        {...described}
      />
    );
  }
  return (
    <input
      id={id}
      type={INPUT_TYPES[field.type] ?? 'text'}
      inputMode={INPUT_MODES[field.type]}
      autoComplete="off"
      value={text}
      onChange={(e) => onChange(e.target.value)}
      {...described}
    />
  );
}

function Control(props: ControlProps) {
  const { field, draft, setDraft, id, described } = props;
  if (draft.kind === 'flag') {
    return (
      <input
        id={id}
        type="checkbox"
        checked={draft.checked}
        onChange={(e) => setDraft({ kind: 'flag', checked: e.target.checked })}
      />
    );
  }
  if (draft.kind === 'choice') return <ChoiceControl {...props} />;
  if (draft.kind === 'items') {
    return (
      <ItemsControl
        field={field}
        items={draft.items}
        id={id}
        described={described}
        onChange={(items: DraftItem[]) => setDraft({ kind: 'items', items })}
      />
    );
  }
  if (field.type === 'currency') return <CurrencyControl {...props} />;
  return <TextControl {...props} />;
}

export function FieldEditor({
  field,
  value,
  timeZone,
  onSave,
  mark,
  disabled,
  saveLabel = 'Save',
}: FieldEditorProps) {
  const id = useId();
  const messageId = useId();
  const waitingId = useId();
  const initial = draftOf(field, value, timeZone);
  const [draft, setDraft] = useState<Draft>(initial);
  // A new value from outside (saved, replayed, pulled) replaces the draft.
  const [seen, setSeen] = useState(() => JSON.stringify(initial));
  if (seen !== JSON.stringify(initial)) {
    setSeen(JSON.stringify(initial));
    setDraft(initial);
  }
  const [saving, setSaving] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const decision = decideSave(field, value, draft, timeZone);
  const touched = !sameDraft(draft, initial);

  // Save (disabled while it runs and once saved), Undo and Clear (gone once pressed) would drop
  // the keyboard on the page's body: it goes back to the field's own box instead.
  const backToControl = () => document.getElementById(id)?.focus();

  const save = async () => {
    if (decision.kind !== 'ready') return;
    backToControl();
    setSaving(true);
    setRefused(null);
    try {
      await onSave(decision.input);
    } catch (error) {
      setRefused(error instanceof Error ? error.message : String(error));
    } finally {
      setSaving(false);
    }
  };

  const problem = decision.kind === 'invalid' ? decision.message : null;
  const waiting = waitingStatusesOf(field);
  const describedBy = [problem ? messageId : null, waiting.length > 0 ? waitingId : null]
    .filter((part) => part !== null)
    .join(' ');
  const described = {
    ...(problem ? { 'aria-invalid': true } : {}),
    ...(describedBy !== '' ? { 'aria-describedby': describedBy } : {}),
  };
  const clearing = draft.kind === 'cleared' && decision.kind === 'ready';
  return (
    <div className={`field-editor${problem ? ' is-invalid' : ''}`} data-field={field.key}>
      <label htmlFor={id}>
        {field.label}
        {field.mandatory && <span aria-hidden="true"> *</span>}
        {mark}
        {field.type === 'timestamp' && <span className="muted"> ({timeZone})</span>}
      </label>
      <div className="field-editor__row">
        <Control
          field={field}
          value={value}
          draft={draft}
          initial={initial}
          setDraft={setDraft}
          id={id}
          described={described}
        />
        <div className="field-editor__actions">
          <button
            type="button"
            disabled={disabled || saving || decision.kind !== 'ready'}
            onClick={() => void save()}
          >
            {saveLabel}
          </button>
          {mayClear(field, value) && draft.kind !== 'cleared' && (
            <button
              type="button"
              className="link-button"
              disabled={disabled || saving}
              aria-label={`Clear ${field.label}`}
              onClick={() => {
                setDraft(clearedDraft(field));
                backToControl();
              }}
            >
              Clear
            </button>
          )}
          {touched && (
            <button
              type="button"
              className="link-button"
              disabled={saving}
              onClick={() => {
                setDraft(initial);
                backToControl();
              }}
            >
              Undo
            </button>
          )}
        </div>
      </div>
      {problem && (
        <p id={messageId} className="field-editor__error" role="alert">
          {problem}
        </p>
      )}
      {waiting.length > 0 && (
        <p id={waitingId} className="field-editor__note">
          {waiting.map((s) => s.reason).join(' ')}
        </p>
      )}
      {clearing && (
        <p className="field-editor__note" role="status">
          {field.label} will be emptied when you save.
        </p>
      )}
      {decision.kind === 'ready' && decision.rounding && (
        <p className="field-editor__note" role="status">
          {field.label} shows {field.precision} decimals: the amount is sent as typed and will show
          as <strong>{decision.rounding.shows}</strong>.{' '}
          <button
            type="button"
            className="link-button"
            onClick={() =>
              draft.kind === 'currency' &&
              setDraft({ ...draft, amount: decision.rounding?.rounded ?? draft.amount })
            }
          >
            Use {decision.rounding.rounded}
          </button>
        </p>
      )}
      {decision.kind === 'ready' && decision.shows && !decision.rounding && (
        <p className="field-editor__note" role="status">
          Will show as {decision.shows}.
        </p>
      )}
      {refused && (
        <p className="field-editor__error" role="alert">
          {refused}
        </p>
      )}
    </div>
  );
}
