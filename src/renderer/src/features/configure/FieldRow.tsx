import { useId, useRef, useState } from 'react';
import { PendingChanges } from './PendingChanges';
import { useStore } from 'zustand';
import { fieldDeleteConfirmationProblem } from '../../../../shared/configRules/fieldRules';
import type { ConfigField } from '../../../../shared/ipc/areas/configure';
import { OptionsEditor } from './OptionsEditor';
import { PeopleEditor } from './PeopleEditor';
import { StatusesEditor } from './StatusesEditor';
import { TypedNameConfirmation } from './TypedNameConfirmation';
import { FieldForm } from './FieldForm';
import { fieldChangesOf } from './fieldDraft';
import {
  fieldBlockedReason,
  layoutsText,
  recordsHoldingText,
  typeLabel,
  type FieldAction,
} from './fieldFormat';
import type { FieldsStore, FieldUsage } from './fieldsStore';

/** Ours: the table's columns, for the row that opens under a field. */
export const FIELD_COLUMNS = 8;

/**
 * Delete, asked in two steps: where the field is used (read from the engine when opened), then
 * its name typed exactly; nothing is sent until it matches.
 */
function DeleteConfirmation({
  store,
  field,
  usage,
  onClose,
}: {
  store: FieldsStore;
  field: ConfigField;
  usage: FieldUsage;
  onClose(): void;
}) {
  const remove = useStore(store, (state) => state.remove);
  const error = useStore(store, (state) => state.errors[`delete:${field.id}`]);
  const busy = useStore(store, (state) => state.busy[`delete:${field.id}`] ?? false);
  return (
    <TypedNameConfirmation
      label={`Delete ${field.label}`}
      name={field.label}
      problemOf={(typed) => fieldDeleteConfirmationProblem(typed, field.label)}
      submitLabel="Delete field"
      busy={busy}
      error={error}
      onConfirm={(typed) => void remove(field.id, typed).then((queued) => queued && onClose())}
      onCancel={onClose}
    >
      <p>
        Delete the field <strong>{field.label}</strong>? {layoutsText(usage.layouts)}{' '}
        {recordsHoldingText(usage.records)} Its value leaves every record, here and on the service
        once sent.
      </p>
    </TypedNameConfirmation>
  );
}

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

type Opened = 'edit' | 'delete' | 'options' | 'statuses' | 'people' | null;
/** The editors that open under a row in place of a form (they carry their own Close). */
const EDITORS: ReadonlySet<Opened> = new Set(['options', 'statuses', 'people']);

