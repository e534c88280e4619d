import { useId, useState, type FormEvent, type ReactNode } from 'react';
import {
  DEFAULT_VALUE_MAX,
  FIELD_DESCRIPTION_MAX,
  PRECISION_MAX,
} from '../../../../shared/configRules/fieldRules';
import type { ConfigField, ConfigLayouts } from '../../../../shared/ipc/areas/configure';
import { CUSTOM_FIELD_TYPES } from '@portaldesk/portal-api/domain/customFieldTypes';
import {
  defaultKindOf,
  draftOfField,
  emptyFieldDraft,
  fieldChangesOf,
  fieldDraftProblems,
  firstInvalidField,
  isUserType,
  type FieldControlKey,
  type FieldDraft,
} from './fieldDraft';
import { FIELD_TYPE_GROUPS, SYSTEM_EDIT_REASON, typeLabel } from './fieldFormat';

const CURRENCY_LISTS = [
  ['project_currency', "The project's currency"],
  ['field_currency', 'A currency of its own'],
] as const;

const USER_LISTS = [
  ['all_users', 'All users'],
  ['selected_users', 'Selected users'],
  ['selected_roles', 'Users of selected roles'],
] as const;

/** The layout a new field goes on unless chosen otherwise: the default one, else the first. */
function firstLayoutId(layouts: ConfigLayouts | null): string {
  const list = layouts?.layouts ?? [];
  return (list.find((layout) => layout.isDefault) ?? list[0])?.id ?? '';
}

/**
 * A custom field's settings, new or existing: every problem next to its control as the user types
 * (in the shared rules' words), focus on the first on a submit with problems, nothing sent then;
 * the engine's refusal beside the submit button. A system field edits its name only.
 */
