import { useId } from 'react';
import type { RecordsColumns } from '../../../../shared/ipc/areas/records';
import { explainFilter, type FilterField } from '@portaldesk/portal-api/filter';
import { filterValueLabel } from './filterValueLabel';
import {
  addCriterion,
  builderConditions,
  checkDraft,
  draftToFilter,
  filterText,
  newCriterion,
  removeCriterion,
  setPattern,
  updateCriterion,
  type DraftProblems,
  type FilterDraft,
} from './filterDraft';
import { filterPresets } from './filterPresets';
import { useCopy } from '../../ui/useCopy';
import { ValueInput } from './ValueInput';
import { distinctLabels } from '../../../../shared/recordValues/distinctLabels';

/** A pause after typing before the list follows (a `contains` on a million names is not free). */
export const TYPING_APPLY_MS = 300;

export interface FilterBuilderProps {
  columns: RecordsColumns;
  fields: readonly FilterField[];
  draft: FilterDraft;
  /** `after`: ms until the draft is applied when valid (0 at once). */
  onChange(draft: FilterDraft, after: number): void;
}

/** Numbers of the criteria that only wait for their first value; [] when anything else is wrong. */
function onlyWaiting(draft: FilterDraft, problems: DraftProblems): number[] {
  if (problems.pattern.length > 0 || problems.other.length > 0) return [];
  const numbers: number[] = [];
  for (const index of problems.criteria.keys()) {
    if (draft.criteria[index]?.awaitingValue !== true) return [];
    numbers.push(index + 1);
  }
  return numbers.sort((a, b) => a - b);
}

/** 2 → "2"; 2, 3 → "2 and 3"; 2, 3, 5 → "2, 3 and 5". */
function listNumbers(numbers: readonly number[]): string {
  return numbers.length === 1
    ? String(numbers[0])
    : `${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`;
}

/**
 * Builds a filter in the API's own language: criteria (field, a condition the field's kind takes,
 * values by type), the pattern that combines them, with every problem shown where it is, the
 * filter in words, and its exact `filter` value to copy.
 */
