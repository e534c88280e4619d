import type {
  RecordsField,
  RecordsStatus,
  RecordsUser,
} from '../../../../shared/ipc/areas/records';
import {
  ALL_CLOSED_TOKEN,
  ALL_OPEN_TOKEN,
  findCondition,
  type FieldKind,
} from '@portaldesk/portal-api/filter';

export interface ValueInputProps {
  /** e.g. "criterion 2": names the inputs for screen readers and tests. */
  label: string;
  kind: FieldKind;
  field: RecordsField | undefined;
  condition: string;
  values: string[];
  statuses: readonly RecordsStatus[];
  users: readonly RecordsUser[];
  invalid: boolean;
  describedBy?: string;
  /** `typed`: from the keyboard, applied after a pause; otherwise at once. */
  onChange(values: string[], typed: boolean): void;
}

const CHOICE_LABELS: Record<string, string> = {
  [ALL_OPEN_TOKEN]: 'All open statuses',
  [ALL_CLOSED_TOKEN]: 'All closed statuses',
};

interface Choice {
  value: string;
  label: string;
}

/** What a picker offers for this field: statuses, people or options, by the value the API wants. */
export function choicesFor(
  kind: FieldKind,
  field: RecordsField | undefined,
  statuses: readonly RecordsStatus[],
  users: readonly RecordsUser[],
): Choice[] | null {
  const people = () => users.map((u) => ({ value: u.zpuid, label: u.name ?? `User ${u.zpuid}` }));
  switch (kind) {
    case 'status':
      return statuses.map((s) => ({ value: s.id, label: s.name }));
    case 'user':
      return people();
    case 'picklist':
      // Pick lists are filtered by the option's display name (packages/portal-api/src/filter/conditions.ts).
      return (field?.options ?? []).map((o) => ({ value: o.name, label: o.name }));
    case 'multipicklist':
      // Multi-user fields hold people (by zpuid); multi-selects options (by id).
      return field?.type === 'multi_user'
        ? people()
        : (field?.options ?? []).map((o) => ({ value: o.id, label: o.name }));
    case 'boolean':
      return [
        { value: 'true', label: 'Yes (checked)' },
        { value: 'false', label: 'No (unchecked)' },
      ];
    default:
      return null;
  }
}

function inputType(kind: FieldKind): 'date' | 'text' {
  return kind === 'date' || kind === 'datetime' ? 'date' : 'text';
}

/** The value boxes of one criterion, by the field's kind and the condition's number of values. */
export function ValueInput(props: ValueInputProps) {
  const { label, kind, field, condition, values, statuses, users, invalid, describedBy, onChange } =
    props;
  const spec = findCondition(kind, condition);
  if (!spec || spec.values === 'none') return null;
  const common = {
    'aria-invalid': invalid || undefined,
    'aria-describedby': describedBy,
  };

  if (spec.choices) {
    return (
      <select
        {...common}
        aria-label={`Value of ${label}`}
        value={values[0] ?? ''}
        onChange={(event) => onChange([event.target.value], false)}
      >
        {spec.choices.map((choice) => (
          <option key={choice} value={choice}>
            {CHOICE_LABELS[choice] ?? choice}
          </option>
        ))}
      </select>
    );
  }

  const choices = choicesFor(kind, field, statuses, users);
  // A relation (direct reports of, subordinates of) names one person; it stays a single picker.
  if (choices && spec.values === 'many') {
    return (
      <select
        {...common}
        multiple
        size={Math.min(6, Math.max(3, choices.length))}
        aria-label={`Values of ${label}`}
        value={values.filter((v) => v !== '')}
        onChange={(event) =>
          onChange(
            [...event.target.selectedOptions].map((o) => o.value),
            false,
          )
        }
      >
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    );
  }
  if (choices) {
    return (
      <select
        {...common}
        aria-label={`Value of ${label}`}
        value={values[0] ?? ''}
        onChange={(event) => onChange([event.target.value], false)}
      >
        <option value="" disabled>
          Choose…
        </option>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    );
  }

  const names =
    spec.values === 'two'
      ? ['From', 'To']
      : values.map((_, i) => (values.length > 1 ? `Value ${i + 1}` : 'Value'));
  const type = inputType(kind);
  return (
    <span className="value-inputs">
      {values.map((value, i) => (
        <span key={i} className="value-inputs__item">
          {spec.values === 'two' && i === 1 && <span aria-hidden="true">and</span>}
          <input
            {...common}
            type={type}
            inputMode={kind === 'number' ? 'decimal' : undefined}
            aria-label={`${names[i] ?? 'Value'} of ${label}`}
            value={value}
            onChange={(event) => {
              const next = [...values];
              next[i] = event.target.value;
              onChange(next, type === 'text');
            }}
          />
          {spec.values === 'many' && values.length > 1 && (
            <button
              type="button"
              className="icon-button"
              aria-label={`Remove value ${i + 1} of ${label}`}
              onClick={() =>
                onChange(
                  values.filter((_, j) => j !== i),
                  false,
                )
              }
            >
              ×
            </button>
          )}
        </span>
      ))}
      {spec.values === 'many' && (
        <button
          type="button"
          className="link-button"
          onClick={() => onChange([...values, ''], false)}
        >
          + value
        </button>
      )}
    </span>
  );
}
