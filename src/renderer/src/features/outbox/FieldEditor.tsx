/**
 * An editor for one field of any type, checked in place with the engine's own rules
 * (validateFieldValue): the rule that failed shows under the field and nothing is saved until the
 * value is valid. `onSave` gets the value in the shape `outbox.edit` takes.
 *
 * For the records panel: `<FieldEditor field={f} value={form.values[f.key]}
 * timeZone={form.timeZone} onSave={(v) => api.outbox.edit({portalId, recordId, changes: {[f.key]: v}})} />`
 * with `form` from `api.outbox.form({portalId, moduleId, recordId})`.
 */
import { useId, useState, type ReactNode } from 'react';
import type { EditableField } from '../../../../shared/contracts/outbox';
import { validateFieldValue } from '../../../../shared/outbox/validateFieldValue';
import { formatZonedDateTime } from '../../../../shared/outbox/zonedDateTime';

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
}

/** What the inputs hold for a value (strings for text inputs, lists for selects). */
export function draftOf(field: EditableField, value: unknown, timeZone: string): unknown {
  if (value === null || value === undefined) {
    return field.type === 'multi_select' || field.type === 'multi_user'
      ? []
      : field.type === 'check_box' || field.type === 'is_external'
        ? false
        : '';
  }
  switch (field.type) {
    case 'status':
      return typeof value === 'object' && value !== null && 'id' in value
        ? String((value as { id: unknown }).id)
        : String(value);
    case 'user_pick_list':
      return typeof value === 'object' && value !== null && 'zpuid' in value
        ? String((value as { zpuid: unknown }).zpuid)
        : String(value);
    case 'multi_user':
      return Array.isArray(value)
        ? value.map((u) =>
            typeof u === 'object' && u !== null
              ? String((u as { zpuid: unknown }).zpuid)
              : String(u),
          )
        : [];
    case 'currency':
      return typeof value === 'object' && value !== null
        ? String((value as { amount: unknown }).amount ?? '')
        : String(value);
    case 'timestamp': {
      const instant = typeof value === 'string' ? Date.parse(value) : NaN;
      return Number.isNaN(instant) ? String(value) : formatZonedDateTime(instant, timeZone);
    }
    default:
      return Array.isArray(value)
        ? value.map(String)
        : typeof value === 'boolean'
          ? value
          : String(value);
  }
}

/** The input a draft stands for, before the shared rules check it. */
export function inputOf(field: EditableField, draft: unknown): unknown {
  if (field.type === 'currency') {
    return typeof draft === 'string' && draft.trim() === ''
      ? null
      : { amount: draft, currency_code: field.currencyCode };
  }
  return draft;
}

function Options({
  field,
  draft,
  setDraft,
  id,
}: {
  field: EditableField;
  draft: unknown;
  setDraft(v: unknown): void;
  id: string;
}) {
  const many = field.type === 'multi_select' || field.type === 'multi_user';
  const choices =
    field.type === 'status'
      ? field.statuses.map((s) => ({ value: s.id, label: s.name }))
      : field.type === 'user_pick_list' || field.type === 'multi_user'
        ? field.users.map((u) => ({ value: u.zpuid, label: u.name ?? u.zpuid }))
        : field.options.map((o) => ({ value: o.name, label: o.name }));
  if (many) {
    const chosen = new Set(Array.isArray(draft) ? (draft as string[]) : []);
    return (
      <select
        id={id}
        multiple
        value={[...chosen]}
        onChange={(event) => setDraft([...event.target.selectedOptions].map((o) => o.value))}
      >
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    );
  }
  return (
    <select id={id} value={String(draft ?? '')} onChange={(event) => setDraft(event.target.value)}>
      {field.type !== 'status' && <option value="">—</option>}
      {choices.map((c) => (
        <option key={c.value} value={c.value}>
          {c.label}
        </option>
      ))}
    </select>
  );
}

const INPUT_TYPES: Record<string, string> = {
  date: 'date',
  time: 'time',
  timestamp: 'datetime-local',
  number: 'number',
  decimal: 'number',
  percentage: 'number',
  currency: 'number',
  email: 'email',
  phone: 'tel',
};

export function FieldEditor({ field, value, timeZone, onSave, mark, disabled }: FieldEditorProps) {
  const id = useId();
  const initial = draftOf(field, value, timeZone);
  const [draft, setDraft] = useState<unknown>(initial);
  // A new value from outside (saved, replayed, pulled) replaces the draft.
  const [seen, setSeen] = useState(() => JSON.stringify(initial));
  if (seen !== JSON.stringify(initial)) {
    setSeen(JSON.stringify(initial));
    setDraft(initial);
  }
  const [saving, setSaving] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const check = validateFieldValue(field, inputOf(field, draft), { timeZone });
  const changed = JSON.stringify(draft) !== JSON.stringify(initial);

  const save = async () => {
    if (!check.ok || !changed) return;
    setSaving(true);
    setRefused(null);
    try {
      await onSave(inputOf(field, draft));
    } catch (error) {
      setRefused(error instanceof Error ? error.message : String(error));
    } finally {
      setSaving(false);
    }
  };

  let control: ReactNode;
  if (field.type === 'check_box' || field.type === 'is_external') {
    control = (
      <input
        id={id}
        type="checkbox"
        checked={draft === true}
        onChange={(e) => setDraft(e.target.checked)}
      />
    );
  } else if (
    ['status', 'pick_list', 'multi_select', 'user_pick_list', 'multi_user'].includes(field.type)
  ) {
    control = <Options field={field} draft={draft} setDraft={setDraft} id={id} />;
  } else if (field.type === 'description' || field.type === 'multi_line') {
    control = (
      <textarea id={id} rows={4} value={String(draft)} onChange={(e) => setDraft(e.target.value)} />
    );
  } else {
    control = (
      <input
        id={id}
        type={INPUT_TYPES[field.type] ?? 'text'}
        step={field.type === 'number' ? 1 : 'any'}
        value={String(draft)}
        onChange={(e) => setDraft(e.target.value)}
      />
    );
  }
  const problem = changed && !check.ok ? check.rule : null;
  return (
    <div className={`field-editor${problem ? ' is-invalid' : ''}`} data-field={field.key}>
      <label htmlFor={id}>
        {field.label}
        {field.mandatory && <span aria-hidden="true"> *</span>}
        {mark}
        {field.type === 'timestamp' && <span className="muted"> ({timeZone})</span>}
      </label>
      <div className="field-editor__row">
        {control}
        <button
          type="button"
          disabled={disabled || saving || !changed || !check.ok}
          onClick={() => void save()}
        >
          Save
        </button>
        {changed && (
          <button
            type="button"
            className="link-button"
            disabled={saving}
            onClick={() => setDraft(initial)}
          >
            Undo
          </button>
        )}
      </div>
      {problem && (
        <p className="field-editor__error" role="alert">
          {problem}
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