export function FilterBuilder({ columns, fields, draft, onChange }: FilterBuilderProps) {
  const id = useId();
  const { copy, noteFor } = useCopy({
    copied: 'Copied: paste it as the filter query parameter.',
    refused: 'The clipboard is not available here: select the text below and copy it.',
  });
  const problems = checkDraft(draft, fields);
  const filter = draftToFilter(draft, fields);
  const text = filterText(draft, fields);
  // Criteria (1-based) that only wait for a first value, when nothing else is wrong.
  const waitingFor = onlyWaiting(draft, problems);
  const presets = filterPresets(fields);
  const fieldByKey = new Map(columns.fields.map((f) => [f.key, f]));
  const fieldLabels = distinctLabels(
    fields,
    (f) => f.name,
    (f) => f.label ?? f.name,
  );
  // Statuses, people and options by name in the filter in words, as the pickers show them.
  const valueLabel = filterValueLabel(columns);

  // The note goes away as soon as the filter on screen is another one.
  const copyNote = noteFor(text);

  return (
    <section className="filter-builder" aria-label="Filter builder">
      {draft.criteria.length === 0 ? (
        <p className="filter-builder__empty">
          No criteria: every record is listed. Add a criterion or pick a preset.
        </p>
      ) : (
        <ol className="criteria">
          {draft.criteria.map((criterion, index) => {
            const field = fields.find((f) => f.name === criterion.field);
            const label = `criterion ${index + 1}`;
            const problemsHere = problems.criteria.get(index) ?? [];
            // A criterion just added only waits for its value: a hint, not an error.
            const waiting = criterion.awaitingValue === true && problemsHere.length > 0;
            const errors = waiting ? [] : problemsHere;
            const errorId = `${id}-c${index}`;
            return (
              <li key={index} className="criterion" data-testid={`criterion-${index + 1}`}>
                <span className="criterion__number" aria-hidden="true">
                  {index + 1}
                </span>
                <select
                  aria-label={`Field of ${label}`}
                  value={criterion.field}
                  onChange={(event) =>
                    onChange(
                      updateCriterion(draft, index, { field: event.target.value }, fields),
                      0,
                    )
                  }
                >
                  {field === undefined && (
                    <option value={criterion.field}>{criterion.field}</option>
                  )}
                  {fields.map((f) => (
                    <option key={f.name} value={f.name}>
                      {fieldLabels.get(f.name) ?? f.name}
                    </option>
                  ))}
                </select>
                <select
                  aria-label={`Condition of ${label}`}
                  value={criterion.condition}
                  aria-invalid={errors.length > 0 || undefined}
                  onChange={(event) =>
                    onChange(
                      updateCriterion(draft, index, { condition: event.target.value }, fields),
                      0,
                    )
                  }
                >
                  {field &&
                    !builderConditions(field.kind).some((c) => c.name === criterion.condition) && (
                      <option value={criterion.condition}>{criterion.condition}</option>
                    )}
                  {field &&
                    builderConditions(field.kind).map((condition) => (
                      <option key={condition.name} value={condition.name}>
                        {condition.label}
                      </option>
                    ))}
                </select>
                {field && (
                  <ValueInput
                    label={label}
                    kind={field.kind}
                    field={fieldByKey.get(field.name)}
                    condition={criterion.condition}
                    values={criterion.values}
                    statuses={columns.statuses}
                    users={columns.users}
                    invalid={errors.length > 0}
                    {...(problemsHere.length > 0 ? { describedBy: errorId } : {})}
                    onChange={(values, typed) =>
                      onChange(
                        updateCriterion(draft, index, { values }, fields),
                        typed ? TYPING_APPLY_MS : 0,
                      )
                    }
                  />
                )}
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Remove ${label}`}
                  onClick={() => onChange(removeCriterion(draft, index), 0)}
                >
                  ×
                </button>
                {errors.length > 0 && (
                  <p className="field-error" id={errorId} role="alert">
                    {errors.join(' ')}
                  </p>
                )}
                {waiting && (
                  <p className="hint" id={errorId}>
                    Waiting for a value: the list changes once this criterion has one.
                  </p>
                )}
              </li>
            );
          })}
        </ol>
      )}

      <div className="filter-builder__add">
        <button
          type="button"
          disabled={fields.length === 0}
          onClick={() => {
            const first = fields[0];
            // A new criterion has no value yet: it waits for one before the list changes.
            if (first) onChange(addCriterion(draft, newCriterion(first)), 0);
          }}
        >
          + Add criterion
        </button>
        {presets.length > 0 && (
          <select
            aria-label="Add a preset"
            value=""
            onChange={(event) => {
              const preset = presets[Number(event.target.value)];
              if (preset) onChange(addCriterion(draft, preset.criterion), 0);
            }}
          >
            <option value="" disabled>
              Add a preset…
            </option>
            {presets.map((preset, i) => (
              <option key={preset.label} value={i}>
                {preset.label}
              </option>
            ))}
          </select>
        )}
      </div>

      {draft.criteria.length > 0 && (
        <div className="filter-builder__pattern">
          <label htmlFor={`${id}-pattern`}>Pattern</label>
          <input
            id={`${id}-pattern`}
            className="mono"
            value={draft.pattern}
            spellCheck={false}
            aria-invalid={problems.pattern.length > 0 || undefined}
            aria-describedby={`${id}-pattern-help`}
            onChange={(event) => onChange(setPattern(draft, event.target.value), TYPING_APPLY_MS)}
          />
          <p
            id={`${id}-pattern-help`}
            className={problems.pattern.length > 0 ? 'field-error' : 'hint'}
            role={problems.pattern.length > 0 ? 'alert' : undefined}
          >
            {problems.pattern.length > 0
              ? `The pattern ${problems.pattern.join('; ')}.`
              : 'Combine criteria by number with AND, OR and parentheses, e.g. (1 AND 2) OR 3.'}
          </p>
        </div>
      )}

      {problems.other.length > 0 && (
        <p className="field-error" role="alert">
          {problems.other.join(' ')}
        </p>
      )}

      {filter && (
        <div className="filter-builder__summary">
          <p className="filter-explain" data-testid="filter-explain">
            {problems.ok
              ? explainFilter(filter, fields, valueLabel)
              : waitingFor.length > 0
                ? `The list changes once ${waitingFor.length === 1 ? 'criterion' : 'criteria'} ${listNumbers(waitingFor)} ${waitingFor.length === 1 ? 'has a value' : 'have values'}.`
                : 'The list still shows the last valid filter: correct the problems above to apply this one.'}
          </p>
          {problems.ok && text !== undefined && (
            <div className="filter-builder__copy">
              <button type="button" onClick={() => void copy(text)}>
                Copy as API filter
              </button>
              <code className="filter-json" data-testid="filter-json">
                {text}
              </code>
              {copyNote && (
                <span className="hint" role="status">
                  {copyNote}
                </span>
              )}
            </div>
          )}
        </div>
      )}
    </section>
  );
}