export function FieldForm({
  field,
  layouts,
  layoutsError,
  others,
  error,
  busy,
  onSubmit,
  onCancel,
}: {
  /** Null: a new field. */
  field: ConfigField | null;
  /** The module's layouts, for placing a new field; null while read. */
  layouts: ConfigLayouts | null;
  layoutsError: string | undefined;
  others: readonly { id: string; label: string }[];
  /** The engine's refusal of the last submit, in its words. */
  error: string | undefined;
  busy: boolean;
  /** Resolves true once queued (the form closes or empties). */
  onSubmit(draft: FieldDraft): Promise<boolean>;
  onCancel(): void;
}) {
  const creating = field === null;
  const system = field?.system ?? false;
  const [draft, setDraft] = useState<FieldDraft>(() =>
    field ? draftOfField(field) : emptyFieldDraft(firstLayoutId(layouts)),
  );
  const [touched, setTouched] = useState<ReadonlySet<FieldControlKey>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const ids = useId();

  const layoutList = layouts?.layouts ?? [];
  const noLayoutReason =
    layouts === null
      ? layoutsError
        ? `Place it on: the layouts could not be read (${layoutsError}).`
        : 'Place it on: the layouts are still being read.'
      : layoutList.length === 0
        ? 'Place it on: this module has no layout yet; add one under Layouts first.'
        : null;
  const problems = fieldDraftProblems(draft, field, others, noLayoutReason);
  const shown: Partial<Record<FieldControlKey, string>> = {};
  for (const key of Object.keys(problems) as FieldControlKey[]) {
    if (submitted || touched.has(key)) shown[key] = problems[key];
  }
  const unchanged = field !== null && Object.keys(fieldChangesOf(draft, field)).length === 0;
  const type = field?.type ?? draft.type;
  const kind = defaultKindOf(type);
  const chosenLayout = layoutList.find((layout) => layout.id === draft.layoutId);

  const change = (control: FieldControlKey, patch: Partial<FieldDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    setTouched((current) => (current.has(control) ? current : new Set([...current, control])));
  };
  const problemId = (control: FieldControlKey) => `${ids}-${control}-problem`;
  const systemNote = `${ids}-system`;
  /** The attributes tying a control to its problem (and to a hint, when it has one). */
  const described = (control: FieldControlKey, hint?: string) => {
    const problem = shown[control];
    const describedBy = [problem ? problemId(control) : null, hint ?? null].filter(Boolean);
    return {
      // A submit with problems focuses the first control so marked, in screen order.
      'data-control': control,
      'aria-invalid': problem ? true : undefined,
      'aria-describedby': describedBy.length > 0 ? describedBy.join(' ') : undefined,
    };
  };
  const problemText = (control: FieldControlKey) =>
    shown[control] ? (
      <p id={problemId(control)} className="configure-field__problem">
        {shown[control]}
      </p>
    ) : null;
  const check = (control: 'mandatory' | 'pii' | 'encrypted' | 'hasInfo', label: ReactNode) => (
    <div className="configure-field">
      <label className="settings-check">
        <input
          type="checkbox"
          checked={draft[control]}
          onChange={(event) => change(control, { [control]: event.target.checked })}
          {...described(control)}
        />
        {label}
      </label>
      {problemText(control)}
    </div>
  );

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || unchanged) return;
    setSubmitted(true);
    const first = firstInvalidField(problems);
    if (first) {
      event.currentTarget
        .querySelector<HTMLElement>(`[data-control="${first}"]:not([disabled])`)
        ?.focus();
      return;
    }
    if (await onSubmit(draft)) {
      setDraft(field ? draftOfField(field) : emptyFieldDraft(draft.layoutId));
      setTouched(new Set());
      setSubmitted(false);
    }
  };

  const titleId = `${ids}-title`;
  const title = creating ? 'New field' : `Edit ${field.label}`;
  return (
    <form
      className="configure-form fields-form"
      aria-labelledby={titleId}
      noValidate
      onSubmit={(event) => void submit(event)}
    >
      <h3 id={titleId}>{title}</h3>
      {system && (
        <p id={systemNote} className="hint configure-form__note">
          {SYSTEM_EDIT_REASON}
        </p>
      )}
      <div className="configure-form__names">
        {creating ? (
          <div className="configure-field">
            <label htmlFor={`${ids}-type`}>Type</label>
            <select
              id={`${ids}-type`}
              // Opened by the user's own click: the first thing to choose.
              autoFocus
              value={draft.type}
              onChange={(event) => {
                const next = event.target.value;
                // A default typed for one kind of value means nothing to another.
                const keep = defaultKindOf(next) === defaultKindOf(draft.type);
                change('type', { type: next, ...(keep ? {} : { defaultText: '' }) });
              }}
              {...described('type')}
            >
              {FIELD_TYPE_GROUPS.map((group) => (
                <optgroup key={group.label} label={group.label}>
                  {group.types.map((name) => (
                    <option key={name} value={name}>
                      {CUSTOM_FIELD_TYPES[name].label}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
            {problemText('type')}
          </div>
        ) : (
          <p className="muted configure-form__note fields-form__type">
            Type: {typeLabel(type)} (fixed once created)
          </p>
        )}
        <div className="configure-field">
          <label htmlFor={`${ids}-label`}>Name</label>
          <input
            id={`${ids}-label`}
            value={draft.label}
            autoComplete="off"
            // An edit opened by the user's own click starts at the name.
            autoFocus={!creating}
            onChange={(event) => change('label', { label: event.target.value })}
            {...described('label')}
          />
          {problemText('label')}
        </div>
      </div>

      {!system && (
        <>
          <div className="fields-form__checks">
            {check('mandatory', 'Mandatory')}
            {check('pii', 'Personal data (PII)')}
            {check('encrypted', 'Encrypted')}
            {check('hasInfo', 'Show info')}
          </div>

          <div className="configure-field fields-form__wide">
            <label htmlFor={`${ids}-description`}>Description (optional)</label>
            <textarea
              id={`${ids}-description`}
              rows={2}
              value={draft.description}
              onChange={(event) => change('description', { description: event.target.value })}
              {...described('description', `${ids}-description-hint`)}
            />
            <p id={`${ids}-description-hint`} className="hint configure-form__note">
              At most {FIELD_DESCRIPTION_MAX.toLocaleString()} characters.
            </p>
            {problemText('description')}
          </div>

          {kind === 'check' ? (
            <div className="configure-field">
              <label className="settings-check">
                <input
                  type="checkbox"
                  checked={draft.defaultChecked}
                  onChange={(event) =>
                    change('defaultValue', { defaultChecked: event.target.checked })
                  }
                  {...described('defaultValue')}
                />
                Checked by default
              </label>
              {problemText('defaultValue')}
            </div>
          ) : kind === 'none' ? (
            <p className="muted configure-form__note">
              A user field has no default value here; choose whom it lists below.
            </p>
          ) : (
            <div className="configure-field">
              <label htmlFor={`${ids}-default`}>Default value (optional)</label>
              <input
                id={`${ids}-default`}
                // Text, not type="number": a browser reads "12,5" there as no value at all, and
                // the user would never hear why; typed as text, the problem is said beside it.
                inputMode={kind === 'whole' ? 'numeric' : kind === 'number' ? 'decimal' : undefined}
                value={draft.defaultText}
                autoComplete="off"
                onChange={(event) => change('defaultValue', { defaultText: event.target.value })}
                {...described('defaultValue', kind === 'text' ? `${ids}-default-hint` : undefined)}
              />
              {kind === 'text' && (
                <p id={`${ids}-default-hint`} className="hint configure-form__note">
                  At most {DEFAULT_VALUE_MAX} characters.
                </p>
              )}
              {problemText('defaultValue')}
            </div>
          )}

          {type === 'currency' && (
            <fieldset className="configure-projects fields-form__group">
              <legend>Currency</legend>
              <div className="configure-form__names">
                <div className="configure-field">
                  <label htmlFor={`${ids}-currency-list`}>Currency of a value</label>
                  <select
                    id={`${ids}-currency-list`}
                    value={draft.currencyListType}
                    onChange={(event) =>
                      change('currencyListType', {
                        currencyListType: event.target.value as FieldDraft['currencyListType'],
                      })
                    }
                    {...described('currencyListType')}
                  >
                    {CURRENCY_LISTS.map(([value, label]) => (
                      <option key={value} value={value}>
                        {label}
                      </option>
                    ))}
                  </select>
                  {problemText('currencyListType')}
                </div>
                {draft.currencyListType === 'field_currency' && (
                  <div className="configure-field">
                    <label htmlFor={`${ids}-currency-code`}>Currency code</label>
                    <input
                      id={`${ids}-currency-code`}
                      value={draft.currencyCode}
                      autoComplete="off"
                      maxLength={10}
                      placeholder="USD"
                      onChange={(event) =>
                        change('currencyCode', { currencyCode: event.target.value })
                      }
                      {...described('currencyCode')}
                    />
                    {problemText('currencyCode')}
                  </div>
                )}
                <div className="configure-field">
                  <label htmlFor={`${ids}-precision`}>Decimals (0–{PRECISION_MAX})</label>
                  <input
                    id={`${ids}-precision`}
                    inputMode="numeric"
                    autoComplete="off"
                    value={draft.precision}
                    onChange={(event) => change('precision', { precision: event.target.value })}
                    {...described('precision')}
                  />
                  {problemText('precision')}
                </div>
              </div>
            </fieldset>
          )}

          {isUserType(type) && (
            <div className="configure-field">
              <label htmlFor={`${ids}-user-list`}>Lists</label>
              <select
                id={`${ids}-user-list`}
                value={draft.userListType}
                onChange={(event) =>
                  change('userListType', {
                    userListType: event.target.value as FieldDraft['userListType'],
                  })
                }
                {...described('userListType')}
              >
                {USER_LISTS.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
              {problemText('userListType')}
            </div>
          )}
        </>
      )}

      {creating && (
        <fieldset className="configure-projects fields-form__group">
          <legend>Place it on</legend>
          <div className="configure-form__names">
            <div className="configure-field">
              <label htmlFor={`${ids}-layout`}>Layout</label>
              <select
                id={`${ids}-layout`}
                value={draft.layoutId}
                onChange={(event) =>
                  change('layoutId', { layoutId: event.target.value, sectionId: '' })
                }
                {...described('layoutId')}
              >
                {draft.layoutId === '' && <option value="">Choose a layout…</option>}
                {layoutList.map((layout) => (
                  <option key={layout.id} value={layout.id}>
                    {layout.name}
                    {layout.isDefault ? ' (default)' : ''}
                  </option>
                ))}
              </select>
              {problemText('layoutId')}
            </div>
            <div className="configure-field">
              <label htmlFor={`${ids}-section`}>Section (optional)</label>
              <select
                id={`${ids}-section`}
                value={draft.sectionId}
                disabled={!chosenLayout}
                onChange={(event) => change('sectionId', { sectionId: event.target.value })}
                {...described('sectionId')}
              >
                <option value="">No particular section</option>
                {chosenLayout?.sections.map((section) => (
                  <option key={section.id} value={section.id}>
                    {section.name}
                  </option>
                ))}
              </select>
              {problemText('sectionId')}
            </div>
          </div>
        </fieldset>
      )}

      <div className="actions">
        <button
          type="submit"
          className="primary"
          data-control="form"
          disabled={busy || unchanged}
          aria-describedby={error ? `${ids}-refusal` : system ? systemNote : undefined}
        >
          {busy ? 'Queuing…' : creating ? 'Create field' : 'Save changes'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        {unchanged && <span className="muted">Nothing changed yet.</span>}
      </div>
      {error && (
        <p id={`${ids}-refusal`} className="error configure-form__refusal" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