/** One field: what it is, what is queued for it, and edit and delete opened under it. */
export function FieldRow({
  store,
  field,
  others,
}: {
  store: FieldsStore;
  field: ConfigField;
  others: readonly { id: string; label: string }[];
}) {
  const update = useStore(store, (state) => state.update);
  const readUsage = useStore(store, (state) => state.usage);
  const clearError = useStore(store, (state) => state.clearError);
  const editError = useStore(store, (state) => state.errors[`edit:${field.id}`]);
  const editBusy = useStore(store, (state) => state.busy[`edit:${field.id}`] ?? false);
  const usageError = useStore(store, (state) => state.errors[`usage:${field.id}`]);
  const usageBusy = useStore(store, (state) => state.busy[`usage:${field.id}`] ?? false);
  const [opened, setOpened] = useState<Opened>(null);
  const [usage, setUsage] = useState<FieldUsage | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  /** The Options, Statuses or Users and roles button: the keyboard goes back to it when its editor closes. */
  const choicesButton = useRef<HTMLButtonElement>(null);
  const ids = useId();

  const open = (next: Opened) => {
    clearError(`edit:${field.id}`);
    clearError(`usage:${field.id}`);
    clearError(`delete:${field.id}`);
    setUsage(null);
    setOpened(next);
  };
  /** Closes what is open under the row; the keyboard goes back to the button that opened it. */
  const close = () => {
    const opener =
      opened === 'delete'
        ? deleteButton.current
        : opened === 'options' || opened === 'statuses' || opened === 'people'
          ? choicesButton.current
          : editButton.current;
    open(null);
    opener?.focus();
  };
  const startDelete = async () => {
    open('delete');
    const answer = await readUsage(field.id);
    if (answer) setUsage(answer);
    else setOpened(null);
  };

  const reasons = new Map<FieldAction, string>();
  for (const action of ['edit', 'delete'] as const) {
    const reason = fieldBlockedReason(field, action);
    if (reason) reasons.set(action, reason);
  }
  const reasonId = `${ids}-reason`;
  /** A button that says why it is disabled, to the eye and to assistive technology. */
  const blockable = (action: FieldAction) => {
    const reason = reasons.get(action);
    return {
      disabled: usageBusy || reason !== undefined,
      title: reason,
      'aria-describedby': reason ? reasonId : usageError ? `${ids}-usage-error` : undefined,
    };
  };
  const shownReasons = [...new Set(reasons.values())];
  const nameId = `${ids}-name`;

  return (
    <>
      <tr
        className={field.system ? 'fields-row is-system' : 'fields-row'}
        aria-labelledby={nameId}
        data-testid={`field-${field.id}`}
      >
        <th scope="row">
          <span id={nameId} className="fields-row__name">
            {field.label}
          </span>
          {field.system && <span className="configure-badge configure-badge--muted">System</span>}
          <PendingChanges name={field.label} pending={field.pending} />
        </th>
        <td>{typeLabel(field.type)}</td>
        <td>
          {field.apiName === null || field.localOnly ? (
            <em className="muted">not created yet</em>
          ) : (
            <code>{field.apiName}</code>
          )}
        </td>
        <td>{yesNo(field.mandatory)}</td>
        <td>{yesNo(field.pii)}</td>
        <td>{yesNo(field.encrypted)}</td>
        <td>
          {field.layouts.length === 0 ? (
            <span className="muted">none</span>
          ) : (
            field.layouts.map((layout) => layout.name).join(', ')
          )}
        </td>
        <td>
          <div className="actions fields-row__actions">
            <button
              ref={editButton}
              type="button"
              {...blockable('edit')}
              aria-expanded={opened === 'edit'}
              aria-label={`Edit ${field.label}`}
              onClick={() => open(opened === 'edit' ? null : 'edit')}
            >
              Edit
            </button>
            {(field.type === 'pick_list' || field.type === 'multi_select') && (
              <button
                ref={choicesButton}
                type="button"
                aria-expanded={opened === 'options'}
                aria-label={`Options of ${field.label}`}
                onClick={() => open(opened === 'options' ? null : 'options')}
              >
                Options
              </button>
            )}
            {field.type === 'status' && (
              <button
                ref={choicesButton}
                type="button"
                aria-expanded={opened === 'statuses'}
                aria-label={`Statuses of ${field.label}`}
                onClick={() => open(opened === 'statuses' ? null : 'statuses')}
              >
                Statuses
              </button>
            )}
            {(field.type === 'user_pick_list' || field.type === 'multi_user') && (
              <button
                ref={choicesButton}
                type="button"
                aria-expanded={opened === 'people'}
                aria-label={`Users and roles of ${field.label}`}
                onClick={() => open(opened === 'people' ? null : 'people')}
              >
                Users and roles
              </button>
            )}
            <button
              ref={deleteButton}
              type="button"
              className="danger"
              {...blockable('delete')}
              aria-expanded={opened === 'delete'}
              aria-label={`Delete ${field.label}…`}
              onClick={() => (opened === 'delete' ? open(null) : void startDelete())}
            >
              {usageBusy ? 'Reading…' : 'Delete…'}
            </button>
          </div>
          {shownReasons.length > 0 && (
            <p id={reasonId} className="hint configure-form__note">
              {shownReasons.join(' ')}
            </p>
          )}
          {usageError && (
            <p id={`${ids}-usage-error`} className="error configure-form__note" role="alert">
              Where it is used could not be read: {usageError}
            </p>
          )}
        </td>
      </tr>
      {opened === 'options' && (
        <tr className="fields-row__panel">
          <td colSpan={FIELD_COLUMNS}>
            <OptionsEditor
              portalId={store.getState().portalId}
              moduleId={store.getState().moduleId}
              fieldId={field.id}
              onClose={close}
            />
          </td>
        </tr>
      )}
      {opened === 'statuses' && (
        <tr className="fields-row__panel">
          <td colSpan={FIELD_COLUMNS}>
            <StatusesEditor
              portalId={store.getState().portalId}
              moduleId={store.getState().moduleId}
              onClose={close}
            />
          </td>
        </tr>
      )}
      {opened === 'people' && (
        <tr className="fields-row__panel">
          <td colSpan={FIELD_COLUMNS}>
            <PeopleEditor
              portalId={store.getState().portalId}
              moduleId={store.getState().moduleId}
              fieldId={field.id}
              onClose={close}
            />
          </td>
        </tr>
      )}
      {opened !== null && !EDITORS.has(opened) && (opened === 'edit' || usage !== null) && (
        <tr className="fields-row__panel">
          <td colSpan={FIELD_COLUMNS}>
            {opened === 'edit' ? (
              <FieldForm
                field={field}
                layouts={null}
                layoutsError={undefined}
                others={others}
                error={editError}
                busy={editBusy}
                onCancel={close}
                onSubmit={async (draft) => {
                  const queued = await update(field.id, fieldChangesOf(draft, field));
                  if (queued) close();
                  return queued;
                }}
              />
            ) : (
              usage && (
                <DeleteConfirmation store={store} field={field} usage={usage} onClose={close} />
              )
            )}
          </td>
        </tr>
      )}
    </>
  );
}
